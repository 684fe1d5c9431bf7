import Foundation
import Testing

/// The rule of Docs/Layout.md#c-modules, read from the sources: a C module is a system library's
/// module map (`CLib<Library>`) or C of ours (`CShim<Name>`); Swift reaches each library through
/// one of them; `CShimFileSystem` and Glibc stay in SystemCalls (Glibc also where a shim's
/// memory is freed).
@Suite("C modules")
struct CModuleRuleTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    static func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// Every Swift file under Sources/, by its path below Sources/, with its text.
    static func swiftFiles() -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        let walker = FileManager.default.enumerator(atPath: sources.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".swift"),
                  let text = try? String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8) else { continue }
            files.append((path, text))
        }
        return files
    }

    static func imports(_ module: String, in text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            line.split(separator: " ").last == Substring(module) && line.split(separator: " ").contains("import")
        }
    }

    @Test("Each C module is CLib<Library> (a module map, no code) or CShim<Name> (code and its header)")
    func naming() {
        let modules = Self.names(in: Self.sources).filter { $0.first == "C" }
        #expect(!modules.isEmpty)
        for module in modules {
            let files = Self.names(in: Self.sources.appendingPathComponent(module))
            if module.hasPrefix("CLib") {
                #expect(files == ["module.modulemap", "shim.h"], "\(module) holds \(files)")
            } else if module.hasPrefix("CShim") {
                #expect(files.contains { $0.hasSuffix(".c") } && !files.contains("module.modulemap"), "\(module) holds \(files)")
                #expect(Self.names(in: Self.sources.appendingPathComponent("\(module)/include")) == ["\(module).h"],
                        "\(module)'s public header")
            } else {
                Issue.record("\(module) is neither CLib… nor CShim…")
            }
        }
    }

    @Test("Swift reaches a library that has a shim through the shim alone")
    func oneWrapperPerLibrary() {
        let modules = Self.names(in: Self.sources)
        let wrapped = modules.filter { $0.hasPrefix("CLib") && modules.contains("CShim" + $0.dropFirst(4)) }
        #expect(wrapped.contains("CLibVips") && wrapped.contains("CLibXML2"))
        for file in Self.swiftFiles() {
            for library in wrapped {
                #expect(!Self.imports(library, in: file.text), "\(file.path) imports \(library), which CShim\(library.dropFirst(4)) wraps")
            }
        }
    }

    @Test("CShimFileSystem only in SystemCalls; Glibc only there and where a shim's memory is freed")
    func systemCallsAlone() {
        for file in Self.swiftFiles() where !file.path.hasPrefix("SystemCalls/") {
            #expect(!Self.imports("CShimFileSystem", in: file.text), "\(file.path) imports CShimFileSystem")
            if Self.imports("Glibc", in: file.text) {
                let freesShimMemory = file.text.range(of: #"\bfree\([a-z]"#, options: .regularExpression) != nil
                    && file.text.split(separator: "\n").contains { $0.hasPrefix("import CShim") }
                #expect(freesShimMemory, "\(file.path) imports Glibc but frees no shim's memory")
            }
        }
    }
}
