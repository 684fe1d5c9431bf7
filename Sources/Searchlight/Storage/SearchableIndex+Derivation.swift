import Foundation
import GRDB

extension SearchableIndex {
    /// Migration `v5-derivation`: the index keeps no rule of a file indexer's.
    ///
    /// Until v4 the index took the words of an identifier's folders for every item, and stored
    /// a title as derived only when it was the display name without its extension (a file's
    /// title). Since v5 an item's folders are words of it only when its identifier is a path
    /// (``SearchableItem/identifierIsPath``, the ``StoredText/pathIdentifier`` bit), and a
    /// derived title is any start of the display name that ends where a word ends, stored as
    /// the length of the rest of the name (``StoredText``).
    ///
    /// Every item written before v5 had its folder words indexed: it keeps them, as an item
    /// whose identifier is a path (a caller whose identifiers are not paths loses them the
    /// next time it writes the item). A title derived the v3 way is stored as the length of
    /// the extension it left out. The
    /// full-text rows do not change; the triggers that keep them in step are replaced by ones
    /// that read the path bit.
    ///
    /// One `UPDATE` of every item, run with the word triggers dropped, so the word index is not
    /// rewritten; `searchlight_v5_derived` exists only for this statement.
    ///
    /// - Parameter db: The migration's connection, inside its transaction.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    static func storeDerivationInItems(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER item_words_insert;
            DROP TRIGGER item_words_delete;
            DROP TRIGGER item_words_update;
            """)
        let derived = LegacyText.derivedFunction()
        db.add(function: derived)
        defer { db.remove(function: derived) }
        try db.execute(sql: """
            UPDATE item SET derived = searchlight_v5_derived(derived, displayName)
            """)
        try db.execute(sql: derivationWordsTriggersSQL)
    }

    /// The triggers that keep `item_words` in step with `item` since v5: an item's keywords
    /// beyond its name's words are those of its kind, and its folders give words only when
    /// its `derived` column says its identifier is a path.
    static var derivationWordsTriggersSQL: String {
        itemWordsTriggersSQL(updating: "displayName, title, kindId, identifier, derived") { row in
            "(SELECT keywords FROM content_kind WHERE id = \(row).kindId)"
        }
    }

    /// Triggers that keep `item_words` in step with `item` (since v5): `keywords(row)` is the
    /// SQL of the text whose words are a row's keywords (`row` is `new` or `old`), and an
    /// update of one of `columns` rewrites the row's words.
    ///
    /// Later migrations that change where keywords come from make their triggers with it too,
    /// so the three triggers always give the word index the same words for a row on insert,
    /// update and delete.
    ///
    /// - Parameters:
    ///   - columns: The columns whose update rewrites the row's words, comma-separated.
    ///   - keywords: The SQL of a row's keywords, given `new` or `old`.
    /// - Returns: The three `CREATE TRIGGER` statements.
    static func itemWordsTriggersSQL(updating columns: String, keywords: (String) -> String) -> String {
        func words(_ row: String) -> String {
            """
            \(row).id, searchlight_words(\(row).displayName), searchlight_words(\(row).title),
                    searchlight_words(\(keywords(row))),
                    searchlight_folder_words(\(row).identifier, \(row).derived))
            """
        }
        let insert = "INSERT INTO item_words(rowid, name, title, keywords, folders) VALUES ("
        let delete = "INSERT INTO item_words(item_words, rowid, name, title, keywords, folders) VALUES ('delete', "
        return """
            CREATE TRIGGER item_words_insert AFTER INSERT ON item BEGIN
                \(insert)\(words("new"));
            END;
            CREATE TRIGGER item_words_delete AFTER DELETE ON item BEGIN
                \(delete)\(words("old"));
            END;
            CREATE TRIGGER item_words_update AFTER UPDATE OF \(columns) ON item BEGIN
                \(delete)\(words("old"));
                \(insert)\(words("new"));
            END;
            """
    }

    /// The words of an identifier's folders, joined by spaces: `nil` unless `derived` has
    /// the ``StoredText/pathIdentifier`` bit. Before v5 every identifier was taken as a path
    /// (`derived` absent, the one-argument form the v1 and v3 triggers call).
    ///
    /// Called by SQLite for each row the triggers touch, on the writing connection: it must stay
    /// pure, as its registration says, since a `'delete'` row must give back the very words the
    /// insert gave.
    ///
    /// - Parameters:
    ///   - identifier: The identifier's bytes.
    ///   - derived: The row's `derived` column, or `nil` for the one-argument form.
    /// - Returns: The folders' words, or `nil`.
    static func folderWords(identifier: Data, derived: Int?) -> String? {
        if let derived, derived & StoredText.pathIdentifier == 0 { return nil }
        let folders = ItemIdentifier(bytes: Array(identifier)).parentComponents
        return folders.map(NameTokenizer.joinedWords(in:)).joined(separator: " ")
    }
}

/// How v3 and v4 stored an item's title and keywords: a title was derived only when it was
/// the display name without its extension. Only the migrations read or write this form.
///
/// Kept so that an index of any age can still be migrated; nothing else should use it.
enum LegacyText {
    /// The title v3 derived from a display name: the name without its extension; a name that
    /// is only an extension (`.profile`) kept it.
    ///
    /// `report.final.pdf` gives `report.final`; `README` and `.profile` are kept whole.
    static func title(fromName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The v3 form of `attributes`: what the `v3-compact` migration writes.
    ///
    /// The title is left out when it equals the name without extension, and the keywords the
    /// name gives are left out when the stored keywords start with them; the `derived` bits say
    /// which, so that reading adds them back.
    static func storedText(_ attributes: AttributeSet) -> StoredText {
        var title = attributes.title
        var keywords = attributes.keywords
        var derived = 0
        if let name = attributes.displayName {
            if let stored = title, stored.utf8.elementsEqual(Self.title(fromName: name).utf8) {
                title = nil
                derived |= StoredText.derivedTitle
            }
            let nameKeywords = AttributeSet.nameKeywords(of: name)
            if !nameKeywords.isEmpty, keywords.starts(with: nameKeywords, by: { $0.utf8.elementsEqual($1.utf8) }) {
                keywords.removeFirst(nameKeywords.count)
                derived |= StoredText.derivedKeywords
            }
        }
        return StoredText(title: title, keywords: keywords.isEmpty ? nil : keywords.joined(separator: String(SearchableIndex.keywordSeparator)),
                          column: derived)
    }

    /// `searchlight_v5_derived(derived, displayName)`: a v3 `derived` value in the v5 form, for
    /// an item whose identifier is a path.
    static func derivedFunction() -> DatabaseFunction {
        DatabaseFunction("searchlight_v5_derived", argumentCount: 2, pure: true) { values in
            let legacy = Int.fromDatabaseValue(values[0]) ?? 0
            var derived = legacy & StoredText.derivedKeywords | StoredText.pathIdentifier
            if legacy & StoredText.derivedTitle != 0 {
                let name = String.fromDatabaseValue(values[1]) ?? ""
                derived |= StoredText.derivedTitle | (name.utf8.count - title(fromName: name).utf8.count) << StoredText.tailLengthShift
            }
            return derived
        }
    }
}
