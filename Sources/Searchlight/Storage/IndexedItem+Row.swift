import Foundation
import GRDB

extension IndexedItem {
    /// Reads a row selected with ``SearchableIndex/itemColumns``.
    init(row: Row) {
        var attributes = AttributeSet(contentType: row["contentType"])
        attributes.displayName = row["displayName"]
        let text = StoredText(title: row["title"], keywords: row["keywords"], column: row["derived"])
        attributes.title = text.title(displayName: attributes.displayName)
        attributes.keywords = text.keywords(displayName: attributes.displayName)
        attributes.contentDescription = row["contentDescription"]
        if row.hasColumn("textData"), let data: Data = row["textData"] {
            attributes.textContent = StoredContent.decompress(data)
        }
        if let authors: String = row["authors"] {
            attributes.authors = authors.split(separator: SearchableIndex.keywordSeparator).map(String.init)
        }
        attributes.pageCount = row["pageCount"]
        attributes.acquisitionMake = row["acquisitionMake"]
        attributes.acquisitionModel = row["acquisitionModel"]
        attributes.latitude = row["latitude"]
        attributes.longitude = row["longitude"]
        attributes.size = row["size"]
        attributes.contentModificationDate = (row["modificationDate"] as Double?).map(Date.init(timeIntervalSince1970:))
        attributes.contentCreationDate = (row["creationDate"] as Double?).map(Date.init(timeIntervalSince1970:))
        attributes.pixelWidth = row["pixelWidth"]
        attributes.pixelHeight = row["pixelHeight"]
        attributes.userAttributes = Self.userAttributes(row: row)
        var info: ThumbnailInfo?
        if let format: String = row["tFormat"] {
            info = ThumbnailInfo(format: format, width: row["tWidth"], height: row["tHeight"], byteCount: row["tBytes"])
            if row.hasColumn("tData"), let data: Data = row["tData"] {
                attributes.thumbnail = Thumbnail(format: format, width: row["tWidth"], height: row["tHeight"], bytes: Array(data))
            }
        }
        let identifier: Data = row["identifier"]
        let stamp: Data? = row["changeStamp"]
        let item = SearchableItem(
            uniqueIdentifier: ItemIdentifier(bytes: Array(identifier)),
            domainIdentifier: row["domain"],
            attributeSet: attributes,
            expirationDate: (row["expirationDate"] as Double?).map(Date.init(timeIntervalSince1970:)),
            changeStamp: stamp.map { Array($0) },
            failure: row["failure"],
            identifierIsPath: text.identifierIsPath)
        self.init(item: item, thumbnailInfo: info)
    }
}

extension IndexedItem {
    /// Reads the user attributes of a row selected with ``SearchableIndex/itemColumns``.
    static func userAttributes(row: Row) -> UserAttributes {
        UserAttributes(userTags: SearchableIndex.list(stored: row["userTags"]), comment: row["comment"],
                       starRating: row["starRating"], whereFroms: SearchableIndex.list(stored: row["whereFroms"]))
    }
}
