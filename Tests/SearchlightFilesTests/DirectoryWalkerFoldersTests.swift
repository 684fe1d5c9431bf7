import Foundation
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// The walk of folders only (``DirectoryWalker/Options/foldersOnly``: what the watcher walks to
/// watch each folder before it is listed) reports exactly the folders a full walk reports, in
/// the same order, and no file.
@Suite("Directory walker: folders only")
struct DirectoryWalkerFoldersTests {
    @Test func foldersOnlyReportsTheFoldersOfAFullWalkAndNoFile() throws {
        let tree = TemporaryTree("folders-only")
        for name in ["a/b/c/one.txt", "a/two.md", "d/e/three.pdf", "four.txt", "f/g/h/i/five", "sp ace/über/six.txt"] {
            tree.write(name)
        }
        tree.mkdirs("empty/inside")
        tree.write(".hidden/seven.txt")
        try FileManager.default.createSymbolicLink(atPath: tree.url("link-to-a"), withDestinationPath: tree.url("a"))
        let root = try RootFolder(path: tree.path)
        func events(foldersOnly: Bool) throws -> (folders: [String], files: Int) {
            var options = DirectoryWalker.Options()
            options.foldersOnly = foldersOnly
            var folders: [String] = [], files = 0
            try DirectoryWalker(root: root, options: options).walk { event in
                switch event {
                case .directory(let path, _): folders.append(path.lossyString)
                case .file: files += 1
                default: break
                }
            }
            return (folders, files)
        }
        let full = try events(foldersOnly: false), onlyFolders = try events(foldersOnly: true)
        #expect(full.files == 6)
        #expect(onlyFolders.files == 0)
        #expect(onlyFolders.folders == full.folders)
        #expect(Set(full.folders) == ["a", "a/b", "a/b/c", "d", "d/e", "empty", "empty/inside", "f", "f/g", "f/g/h", "f/g/h/i",
                                      "sp ace", "sp ace/über"])
    }
}
