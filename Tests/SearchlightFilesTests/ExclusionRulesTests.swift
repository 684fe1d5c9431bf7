import Foundation
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

@Suite("Ignore patterns (gitignore semantics, .ownThread)")
struct IgnorePatternTests {
    func excluded(_ rules: String, _ path: String, directory: Bool = false) -> Bool {
        IgnoreRules(text: rules).decision(for: path, isDirectory: directory) == .excluded
    }

    @Test func namesMatchAtAnyDepthAndAnchoredPatternsOnlyAtTheirFolder() {
        #expect(excluded("notes.txt", "notes.txt"))
        #expect(excluded("notes.txt", "a/b/notes.txt"))
        #expect(!excluded("notes.txt", "notes.txt.bak"))
        #expect(excluded("/notes.txt", "notes.txt"))
        #expect(!excluded("/notes.txt", "a/notes.txt"))
        #expect(excluded("doc/frotz", "doc/frotz"))
        #expect(!excluded("doc/frotz", "a/doc/frotz"))
    }

    @Test func wildcardsAndClasses() {
        #expect(excluded("*.pem", "keys/server.pem"))
        #expect(!excluded("*.pem", "server.pem.txt"))
        #expect(excluded("id_rsa*", "id_rsa.pub"))
        #expect(excluded("file?.log", "file1.log"))
        #expect(!excluded("file?.log", "file10.log"))
        #expect(excluded("report[0-9].pdf", "report7.pdf"))
        #expect(!excluded("report[!0-9].pdf", "report7.pdf"))
        #expect(excluded("report[!0-9].pdf", "reportx.pdf"))
        #expect(excluded("a*c", "abbbc"))
        #expect(!excluded("docs/*.md", "docs/sub/readme.md"), "* does not cross a slash")
        #expect(excluded("\\#hash", "#hash"), "escaped #")
        #expect(excluded("\\!bang", "!bang"), "escaped !")
        #expect(IgnoreRules(text: "# a comment\n\n   \n").isEmpty)
    }

    @Test func doubleStars() {
        #expect(excluded("**/logs", "logs", directory: true))
        #expect(excluded("**/logs", "a/b/logs", directory: true))
        #expect(excluded("logs/**", "logs/a/b.txt"))
        #expect(!excluded("logs/**", "logs", directory: true), "/** matches inside, not the folder")
        #expect(excluded("a/**/b", "a/b"))
        #expect(excluded("a/**/b", "a/x/y/b"))
        #expect(!excluded("a/**/b", "a/x/y/c"))
    }

    @Test func trailingSlashMatchesDirectoriesOnly() {
        #expect(excluded("build/", "build", directory: true))
        #expect(!excluded("build/", "build", directory: false))
        #expect(excluded("build/", "src/build", directory: true))
    }

    @Test func theLastMatchingPatternWinsAndNegationsInclude() {
        let rules = IgnoreRules(text: "*.log\n!keep.log\n")
        #expect(rules.decision(for: "debug.log", isDirectory: false) == .excluded)
        #expect(rules.decision(for: "keep.log", isDirectory: false) == .included)
        #expect(rules.decision(for: "notes.txt", isDirectory: false) == nil)
        let reversed = IgnoreRules(text: "!keep.log\n*.log\n")
        #expect(reversed.decision(for: "keep.log", isDirectory: false) == .excluded)
    }

    @Test func trailingSpacesAreIgnoredUnlessEscaped() {
        #expect(excluded("notes.txt   ", "notes.txt"))
        #expect(excluded("notes\\ ", "notes "))
    }
}

