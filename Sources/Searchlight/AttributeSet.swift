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
public struct AttributeSet: Hashable, Sendable {
    /// The name shown to people; for a file, its file name.
    public var displayName: String?
    /// The document's own title.
    public var title: String?
    /// The MIME type, such as `image/jpeg`.
    public var contentType: String?
    /// A human description of the content, such as libmagic's.
    public var contentDescription: String?
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

    /// Creates an attribute set, optionally with a content type.
    public init(contentType: String? = nil) {
        self.contentType = contentType
        self.keywords = []
    }

    /// The content type and its parents, most specific first, e.g.
    /// `["image/jpeg", "image", "public.image", "public.data", "public.item"]`.
    public var contentTypeTree: [String] { ContentTypeTree.tree(of: contentType) }

    /// The title a file has when its format gives none: its name without the extension
    /// (`Report.final.pdf` → `Report.final`); a name that is only an extension (`.profile`)
    /// keeps it. The index stores such a title as derived from the display name.
    public static func title(fromFileName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
