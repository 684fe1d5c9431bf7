import Foundation
import Searchlight
import SystemPackage

import SystemCalls

/// A worker's private temporary folder, `$TMPDIR/searchlight-extractor.XXXXXX`: the one place
/// its sandbox lets it write (converters' output, decoders' scratch files).
///
/// The indexer that made a folder holds an advisory lock on it (`flock(2)` on the open folder)
/// until the folder is removed, and the kernel drops that lock however the indexer ends. So a
/// folder that nobody holds was left by an indexer that could not clean up (`SIGKILL`, a crash,
/// the machine's power): ``sweep(in:olderThan:)``, run when a pool starts, removes those. (A folder
/// younger than `olderThan` is left alone: another indexer may have just made it and not yet
/// locked it.)
final class WorkerFolder {
    static let namePrefix = "searchlight-extractor."

    let path: String
    /// The open folder whose lock says that it is in use.
    private var lock: Int32

    /// `$TMPDIR`, else `/tmp`.
    static var base: String { SystemCall.environmentValue("TMPDIR") ?? "/tmp" }

    /// Makes a new folder, open to its owner only, and locks it.
    init() throws(FileSystemError) {
        let base = Self.base
        do {
            path = try SystemCall.makeTemporaryFolder("\(base)/\(Self.namePrefix)XXXXXX")
        } catch {
            throw FileSystemError("mkdtemp", path: ItemIdentifier(base), errno: error)
        }
        do {
            lock = try SystemCall.open(Array(path.utf8), .readOnly, options: [.directory, .noFollow, .closeOnExec])
            _ = try SystemCall.lock(lock, .exclusive)
        } catch {
            lock = -1
            try? SystemCall.removeTree(path)
            throw FileSystemError("flock", path: ItemIdentifier(path), errno: error)
        }
    }

    /// Removes the folder and what it holds, then lets go of it.
    func remove() {
        guard lock >= 0 else { return }
        try? SystemCall.removeTree(path)
        SystemCall.close(lock)
        lock = -1
    }

    deinit { remove() }

    /// Removes the worker folders in `$TMPDIR` that no running indexer holds and that are older
    /// than `olderThan`: how many.
    @discardableResult
    static func sweep(in base: String = base, olderThan age: Duration = .seconds(60)) -> Int {
        guard let folder = try? SystemCall.open(Array(base.utf8), .readOnly, options: [.directory, .closeOnExec]) else { return 0 }
        defer { SystemCall.close(folder) }
        guard let names = try? SystemCall.entryNames(of: folder) else { return 0 }
        let prefix = Array(namePrefix.utf8)
        let now = Date().timeIntervalSince1970
        var removed = 0
        for name in names where name.starts(with: prefix) {
            guard let status = try? SystemCall.status(ofPath: name, in: folder), status.isDirectory,
                  now - Double(status.modificationSeconds) >= Double(age.components.seconds),
                  let candidate = try? SystemCall.open(name, in: folder, .readOnly, options: [.directory, .noFollow, .closeOnExec])
            else { continue }
            defer { SystemCall.close(candidate) }
            // Held: a running indexer's worker uses it.
            guard (try? SystemCall.lock(candidate, .exclusive)) == true else { continue }
            if (try? SystemCall.removeTree(base + "/" + String(decoding: name, as: UTF8.self))) != nil { removed += 1 }
        }
        return removed
    }
}
