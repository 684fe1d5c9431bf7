import Foundation

/// The searchable attributes of an item, in the shape of CoreSpotlight's `CSSearchableItemAttributeSet`.
///
/// Every attribute is optional; an index stores what is set.
///
/// ```swift
/// var attributes = AttributeSet(contentType: "text/markdown")
/// attributes.title = "Quarterly report"
/// attributes.keywords = ["finance", "2024"]
/// ```
///
/// ## Overview
///
/// The attributes fall in three groups, by how they are found:
/// - **Words**: ``displayName``, ``title``, ``authors``, ``keywords`` and ``textContent`` are
///   split into words that a search typed as words finds
///   (``SearchableIndex/search(words:domain:limit:scope:)``), a name's before its text's.
/// - **Values**: the sizes, dates, camera and position, and ``contentType`` are stored as they
///   are, for the query language (`size > 1000000`, `contentTypeTree == "image"`; each is a
///   ``QueryAttribute`` of the same name) and for display.
/// - **User attributes**: ``userTags``, ``comment``, ``starRating`` and ``whereFroms`` are what
///   people said of the item, which a file indexer reads from extended attributes; they are
///   written as part of the item, and can also change alone (``UserAttributes``).
///
/// The index keeps at most 1 MiB of ``textContent`` per item (UTF-8, cut at a character
/// boundary, stored compressed); a ``thumbnail`` with no bytes is not stored. Lists and
/// searches read every attribute but the text and the thumbnail's bytes.
///
/// ## Topics
///
/// ### Names and text
///
/// - ``displayName``
/// - ``title``
/// - ``authors``
/// - ``keywords``
/// - ``textContent``
/// - ``nameKeywords(of:)``
///
/// ### Type
///
/// - ``init(contentType:)``
/// - ``contentType``
/// - ``contentTypeTree``
/// - ``contentDescription``
///
/// ### Measures and dates
///
/// - ``size``
/// - ``contentModificationDate``
/// - ``contentCreationDate``
/// - ``pixelWidth``
/// - ``pixelHeight``
/// - ``pageCount``
///
/// ### Photos
///
/// - ``acquisitionMake``
/// - ``acquisitionModel``
/// - ``latitude``
/// - ``longitude``
/// - ``thumbnail``
///
/// ### What people said of the item
///
/// - ``userTags``
/// - ``comment``
/// - ``starRating``
/// - ``whereFroms``
public struct AttributeSet: Hashable, Sendable {
    /// The name shown to people; for a file, its file name.
    public var displayName: String?
    /// The document's own title.
    public var title: String?
    /// The MIME type, such as `image/jpeg`.
    public var contentType: String?
    /// A human description of the content, such as libmagic's.
    public var contentDescription: String?
    /// The document's authors, in order (a PDF's Author, `dc:creator`, an e-mail's From).
    public var authors: [String]
    /// A few words that describe the item.
    public var keywords: [String]
    /// A small picture of the item.
    public var thumbnail: Thumbnail?
    /// Searchable text of the item.
    public var textContent: String?
    /// Size in bytes.
    public var size: Int64?
    /// When the content last changed.
    public var contentModificationDate: Date?
    /// When the content was created.
    public var contentCreationDate: Date?
    /// Width of an image, in pixels.
    public var pixelWidth: Int?
    /// Height of an image, in pixels.
    public var pixelHeight: Int?
    /// Pages of a document, slides of a presentation.
    public var pageCount: Int?
    /// The maker of the device that took a photo (EXIF Make).
    public var acquisitionMake: String?
    /// The model of the device that took a photo (EXIF Model).
    public var acquisitionModel: String?
    /// Where a photo was taken: degrees north of the equator (EXIF GPS).
    public var latitude: Double?
    /// Where a photo was taken: degrees east of Greenwich (EXIF GPS).
    public var longitude: Double?
    /// Tags people gave the item (`kMDItemUserTags`; for a file, its `user.xdg.tags`).
    public var userTags: [String]
    /// A comment people wrote about the item (`kMDItemComment`; `user.xdg.comment`).
    public var comment: String?
    /// A rating from 0 to 5 stars, halves allowed (`kMDItemStarRating`; `user.baloo.rating` / 2).
    public var starRating: Double?
    /// Where the item came from: the addresses it was downloaded from (`kMDItemWhereFroms`;
    /// `user.xdg.origin.url`, then `user.xdg.referrer.url`).
    public var whereFroms: [String]

    /// Creates an attribute set, optionally with a content type.
    public init(contentType: String? = nil) {
        self.contentType = contentType
        self.keywords = []
        self.authors = []
        self.userTags = []
        self.whereFroms = []
    }

    /// The content type and its parents, most specific first, e.g.
    /// `["image/jpeg", "image", "public.image", "public.data", "public.item"]`.
    public var contentTypeTree: [String] { ContentTypeTree.tree(of: contentType) }

    /// The words of a name as keywords: each word of more than one character (as
    /// ``NameTokenizer`` splits names), once, in order. The one definition of a name's
    /// keywords: the index stores keywords that start with these as derived from the display
    /// name (without storing them twice), and an indexer that puts a name's words first
    /// (`FileAttributes` in SearchlightFiles) takes them here, so the two cannot drift apart.
    public static func nameKeywords(of name: String) -> [String] {
        var seen = Set<String>()
        return NameTokenizer.words(in: name).filter { $0.count > 1 && seen.insert($0).inserted }
    }
}
