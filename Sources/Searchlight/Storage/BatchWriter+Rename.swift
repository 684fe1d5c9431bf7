import Foundation
import GRDB

extension BatchWriter {
    /// Gives an item a new display name. Its title and keywords become what `rename` makes of
    /// them; what its ``StoredText`` derived from the old name is stored anew against the new one.
    mutating func rename(_ identifier: ItemIdentifier, _ rename: IndexBatch.Rename, domain: String) throws {
        let domainID = try domainID(domain)
        let key = Data(identifier.bytes)
        let name = SearchableIndex.storedName(rename.displayName, identifier: identifier)
        let textBits = StoredText.derivedTitle | StoredText.derivedKeywords
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT item.id, item.displayName, item.title, item.derived,
                content_kind.contentType, content_kind.contentDescription, content_kind.keywords
            FROM item JOIN content_kind ON content_kind.id = item.kindId
            WHERE item.domainId = ? AND item.identifier = ? AND (item.derived & ? != 0 OR ?)
            """), arguments: [domainID, key, textBits, rename.changesText])
        else {
            // Nothing derived from the name, nothing to change: only the name changes.
            try db.cachedStatement(sql: "UPDATE item SET storedName = ?, nameLength = ? WHERE domainId = ? AND identifier = ?")
                .execute(arguments: [name.name, name.length, domainID, key])
            return
        }
        let old = StoredText(title: row["title"], keywords: row["keywords"], column: row["derived"])
        let oldName: String? = row["displayName"]
        let renamed = rename.renamed(title: old.title(displayName: oldName), keywords: old.keywords(displayName: oldName),
                                     oldName: oldName)
        var kept = AttributeSet(contentType: row["contentType"])
        kept.displayName = rename.displayName
        kept.title = renamed.title
        kept.keywords = renamed.keywords
        var text = StoredText(kept, identifierIsPath: old.identifierIsPath)
        let kind = try self.kind(ContentKind(type: row["contentType"], description: row["contentDescription"],
                                        keywords: text.keywords))
        text.kindCharacters = kind.characters
        try db.cachedStatement(sql: """
            UPDATE item SET storedName = ?, nameLength = ?, title = ?, derived = ?, kindId = ? WHERE id = ?
            """)
            .execute(arguments: [name.name, name.length, text.title, text.column, kind.id, row["id"] as Int64])
    }
}
