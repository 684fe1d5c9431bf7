import Foundation
import GRDB

extension SearchableIndex {
    /// Migration `v7-kind-words`: items of one type and description share a `content_kind` row
    /// when their keywords beyond their name's are the start of another's
    /// (``StoredText/kindWords``): a file whose long name leaves room for fewer describing
    /// words read the first few of a longer row instead of making a row of its own (a fifth of
    /// the rows on `/usr/share`, about 8 % of the index).
    ///
    /// - `content_kind.digest` hashes the type and description only (``ContentKind/digest``),
    ///   so that the rows that may serve an item are found together.
    /// - The `item_words` triggers read an item's kind keywords through
    ///   ``kindKeywordsSQL(_:keywords:)``. Every item written before v7 reads all of its kind's
    ///   keywords (its `kindWords` bits are 0), so no item and no full-text row changes.
    static func shareKindKeywords(_ db: Database) throws {
        let digest = DatabaseFunction("searchlight_v7_digest", argumentCount: 2, pure: true) { values in
            ContentKind.digest(type: String.fromDatabaseValue(values[0]), description: String.fromDatabaseValue(values[1]))
        }
        db.add(function: digest)
        defer { db.remove(function: digest) }
        try db.execute(sql: """
            UPDATE content_kind SET digest = searchlight_v7_digest(contentType, contentDescription);
            DROP TRIGGER item_words_insert;
            DROP TRIGGER item_words_delete;
            DROP TRIGGER item_words_update;
            """)
        try db.execute(sql: kindWordsTriggersSQL)
    }

    /// The SQL of the keywords an item (`row`: `item`, `new` or `old`) has of its kind's
    /// `keywords`: all of them unless its `derived` column says how many
    /// (``StoredText/kindKeywords(_:column:)``); the function is called only then.
    static func kindKeywordsSQL(_ row: String, keywords: String) -> String {
        "(CASE WHEN \(row).derived < \(1 << StoredText.kindWordsShift) THEN \(keywords) "
            + "ELSE searchlight_kind_keywords(\(keywords), \(row).derived) END)"
    }

    /// The triggers that keep `item_words` in step with `item` since v7: as since v6
    /// (``userAttributesWordsTriggersSQL``), with the kind's keywords an item has.
    static var kindWordsTriggersSQL: String {
        itemWordsTriggersSQL(updating: "displayName, title, kindId, identifier, derived, userTags, comment, whereFroms") { row in
            userKeywordsSQL(row, kindKeywords: kindKeywordsSQL(row, keywords: "(SELECT keywords FROM content_kind WHERE id = \(row).kindId)"))
        }
    }

    /// Registers `searchlight_kind_keywords(keywords, derived)`.
    static func registerKindFunctions(in db: Database) {
        db.add(function: DatabaseFunction("searchlight_kind_keywords", argumentCount: 2, pure: true) { values in
            StoredText.kindKeywords(String.fromDatabaseValue(values[0]), column: Int.fromDatabaseValue(values[1]) ?? 0)
        })
    }
}
