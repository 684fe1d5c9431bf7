import Foundation
import GRDB

extension SearchableIndex {
    /// Migration `v6-user-tags`: tags, comment, rating and origins (``UserAttributes``).
    ///
    /// - `item` gains `userTags` and `whereFroms` (joined by the keyword separator), `comment`
    ///   and `starRating`. They are `NULL` for every item written before, which had none.
    /// - The `item_words` triggers are replaced: the `keywords` column now holds the words of
    ///   the kind's keywords and of the user attributes (``userKeywordsSQL(_:kindKeywords:)``), so that a
    ///   tag, a comment or an address finds the item at the rank of its keywords. The rows of
    ///   items without user attributes do not change, so none is rewritten.
    ///
    /// - Parameter db: The migration's connection, inside its transaction.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    static func addUserAttributes(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE item ADD COLUMN userTags TEXT;
            ALTER TABLE item ADD COLUMN comment TEXT;
            ALTER TABLE item ADD COLUMN starRating REAL;
            ALTER TABLE item ADD COLUMN whereFroms TEXT;
            DROP TRIGGER item_words_insert;
            DROP TRIGGER item_words_delete;
            DROP TRIGGER item_words_update;
            """)
        try db.execute(sql: userAttributesWordsTriggersSQL)
    }

    /// The text of an item's keywords as search ranks them: the keywords of its kind, then its
    /// tags, comment and addresses, separated by the keyword separator. `row` is `item` or a
    /// trigger's `new`/`old`; the kind's keywords are `kindKeywords`.
    ///
    /// `char(31)` is ``keywordSeparator``: the parts are joined as keywords are, and an absent
    /// part adds nothing, not even a separator.
    static func userKeywordsSQL(_ row: String, kindKeywords: String) -> String {
        """
        (coalesce(\(kindKeywords), '') || coalesce(char(31) || \(row).userTags, '') \
        || coalesce(char(31) || \(row).comment, '') || coalesce(char(31) || \(row).whereFroms, ''))
        """
    }

    /// ``userKeywordsSQL(_:kindKeywords:)`` of an item row joined with its `content_kind`: what
    /// name and content search rank an item's keywords by.
    static let rankedKeywordsSQL = userKeywordsSQL("item", kindKeywords: kindKeywordsSQL("item", keywords: "content_kind.keywords"))

    /// The triggers that keep `item_words` in step with `item` since v6: as since v5
    /// (``derivationWordsTriggersSQL``), with the user attributes' words among the keywords.
    static var userAttributesWordsTriggersSQL: String {
        itemWordsTriggersSQL(updating: "displayName, title, kindId, identifier, derived, userTags, comment, whereFroms") { row in
            userKeywordsSQL(row, kindKeywords: "(SELECT keywords FROM content_kind WHERE id = \(row).kindId)")
        }
    }

    /// A list attribute as stored: its elements joined by the keyword separator, `nil` when empty.
    ///
    /// An element that holds the separator (U+001F) would split in two when read back.
    static func storedList(_ list: [String]) -> String? {
        list.isEmpty ? nil : list.joined(separator: String(keywordSeparator))
    }

    /// A list attribute as read back.
    ///
    /// Empty elements are dropped.
    static func list(stored: String?) -> [String] {
        stored.map { $0.split(separator: keywordSeparator).map(String.init) } ?? []
    }
}
