import Foundation
import Searchlight
import SearchlightFiles

// A damaged index under the commands that rebuild it (Docs/Contract.md#when-things-break): `scan`, `watch` and
// `serve --watch` move it aside and index again; the read-only commands say so in one line
// (``CommandFailure/advice(for:)``).
extension IndexOptions {
    /// Opens (or creates) the index for writing, as ``openForWriting(configuration:)``; a
    /// damaged SQLite index (found on opening, or by an integrity check) is moved aside and
    /// replaced by an empty one, with one warning naming the file kept. What the caller indexes
    /// next fills it again.
    func openForIndexing(configuration: Configuration? = nil) throws -> any FileIndexWriter {
        let location = try self.location(configuration: configuration)
        guard !IndexLauncher.isRemote(location) else { return try openForWriting(configuration: configuration) }
        return try CommandFailure.wrap {
            try SearchableIndex.openResettingDamage(path: location, verify: true, logger: logger).0
        }
    }
}

extension CommandFailure {
    /// Runs `body`; if it meets damage in a SQLite index, resets the index in place (one
    /// warning naming the copy kept) and runs `body` once more, into the empty index.
    static func rebuildingDamage<T>(_ index: any IndexWriter, _ body: () throws -> T) throws -> T {
        do {
            return try $rebuildsDamage.withValue(true) { try body() }
        } catch let error as SearchlightError where error.isDamage {
            guard let sqlite = index as? SearchableIndex else { throw error }
            _ = try wrap { try sqlite.reset(reason: error.damageReason) }
            return try body()
        }
    }

    /// Whether damage met by ``wrap(_:)`` goes up to ``rebuildingDamage(_:_:)``, unprinted.
    @TaskLocal static var rebuildsDamage = false

    /// What to do about a damaged index, said by the read-only commands.
    static let damageAdvice = "; the next `searchlight scan` or `searchlight watch` moves it aside and rebuilds it from the disk"
}