@Suite("Exclusions applied during a scan", .ownThread)
struct ExclusionScanTests {
    @Test func defaultsSkipDependenciesCachesBuildOutputAndSecrets() throws {
        let fixture = try ScanFixture()
        let tree = fixture.tree
        tree.write("notes.txt")
        tree.write("web/node_modules/left-pad/index.js")
        tree.write("web/package.json", "{}\n")
        tree.write("web/build/bundle.js")
        tree.write("py/__pycache__/mod.pyc")
        tree.write("rust/Cargo.toml", "[package]\n")
        tree.write("rust/target/debug/app")
        tree.write("target/report.txt")  // no Cargo.toml or pom.xml beside it: a real folder
        tree.write("cache/CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n")
        tree.write("cache/blob")
        tree.write("faketag/CACHEDIR.TAG", "not a tag\n")
        tree.write("swift/Package.swift", "// swift-tools-version: 6.0\n")
        tree.write("swift/.build/debug/app")
        tree.write("keys/server.pem")
        tree.write("keys/server.key")  // not a key by its content: the name alone does not decide
        tree.write("keys/id_rsa")
        tree.write("keys/passwords.kdbx")
        tree.write(".ssh/config")
        tree.write(".env")
        tree.write(".config/app.conf")
        try fixture.scan { $0.walk.includeHidden = true }
        #expect(try fixture.indexedNames() == [
            ".config/app.conf", "faketag/CACHEDIR.TAG", "keys/server.key", "notes.txt", "rust/Cargo.toml",
            "swift/Package.swift", "target/report.txt", "web/package.json",
        ])
    }

    @Test func ignoreFilesFollowGitSemanticsAndChangesRemoveNewlyExcludedItems() throws {
        let fixture = try ScanFixture()
        let tree = fixture.tree
        tree.write("a.log")
        tree.write("keep.log")
        tree.write("docs/draft.md")
        tree.write("docs/final.md")
        tree.write("docs/sub/draft.md")
        tree.write("private/secret.txt")
        tree.write("private/public.txt")
        try fixture.scan()
        #expect(try fixture.indexedNames().count == 7)

        tree.write(".searchlightignore", "*.log\n!keep.log\n/private/\n!private/public.txt\n")
        tree.write("docs/.searchlightignore", "/draft.md\n")
        let summary = try fixture.scan()
        #expect(summary.removed == 4)
        // A file in an excluded folder cannot be re-included; the anchored pattern of docs/
        // only matches in docs/ itself.
        #expect(try fixture.indexedNames() == ["docs/final.md", "docs/sub/draft.md", "keep.log"])

        // A deeper file overrides a shallower one.
        tree.write("docs/sub/.searchlightignore", "!*.log\n")
        tree.write("docs/sub/trace.log")
        try fixture.scan()
        #expect(try fixture.indexedNames() == ["docs/final.md", "docs/sub/draft.md", "docs/sub/trace.log", "keep.log"])

        // Removing the ignore file brings the files back.
        tree.remove(".searchlightignore")
        try fixture.scan()
        #expect(try fixture.indexedNames().contains("private/secret.txt"))
    }

    @Test func configuredPatternsApplyToEveryRootAndRulesCanReincludeADefault() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("a.iso")
        fixture.tree.write("b.txt")
        fixture.tree.write("vendor/node_modules/x.js")
        try fixture.scan { $0.walk.exclusions.configured = IgnoreRules(lines: ["*.iso", "!node_modules/"]) }
        #expect(try fixture.indexedNames() == ["b.txt", "vendor/node_modules/x.js"])
    }

    @Test func aSubtreeReconcileHonoursTheFoldersAboveIt() throws {
        let fixture = try ScanFixture()
        fixture.tree.write("skip/inner/a.txt")
        fixture.tree.write("other/b.txt")
        try fixture.scan()
        fixture.tree.write(".searchlightignore", "skip/\n")
        let scanner = try fixture.makeScanner()
        _ = try scanner.reconcile(subtree: ItemIdentifier("skip/inner"))
        #expect(try fixture.indexedNames() == ["other/b.txt"])
        let root = try RootFolder(path: fixture.tree.path)
        let rules = ExclusionRules()
        #expect(rules.excludes(ItemIdentifier("skip/inner/a.txt"), isDirectory: false, in: root))
        #expect(!rules.excludes(ItemIdentifier("other/b.txt"), isDirectory: false, in: root))
        #expect(rules.excludes(ItemIdentifier("other/.ssh"), isDirectory: true, in: root))
    }
}
