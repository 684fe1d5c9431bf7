import Foundation
import GRDB

extension SearchableIndex {
    /// Migration `v8-derived-names`: an item's display name that is the last component of its
    /// identifier (a file's name, in its path) is not stored again.
    ///
    /// - `item.displayName` becomes `storedName`, and `displayName` a virtual generated column
    ///   (``displayNameSQL``): the stored name when there is one, else the last `nameLength`
    ///   bytes of the identifier. Every reader of `item.displayName` reads it as before.
    /// - `nameLength` (new, `NULL` for every item written before) is set by writers when the
    ///   name is the identifier's last component (``derivedNameLength(of:identifier:)``); a
    ///   move that changes that component without renaming the item stores its name first.
    /// - The `item_words` triggers are replaced by ones that watch `storedName` and
    ///   `nameLength`; no row changes, so the full-text index stays as it is.
    ///
    /// On `/usr/share` this leaves out 28 of an item's ~140 bytes.
    static func deriveNames(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER item_words_insert;
            DROP TRIGGER item_words_delete;
            DROP TRIGGER item_words_update;
            ALTER TABLE item RENAME COLUMN displayName TO storedName;
            ALTER TABLE item ADD COLUMN nameLength INTEGER;
            ALTER TABLE item ADD COLUMN displayName TEXT GENERATED ALWAYS AS (\(displayNameSQL)) VIRTUAL;
            """)
        try db.execute(sql: kindWordsTriggersSQL(updating: derivedNameColumns))
    }

    /// The expression of the generated `item.displayName` column.
    static let displayNameSQL = "coalesce(storedName, CAST(substr(identifier, -nameLength) AS TEXT))"

    /// The columns an update of which rewrites an item's words, since v8.
    static let derivedNameColumns = "storedName, nameLength, title, kindId, identifier, derived, userTags, comment, whereFroms"

    /// How `displayName` is stored for `identifier`: `nil` and its length in bytes when it is
    /// the identifier's last component (the whole identifier, or what follows its last `/`),
    /// byte for byte; else itself and `nil`.
    static func storedName(_ displayName: String?, identifier: ItemIdentifier) -> (name: String?, length: Int?) {
        guard let displayName else { return (nil, nil) }
        let name = displayName.utf8, bytes = identifier.bytes
        guard !name.isEmpty, name.count <= bytes.count, !name.contains(UInt8(ascii: "/")),
              bytes.count == name.count || bytes[bytes.count - name.count - 1] == UInt8(ascii: "/"),
              bytes[(bytes.count - name.count)...].elementsEqual(name)
        else { return (displayName, nil) }
        return (nil, name.count)
    }
}
