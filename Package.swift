// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Searchlight",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Searchlight", targets: ["Searchlight"]),
        .library(name: "SearchlightFiles", targets: ["SearchlightFiles"]),
        .executable(name: "searchlight", targets: ["searchlight"]),
        .executable(name: "searchlight-extractor", targets: ["searchlight-extractor"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // libmagic, found through pkg-config.
        .systemLibrary(
            name: "CMagic",
            pkgConfig: "libmagic",
            providers: [.apt(["libmagic-dev"])]
        ),
        // libvips, found through pkg-config; only the extractor links it.
        .systemLibrary(
            name: "CLibVips",
            path: "Sources/CLibVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // statx(2), which Swift's Glibc module hides behind _GNU_SOURCE.
        .target(name: "CFileSystem"),
        // A small C layer over libvips' variadic calls, which Swift cannot call.
        .target(name: "CVips", dependencies: ["CLibVips"]),
        // The wire format between the indexer and its extraction workers, shared by both.
        .target(name: "ExtractionProtocol"),
        .target(
            name: "Searchlight",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SearchlightFiles",
            dependencies: [
                "Searchlight",
                "CMagic",
                "CFileSystem",
                "ExtractionProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "searchlight",
            dependencies: [
                "Searchlight",
                "SearchlightFiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(name: "searchlight-extractor", dependencies: ["CVips", "ExtractionProtocol"]),
        // Thumbnails per second through ExtractorPool; run by Benchmarks/thumbnails.sh.
        .executableTarget(
            name: "thumbnail-bench",
            dependencies: ["SearchlightFiles", "searchlight-extractor"],
            path: "Benchmarks/ThumbnailBench"
        ),
        .executableTarget(
            name: "query-bench",
            dependencies: ["Searchlight"],
            path: "Benchmarks/QueryBench"
        ),
        .executableTarget(
            name: "NotesIndex",
            dependencies: ["Searchlight"],
            path: "Examples/NotesIndex"
        ),
        // Helpers shared by the test targets (temporary trees, commands, seeded randomness).
        .target(name: "SearchlightTestSupport", path: "Tests/Support"),
        .testTarget(name: "SearchlightTests", dependencies: ["Searchlight", "SearchlightTestSupport"]),
        .testTarget(
            name: "SearchlightFilesTests",
            // The extractor is a dependency so that it is built next to the tests.
            dependencies: [
                "Searchlight",
                "SearchlightFiles",
                "ExtractionProtocol",
                "searchlight-extractor",
                "SearchlightTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "CommandLineTests", dependencies: ["searchlight", "searchlight-extractor", "SearchlightTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
