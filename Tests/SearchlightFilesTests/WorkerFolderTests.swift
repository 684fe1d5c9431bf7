import Foundation
@testable import SearchlightFiles
import SystemCalls
import Testing

/// Workers' temporary folders that a killed indexer left behind are removed when a pool
/// starts; a folder a running indexer holds, a young one, and anything that is not such a
/// folder are left alone.
@Suite("Worker folders")
struct WorkerFolderTests {
    /// Sets a path's modification time `seconds` into the past.
    static func age(_ url: URL, by seconds: TimeInterval) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -seconds)], ofItemAtPath: url.path)
    }

    @Test func onlyOldFoldersThatNobodyHoldsAreSwept() throws {
        let base = try TemporaryFolder()
        func make(_ name: String, file: Bool = false) throws -> URL {
            let url = base.url.appending(path: name)
            if file {
                try Data("x".utf8).write(to: url)
            } else {
                try FileManager.default.createDirectory(at: url.appending(path: "inner"), withIntermediateDirectories: true)
                try Data("converted text".utf8).write(to: url.appending(path: "inner/out.txt"))
            }
            try Self.age(url, by: 3600)
            return url
        }
        let stale = try make("searchlight-extractor.AAAAAA")
        let held = try make("searchlight-extractor.BBBBBB")
        let young = base.url.appending(path: "searchlight-extractor.CCCCCC")
        try FileManager.default.createDirectory(at: young, withIntermediateDirectories: true)
        let plainFile = try make("searchlight-extractor.DDDDDD", file: true)
        let other = try make("someone-elses-folder")
        let target = try make("kept-target")
        let link = base.url.appending(path: "searchlight-extractor.EEEEEE")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)

        // Another indexer's lock, on its own open folder.
        let lock = try SystemCall.open(Array(held.path.utf8), .readOnly, options: [.directory, .closeOnExec])
        defer { SystemCall.close(lock) }
        #expect(try SystemCall.lock(lock, .exclusive))

        #expect(WorkerFolder.sweep(in: base.url.path) == 1)
        let left = try Set(FileManager.default.contentsOfDirectory(atPath: base.url.path))
        #expect(left == ["searchlight-extractor.BBBBBB", "searchlight-extractor.CCCCCC", "searchlight-extractor.DDDDDD",
                         "someone-elses-folder", "kept-target", "searchlight-extractor.EEEEEE"])
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: target.appending(path: "inner/out.txt").path))
        #expect(FileManager.default.fileExists(atPath: plainFile.path) && FileManager.default.fileExists(atPath: other.path))

        // Once its holder lets go, an old folder goes too.
        SystemCall.unlock(lock)
        #expect(WorkerFolder.sweep(in: base.url.path) == 1)
        #expect(!FileManager.default.fileExists(atPath: held.path))
    }

    @Test func aFolderInUseIsHeldUntilRemoved() throws {
        let folder = try WorkerFolder()
        defer { folder.remove() }
        let probe = try SystemCall.open(Array(folder.path.utf8), .readOnly, options: [.directory, .closeOnExec])
        defer { SystemCall.close(probe) }
        #expect(try SystemCall.lock(probe, .exclusive) == false)
        #expect(FileManager.default.fileExists(atPath: folder.path))
        folder.remove()
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
