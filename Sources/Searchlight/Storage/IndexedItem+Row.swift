import Foundation
import GRDB
import GRDBSQLite

extension IndexedItem {
    /// Reads a row selected with ``SearchableIndex/itemColumns``.
    init(row: ItemRow) {
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

/// Reads the items of one statement's rows (selected with ``SearchableIndex/itemColumns``) in
/// place, through SQLite's C API: the columns are found at the first row.
struct ItemReader {
    private var layout: ItemRowLayout?

    /// The item of `statement`'s current row.
    mutating func item(at statement: SQLiteStatement) -> IndexedItem {
        let layout = self.layout ?? ItemRowLayout(statement)
        self.layout = layout
        return IndexedItem(row: ItemRow(statement: statement, layout: layout))
    }

    /// The items of every row of `statement`, its arguments bound: `body` is handed each one
    /// until it returns `false`.
    static func forEachItem(of statement: ReadStatement, named keys: KeyValuePairs<String, LookupKey>,
                            _ body: (IndexedItem) throws -> Bool) throws {
        var reader = ItemReader()
        try statement.forEachRow(named: keys) { try body(reader.item(at: $0)) }
    }

    /// The items of every row of GRDB's `statement` with `arguments` (a compiled query's).
    static func items(of statement: Statement, arguments: StatementArguments) throws -> [IndexedItem] {
        try statement.setArguments(arguments)
        var rows = ReadRows(statement: ReadStatement(statement: statement.sqliteStatement, sql: statement.sql))
        defer { sqlite3_reset(statement.sqliteStatement) }
        var reader = ItemReader()
        var items: [IndexedItem] = []
        while let row = try rows.next() { items.append(reader.item(at: row)) }
        return items
    }

    /// The items of every row of `statement`, its arguments bound.
    static func items(of statement: ReadStatement, named keys: KeyValuePairs<String, LookupKey>) throws -> [IndexedItem] {
        var items: [IndexedItem] = []
        try forEachItem(of: statement, named: keys) { items.append($0); return true }
        return items
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

    init(_ statement: SQLiteStatement) {
        let count = Int(sqlite3_column_count(statement))
        let names = Dictionary((0..<count).map { (String(cString: sqlite3_column_name(statement, CInt($0))), $0) },
                               uniquingKeysWith: { first, _ in first })
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

/// A statement's current row, read in place through its fetch's ``ItemRowLayout``.
struct ItemRow {
    let statement: SQLiteStatement
    let layout: ItemRowLayout

    // StatementColumnConvertible: the value is read from the statement directly, without GRDB's
    // generic decoding (generic metadata looked up at every value: a fifth of a page's items).
    // An optional type reads `NULL` as `nil`; any other type requires a value, as GRDB's rows do.
    subscript<Value: StatementColumnConvertible>(_ column: ItemColumn) -> Value {
        guard let value = Value.fromStatement(statement, atUncheckedIndex: CInt(layout.position(column))) else {
            preconditionFailure("no value of type \(Value.self) in the column \(column)")
        }
        return value
    }

    func has(_ column: ItemColumn) -> Bool { layout.has(column) }
}
