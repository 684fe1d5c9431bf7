/// The attributes people (and their programs) give an item apart from its content: tags, a
/// comment, a rating and where it came from. A file indexer reads them from extended
/// attributes; they change without the content changing, so an index can replace them alone
/// (``IndexBatch/setUserAttributes(_:of:domain:changeStamp:)``).
///
/// ```swift
/// var attributes = AttributeSet()
/// attributes.userAttributes = UserAttributes(userTags: ["work", "2024"], starRating: 4)
/// ```
public struct UserAttributes: Hashable, Sendable {
    /// ``AttributeSet/userTags``.
    public var userTags: [String]
    /// ``AttributeSet/comment``.
    public var comment: String?
    /// ``AttributeSet/starRating``: 0 to 5.
    public var starRating: Double?
    /// ``AttributeSet/whereFroms``.
    public var whereFroms: [String]

    /// Tags, a comment, a rating and origins, as read from a file's extended attributes.
    public init(userTags: [String] = [], comment: String? = nil, starRating: Double? = nil, whereFroms: [String] = []) {
        self.userTags = userTags
        self.comment = comment
        self.starRating = starRating
        self.whereFroms = whereFroms
    }

    /// Whether no attribute is set.
    public var isEmpty: Bool { userTags.isEmpty && comment == nil && starRating == nil && whereFroms.isEmpty }

    /// The text whose words an item is found by, at the rank of its keywords: its tags,
    /// comment and addresses, separated by the keyword separator (U+001F). `nil` when there
    /// is none.
    public var searchText: String? {
        let parts = userTags + [comment].compactMap { $0 } + whereFroms
        return parts.isEmpty ? nil : parts.joined(separator: "\u{1F}")
    }
}

extension AttributeSet {
    /// What search ranks as the item's keywords: its keywords, then the text of its user
    /// attributes (``UserAttributes/searchText``).
    public var rankedKeywords: [String] {
        keywords + (userAttributes.searchText.map { [$0] } ?? [])
    }

    /// Tags, comment, rating and origins together.
    public var userAttributes: UserAttributes {
        get { UserAttributes(userTags: userTags, comment: comment, starRating: starRating, whereFroms: whereFroms) }
        set {
            userTags = newValue.userTags
            comment = newValue.comment
            starRating = newValue.starRating
            whereFroms = newValue.whereFroms
        }
    }
}
