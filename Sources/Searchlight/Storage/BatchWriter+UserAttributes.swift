import Foundation
import GRDB

extension BatchWriter {
    /// Replaces an item's user attributes and change stamp, and nothing else.
    mutating func setUserAttributes(_ attributes: UserAttributes, of identifier: ItemIdentifier, domain: String,
                                    changeStamp: [UInt8]?) throws {
        let domainID = try domainID(domain)
        try db.cachedStatement(sql: """
            UPDATE item SET userTags = ?, comment = ?, starRating = ?, whereFroms = ?, changeStamp = ?
            WHERE domainId = ? AND identifier = ?
            """).execute(arguments: [
                SearchableIndex.storedList(attributes.userTags), attributes.comment, attributes.starRating,
                SearchableIndex.storedList(attributes.whereFroms), changeStamp.map { Data($0) },
                domainID, Data(identifier.bytes),
            ])
    }
}
