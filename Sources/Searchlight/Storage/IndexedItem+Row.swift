import Foundation
import GRDB

extension IndexedItem {
    /// Reads a row selected with ``SearchableIndex/itemColumns``.
    init(row: Row, layout: ItemRowLayout? = nil) {
        let row = ItemRow(row: row, layout: layout ?? ItemRowLayout(row))
        var attributes = AttributeSet(contentType: row[.contentType])
        attributes.displayName = row[.displayName]
        let text = StoredText(title: row[.title], keywords: row[.keywords], column: row[.derived])
        attributes.title = text.title(displayName: attributes.displayName)
        attributes.keywords = text.keywords(displayName: attributes.displayName)
        attributes.contentDescription = row[.contentDescription]
        if row.has(.textData), let data: Data = row[.textData] {
            attributes.textContent = StoredContent.decompress(data)
        }
        if let authors: String = row[.authors] {
            attributes.authors = authors.split(separator: SearchableIndex.keywordSeparator).map(String.init)
        }
        attributes.pageCount = row[.pageCount]
        attributes.acquisitionMake = row[.acquisitionMake]
        attributes.acquisitionModel = row[.acquisitionModel]
        attributes.latitude = row[.latitude]
        attributes.longitude = row[.longitude]
        attributes.size = row[.size]
        attributes.contentModificationDate = (row[.modificationDate] as Double?).map(Date.init(timeIntervalSince1970:))
        attributes.contentCreationDate = (row[.creationDate] as Double?).map(Date.init(timeIntervalSince1970:))
        attributes.pixelWidth = row[.pixelWidth]
        attributes.pixelHeight = row[.pixelHeight]
        attributes.userAttributes = Self.userAttributes(row: row)
        var info: ThumbnailInfo?
        if let format: String = row[.tFormat] {
            info = ThumbnailInfo(format: format, width: row[.tWidth], height: row[.tHeight], byteCount: row[.tBytes])
            if row.has(.tData), let data: Data = row[.tData] {
                attributes.thumbnail = Thumbnail(format: format, width: row[.tWidth], height: row[.tHeight], bytes: Array(data))
            }
        }
        let identifier: Data = row[.identifier]
        let stamp: Data? = row[.changeStamp]
        let item = SearchableItem(
            uniqueIdentifier: ItemIdentifier(bytes: Array(identifier)),
            domainIdentifier: row[.domain],
            attributeSet: attributes,
            expirationDate: (row[.expirationDate] as Double?).map(Date.init(timeIntervalSince1970:)),
            changeStamp: stamp.map { Array($0) },
            failure: row[.failure],
            identifierIsPath: text.identifierIsPath)
        self.init(item: item, thumbnailInfo: info)
    }
}

extension IndexedItem {
    /// Reads the user attributes of a row selected with ``SearchableIndex/itemColumns``.
    static func userAttributes(row: ItemRow) -> UserAttributes {
        UserAttributes(userTags: SearchableIndex.list(stored: row[.userTags]), comment: row[.comment],
                       starRating: row[.starRating], whereFroms: SearchableIndex.list(stored: row[.whereFroms]))
    }
}

extension [Row] {
    /// The items of one fetch's rows (selected with ``SearchableIndex/itemColumns``), their
    /// columns found once.
    var indexedItems: [IndexedItem] {
        guard let first else { return [] }
        let layout = ItemRowLayout(first)
        return map { IndexedItem(row: $0, layout: layout) }
    }
}

/// The columns of ``SearchableIndex/itemColumns`` (and of the single item's text and
/// thumbnail) that an item is read from.
enum ItemColumn: Int, CaseIterable {
    case identifier, domain, displayName, title, contentType, contentDescription, keywords, derived, size
    case modificationDate, creationDate, pixelWidth, pixelHeight, pageCount, acquisitionMake, acquisitionModel
    case latitude, longitude, expirationDate, changeStamp, failure, userTags, comment, starRating, whereFroms
    case authors, tFormat, tWidth, tHeight, tBytes, textData, tData
}

/// Where each column of a fetched row is: found once per fetch rather than at every value
/// (GRDB's lookup by name lower-cases every column name each time: a tenth of a served search
/// went there; a dictionary by name still hashed every name of every item).
struct ItemRowLayout {
    /// By ``ItemColumn`` position; `nil` for a column not selected.
    private let positions: [Int?]

    init(_ row: Row) {
        let names = Dictionary(row.columnNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // A case's name is its column's (read once per fetch).
        positions = ItemColumn.allCases.map { names[String(describing: $0)] }
    }

    /// The position of `column`; the column must be selected.
    func position(_ column: ItemColumn) -> Int {
        guard let position = positions[column.rawValue] else { preconditionFailure("no column \(column) in the row") }
        return position
    }

    func has(_ column: ItemColumn) -> Bool { positions[column.rawValue] != nil }
}

/// A row read through its fetch's ``ItemRowLayout``.
struct ItemRow {
    let row: Row
    let layout: ItemRowLayout

    // StatementColumnConvertible: GRDB reads the value from the statement directly, without
    // its generic decoding (generic metadata looked up at every value: a fifth of a page's items).
    subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: ItemColumn) -> Value { row[layout.position(column)] }

    func has(_ column: ItemColumn) -> Bool { layout.has(column) }
}
