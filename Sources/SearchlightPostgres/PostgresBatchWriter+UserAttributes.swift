import PostgresNIO
import Searchlight

extension PostgresBatchWriter {
    /// Replaces an item's user attributes, the words they give its keywords, and its change
    /// stamp; nothing else (``IndexBatch/Change/setUserAttributes(domain:identifier:attributes:changeStamp:)``).
    /// Nothing happens when there is no such item.
    func setUserAttributes(_ attributes: UserAttributes, of identifier: ItemIdentifier, changeStamp: [UInt8]?,
                           access: FileAccess?, domain: Int64) async throws {
        let id = ByteBuffer(bytes: identifier.bytes)
        let rows = try await connection.query("""
            SELECT keywords FROM item WHERE domain_id = \(domain) AND identifier = \(id)
            """, logger: logger)
        var found: [[String]] = []
        for try await keywords in rows.decode([String].self) { found.append(keywords) }
        guard let keywords = found.first else { return }
        let tags = attributes.userTags.map(ItemRow.storable), froms = attributes.whereFroms.map(ItemRow.storable)
        let readers = access.map { PostgreSQLVisibility.rules($0, for: .read, domainID: domain) }
        try await connection.query("""
            UPDATE item SET user_tags = \(tags), comment = \(attributes.comment.map(ItemRow.storable)),
                star_rating = \(attributes.starRating), where_froms = \(froms),
                keyword_words = \(ItemRow.keywordWords(keywords, attributes)),
                change_stamp = \(changeStamp.map { ByteBuffer(bytes: $0) }),
                readers = coalesce(\(readers), readers), access_pending = access_pending AND \(readers)::text[] IS NULL
            WHERE domain_id = \(domain) AND identifier = \(id)
            """, logger: logger)
    }
}
