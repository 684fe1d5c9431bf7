import Foundation
import GRDB

extension SearchableIndex {
    /// Migration `v7-kind-words`: items of one type and description share a `content_kind` row
    /// when their keywords beyond their name's are the start of another's
    /// (``StoredText/kindCharacters``): a file whose long name leaves room for fewer describing
    /// words read the first few of a longer row instead of making a row of its own (a fifth of
    /// the rows on `/usr/share`, about 8 % of the index).
    ///
    /// - `content_kind.digest` hashes the type and description only (``ContentKind/digest``),
    ///   so that the rows that may serve an item are found together; one index on
    ///   (`contentType`, `digest`) finds them and serves queries on types, where there were
    ///   two (`content_kind_by_digest` and `content_kind_by_type`).
    /// - The `item_words` triggers read an item's kind keywords through
    ///   ``kindKeywordsSQL(_:keywords:)``. Every item written before v7 reads all of its kind's
    ///   keywords (its `kindCharacters` bits are 0), so no item and no full-text row changes;
    ///   such an item is told how many characters it reads before its kind is extended.
    ///
    /// Rewrites every `content_kind` row's digest (one statement; the rows are few) and
    /// replaces the triggers; no item row is touched.
    ///
    /// - Parameter db: The migration's connection, inside its transaction.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    static func shareKindKeywords(_ db: Database) throws {
        let digest = DatabaseFunction("searchlight_v7_digest", argumentCount: 2, pure: true) { values in
            ContentKind.digest(type: String.fromDatabaseValue(values[0]), description: String.fromDatabaseValue(values[1]))
        }
        db.add(function: digest)
        defer { db.remove(function: digest) }
        try db.execute(sql: """
            UPDATE content_kind SET digest = searchlight_v7_digest(contentType, contentDescription);
            DROP INDEX content_kind_by_digest;
            DROP INDEX content_kind_by_type;
            CREATE INDEX content_kind_by_type ON content_kind(contentType, digest);
            DROP TRIGGER item_words_insert;
            DROP TRIGGER item_words_delete;
            DROP TRIGGER item_words_update;
            """)
        try db.execute(sql: kindWordsTriggersSQL(updating: "displayName, title, kindId, identifier, derived, userTags, comment, whereFroms"))
    }

    /// The SQL of the keywords an item (`row`: `item`, `new` or `old`) has of its kind's
    /// `keywords`: all of them unless its `derived` column says how many characters
    /// (``StoredText/kindKeywords(_:column:)``), with SQL's own functions only.
    ///
    /// The count stored is one more than the characters read, so that 0 (every row written
    /// before v7) means "all of them".
    static func kindKeywordsSQL(_ row: String, keywords: String) -> String {
        let shift = StoredText.kindCharactersShift
        return "(CASE WHEN \(row).derived < \(1 << shift) THEN \(keywords) "
            + "ELSE nullif(substr(\(keywords), 1, (\(row).derived >> \(shift)) - 1), '') END)"
    }

    /// The triggers that keep `item_words` in step with `item` since v7: as since v6
    /// (``userAttributesWordsTriggersSQL``), with the kind's keywords an item has; an update
    /// of one of `columns` rewrites an item's words.
    static func kindWordsTriggersSQL(updating columns: String) -> String {
        itemWordsTriggersSQL(updating: columns) { row in
            userKeywordsSQL(row, kindKeywords: kindKeywordsSQL(row, keywords: "(SELECT keywords FROM content_kind WHERE id = \(row).kindId)"))
        }
    }
}
