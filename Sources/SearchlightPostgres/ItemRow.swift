import Foundation
import Searchlight

/// One item as a row of the `item` table, with the words the search ranks by, as a batch
/// sends it: a batch's upserts travel as one JSON array, read by `jsonb_to_recordset`, so
/// that a batch of any size is one statement with two parameters.
///
/// The attributes are those of ``Searchlight/AttributeSet``, by the same names (texts without
/// NUL, which PostgreSQL's `text` cannot hold; dates as seconds since 1970; bytes as Base64);
/// the `…Words` fields are what the search ranks by, split in Swift as the SQLite index
/// splits them; the thumbnail's fields are `nil` for an item without one.
struct ItemRow: Encodable {
    /// The domain's row id.
    var d: Int64
    /// The identifier's bytes, Base64 (JSON has no bytes).
    var id: String
    var displayName: String?
    var title: String?
    var authors: [String]
    var contentType: String?
    var contentTypeTree: [String]
    var contentDescription: String?
    var keywords: [String]
    var textContent: String?
    var size: Int64?
    var modificationDate: Double?
    var creationDate: Double?
    var pixelWidth: Int?
    var pixelHeight: Int?
    var pageCount: Int?
    var acquisitionMake: String?
    var acquisitionModel: String?
    var latitude: Double?
    var longitude: Double?
    var expirationDate: Double?
    var changeStamp: String?
    var failure: String?
    /// The display name's words (``NameTokenizer``), joined by spaces.
    var nameWords: String
    /// The title's words, joined by spaces.
    var titleWords: String
    /// Each author's words, joined by spaces: one entry per author.
    var authorWords: [String]
    /// Each keyword's words, then one entry for the tags, comment and addresses (``keywordWords(_:_:)``).
    var keywordWords: [String]
    /// The words of the identifier's folders, when it is a path; empty otherwise.
    var folderWords: String
    /// The text's words as a `tsvector` literal (TextWords.vectorLiteral(of:)).
    var textVector: String
    var identifierIsPath: Bool
    var userTags: [String]
    var comment: String?
    var starRating: Double?
    var whereFroms: [String]
    var thumbnailFormat: String?
    var thumbnailWidth: Int?
    var thumbnailHeight: Int?
    /// The thumbnail's bytes, Base64.
    var thumbnailBytes: String?
    /// Who may read the file (``PostgreSQLVisibility/rules(_:for:domainID:)``).
    var readers: [String]?

    /// The row of `item` in the domain of row id `domainID`: its words split, its texts made
    /// storable, who may read it turned into rules with the domain's id in front.
    init(_ item: SearchableItem, domainID: Int64) {
        let a = item.attributeSet
        d = domainID
        id = Data(item.uniqueIdentifier.bytes).base64EncodedString()
        displayName = a.displayName.map(Self.storable)
        title = a.title.map(Self.storable)
        authors = a.authors.map(Self.storable)
        contentType = a.contentType.map(Self.storable)
        contentTypeTree = a.contentTypeTree.map(Self.storable)
        contentDescription = a.contentDescription.map(Self.storable)
        keywords = a.keywords.map(Self.storable)
        textContent = a.textContent.map(Self.storable)
        textVector = textContent.map(TextWords.vectorLiteral(of:)) ?? ""
        size = a.size
        modificationDate = a.contentModificationDate?.timeIntervalSince1970
        creationDate = a.contentCreationDate?.timeIntervalSince1970
        pixelWidth = a.pixelWidth
        pixelHeight = a.pixelHeight
        pageCount = a.pageCount
        acquisitionMake = a.acquisitionMake.map(Self.storable)
        acquisitionModel = a.acquisitionModel.map(Self.storable)
        latitude = a.latitude
        longitude = a.longitude
        expirationDate = item.expirationDate?.timeIntervalSince1970
        changeStamp = item.changeStamp.map { Data($0).base64EncodedString() }
        failure = item.failure.map(Self.storable)
        nameWords = Self.words(a.displayName)
        titleWords = Self.words(a.title)
        authorWords = a.authors.map(Self.words)
        keywordWords = Self.keywordWords(a.keywords, a.userAttributes)
        userTags = a.userTags.map(Self.storable)
        comment = a.comment.map(Self.storable)
        starRating = a.starRating
        whereFroms = a.whereFroms.map(Self.storable)
        folderWords = item.identifierIsPath ? Self.folderWords(of: item.uniqueIdentifier) : ""
        identifierIsPath = item.identifierIsPath
        readers = item.access.map { PostgreSQLVisibility.rules($0, for: .read, domainID: domainID) }
        if let thumbnail = a.thumbnail, !thumbnail.bytes.isEmpty {
            thumbnailFormat = thumbnail.format
            thumbnailWidth = thumbnail.width
            thumbnailHeight = thumbnail.height
            thumbnailBytes = Data(thumbnail.bytes).base64EncodedString()
        }
    }

    /// The column list of `jsonb_to_recordset` for these rows.
    static let recordType = """
        d bigint, id text, "displayName" text, title text, authors text[], "contentType" text,
        "contentTypeTree" text[], "contentDescription" text, keywords text[], "textContent" text, size bigint,
        "modificationDate" double precision, "creationDate" double precision, "pixelWidth" integer,
        "pixelHeight" integer, "pageCount" integer, "acquisitionMake" text, "acquisitionModel" text,
        latitude double precision, longitude double precision, "expirationDate" double precision,
        "changeStamp" text, failure text, "nameWords" text, "titleWords" text, "authorWords" text[],
        "keywordWords" text[], "folderWords" text, "textVector" text, "identifierIsPath" boolean, "userTags" text[], comment text,
        "starRating" double precision, "whereFroms" text[], "thumbnailFormat" text, "thumbnailWidth" integer,
        "thumbnailHeight" integer, "thumbnailBytes" text, readers text[]
        """

    /// PostgreSQL's text cannot hold NUL; JSON and SQLite can. NUL is dropped.
    static func storable(_ text: String) -> String {
        text.utf8.contains(0) ? text.replacingOccurrences(of: "\0", with: "") : text
    }

    /// The search words of a text (``NameTokenizer``), joined by spaces.
    static func words(_ text: String?) -> String {
        text.map(NameTokenizer.joinedWords(in:)) ?? ""
    }

    /// The words an item's keywords are searched and ranked by: each keyword's, then one
    /// entry with the words of its tags, comment and addresses (as the SQLite index's
    /// `keywords` words hold them).
    static func keywordWords(_ keywords: [String], _ user: UserAttributes) -> [String] {
        keywords.map(Self.words) + (user.searchText.map { [Self.words($0)] } ?? [])
    }

    /// The search words of the folders of an identifier's path, joined by spaces.
    static func folderWords(of identifier: ItemIdentifier) -> String {
        identifier.parentComponents.map(NameTokenizer.joinedWords(in:)).filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// The words of all components of `identifier` as folders: what the folder words of the
    /// items below it start with.
    static func pathWords(of identifier: ItemIdentifier) -> String {
        identifier.parentComponents.map(NameTokenizer.joinedWords(in:))
            .appending(NameTokenizer.joinedWords(in: String(decoding: identifier.lastComponent, as: UTF8.self)))
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}

private extension Array {
    /// The array with `element` after its last.
    func appending(_ element: Element) -> [Element] { self + [element] }
}
