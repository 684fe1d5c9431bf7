import Foundation
import GRDB

extension SearchableIndex {
    /// FTS5's own check of the full-text tables (`item_words`, `item_content`): that each holds
    /// exactly what its rows were made from. It needs the connection's tokenizer
    /// (``SearchlightTokenizer``), so it cannot be run from the `sqlite3` shell; it reads every
    /// full-text row (see ``checkIntegrity()`` for the file's pages).
    ///
    /// Runs in a write transaction (FTS5's check is a command written into the table), so other
    /// writers wait for it; its time grows with the words and texts indexed. For diagnosis, not
    /// for a watch's hourly check.
    ///
    /// ```swift
    /// try index.checkFullTextIntegrity()   // throws when a full-text table is damaged
    /// ```
    ///
    /// - Throws: ``SearchlightError`` `.damagedIndex` naming the table that is damaged.
    public func checkFullTextIntegrity() throws {
        try write { db in
            for table in ["item_words", "item_content"] {
                do {
                    try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES ('integrity-check')")
                } catch let error as DatabaseError {
                    throw SearchlightError(.damagedIndex, "the full-text table \(table) is damaged", path: path,
                                           cause: .database(error))
                }
            }
        }
    }
}
