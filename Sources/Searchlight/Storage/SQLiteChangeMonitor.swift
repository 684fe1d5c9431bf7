import GRDB
import Synchronization

/// SQLite's `PRAGMA data_version`, asked of a read-only connection of the monitor's own: the
/// number changes when *another* connection commits, and a connection that never writes sees
/// every commit as another's. Asking costs microseconds and reads no table. What
/// ``SearchableIndex/changeMarker()`` asks, one monitor per handle, made at the first ask.
final class SQLiteChangeMonitor: Sendable {
    private let database: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "searchlight.changes"
        database = try DatabaseQueue(path: path, configuration: configuration)
    }

    func marker() throws -> [Int64] {
        [try database.read { db in try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0 }]
    }

    func marker() async throws -> [Int64] {
        [try await database.read { db in try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0 }]
    }
}

extension SearchableIndex {
    /// A value that differs after any commit by any process: `PRAGMA data_version` of a
    /// connection of this handle's own (``IndexReader/changeMarker()``).
    /// - Throws: ``SearchlightError`` when the file cannot be opened.
    public func changeMarker() throws -> [Int64] {
        try changeMonitor().marker()
    }

    /// ``changeMarker()``, awaited: GRDB's async read of the monitor's connection.
    public func changeMarker() async throws -> [Int64] {
        try await changeMonitor().marker()
    }

    /// This handle's monitor, opened at the first ask.
    private func changeMonitor() throws -> SQLiteChangeMonitor {
        try changeMonitorSlot.withLock { monitor in
            if let monitor { return monitor }
            do {
                let opened = try SQLiteChangeMonitor(path: path)
                monitor = opened
                return opened
            } catch {
                throw SearchlightError(.cannotOpenIndex, "cannot follow the index's changes", path: path,
                                       cause: SearchlightError.cause(of: error))
            }
        }
    }
}
