import GRDB
import Synchronization

/// The connections of one ``SearchableIndex`` handle, replaced together when the file is opened
/// again (``SearchableIndex/reopen()``).
///
/// A writable handle has GRDB's pool (a writer and concurrent readers) from the start. A
/// read-only handle has a ``SQLiteReader``, which name search, the spelling pass and the schema
/// check read through, and opens GRDB's connection (one queue) only at its first use: a
/// `search` with no hit then never sets GRDB up, a third of `plocate`'s whole run
/// (Benchmarks/README.md, "The floor under a search").
final class IndexConnections: Sendable {
    /// A read-only handle's connection on SQLite's C API; `nil` for a writable handle.
    let reader: SQLiteReader?
    private let opened: Mutex<(any DatabaseWriter)?>
    private let open: @Sendable () throws -> any DatabaseWriter

    /// The connections of a writable handle.
    init(_ database: any DatabaseWriter) {
        reader = nil
        opened = Mutex(database)
        open = { database }
    }

    /// The connections of a read-only handle: `reader`, and GRDB's connection made by `open`
    /// when first asked for.
    init(reader: SQLiteReader, open: @escaping @Sendable () throws -> any DatabaseWriter) {
        self.reader = reader
        opened = Mutex(nil)
        self.open = open
    }

    /// GRDB's connections, opened now if they were not yet.
    /// - Throws: ``SearchlightError`` (`.cannotOpenIndex`) when they cannot be opened.
    func database(path: String) throws -> any DatabaseWriter {
        try opened.withLock { opened in
            if let opened { return opened }
            do {
                let database = try open()
                opened = database
                return database
            } catch {
                throw SearchlightError.wrapping(error, .cannotOpenIndex, "cannot open index", path: path)
            }
        }
    }

    /// GRDB's connections if they are open: what closing or interrupting concerns.
    var openedDatabase: (any DatabaseWriter)? { opened.withLock { $0 } }
}
