import GRDB

/// Tells a reader that some process committed a change to an index: what `serve`'s live page
/// and ``SearchQuery/liveResults(in:domain:checkingEvery:)`` poll before they read again.
///
/// ```swift
/// let monitor = try index.makeChangeMonitor()
/// var seen = try monitor.marker()
/// // later
/// if try monitor.marker() != seen { /* read again */ }
/// ```
public protocol IndexChangeMonitor: Sendable {
    /// A value that differs after any commit by any process; only equality means anything.
    func marker() throws -> [Int64]
}

/// SQLite's `PRAGMA data_version`, asked of a read-only connection of the monitor's own: the
/// number changes when *another* connection commits, and a connection that never writes sees
/// every commit as another's. Asking costs microseconds and reads no table.
final class SQLiteChangeMonitor: IndexChangeMonitor {
    private let database: DatabaseQueue

    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "searchlight.changes"
        database = try DatabaseQueue(path: path, configuration: configuration)
    }

    func marker() throws -> [Int64] {
        [try database.read { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }]
    }
}

extension SearchableIndex {
    /// A monitor of this index's file (see ``IndexChangeMonitor``).
    /// - Throws: ``SearchlightError`` when the file cannot be opened.
    public func makeChangeMonitor() throws -> any IndexChangeMonitor {
        do {
            return try SQLiteChangeMonitor(path: path)
        } catch {
            throw SearchlightError(.cannotOpenIndex, "cannot follow the index's changes", path: path,
                                   cause: SearchlightError.cause(of: error))
        }
    }
}
