/// An attribute a query can test, such as `title` or `contentModificationDate`.
///
/// Each attribute has a name (as written in queries) and a ``Kind`` that says which values it
/// accepts. Apple's `kMDItem…` names are accepted as aliases (`kMDItemFSSize` is `size`).
/// `*` names ``anyText``: the predicate holds when it holds for any text attribute.
public enum QueryAttribute: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// The text attributes: ``AttributeSet``'s of the same names.
    case displayName, title, authors, contentType, contentTypeTree, contentDescription, keywords, textContent
    /// Numbers and dates: ``AttributeSet``'s of the same names.
    case size, contentModificationDate, contentCreationDate, pixelWidth, pixelHeight, pageCount
    /// A photo's camera and position: ``AttributeSet``'s of the same names.
    case acquisitionMake, acquisitionModel, latitude, longitude
    /// Tags, comment, rating (0–5) and origins: ``UserAttributes``.
    case userTags, comment, starRating, whereFroms
    /// The item's identifier (for a file, its path relative to its root), compared as bytes.
    case path
    /// The name of the item's domain.
    case domain
    /// `*`: any of ``textAttributes``.
    case anyText = "*"

    /// What kind of values an attribute holds.
    public enum Kind: Hashable, Sendable {
        /// One string.
        case text
        /// A list of strings (keywords, content type tree): a predicate holds when it holds for any element.
        case textList
        /// A number.
        case number
        /// A date.
        case date
        /// Raw bytes: the item identifier.
        case identifier
    }

    /// The kind of values this attribute holds.
    public var kind: Kind {
        switch self {
        case .displayName, .title, .contentType, .contentDescription, .textContent, .domain, .anyText,
             .acquisitionMake, .acquisitionModel, .comment: .text
        case .keywords, .contentTypeTree, .authors, .userTags, .whereFroms: .textList
        case .size, .pixelWidth, .pixelHeight, .pageCount, .latitude, .longitude, .starRating: .number
        case .contentModificationDate, .contentCreationDate: .date
        case .path: .identifier
        }
    }

    /// The attributes `*` stands for: every text attribute but `textContent`, as in Spotlight.
    public static let textAttributes: [QueryAttribute] = [.displayName, .title, .authors, .contentDescription, .keywords]

    /// The attribute named `name` (compared case-insensitively), or one of Apple's `kMDItem…` aliases.
    ///
    /// ```swift
    /// QueryAttribute(name: "kMDItemFSSize") // .size
    /// ```
    public init?(name: String) {
        let key = name.lowercased()
        if let attribute = Self.namesByKey[key] { self = attribute } else { return nil }
    }

    /// The name used in queries.
    public var name: String { rawValue }

    /// The name used in queries (``name``).
    public var description: String { rawValue }

    private static let namesByKey: [String: QueryAttribute] = {
        var names: [String: QueryAttribute] = [:]
        for attribute in allCases { names[attribute.rawValue.lowercased()] = attribute }
        let aliases: [String: QueryAttribute] = [
            "kMDItemDisplayName": .displayName, "kMDItemFSName": .displayName, "kMDItemTitle": .title,
            "kMDItemContentType": .contentType, "kMDItemContentTypeTree": .contentTypeTree,
            "kMDItemDescription": .contentDescription, "kMDItemKeywords": .keywords,
            "kMDItemTextContent": .textContent, "kMDItemFSSize": .size,
            "kMDItemContentModificationDate": .contentModificationDate,
            "kMDItemFSContentChangeDate": .contentModificationDate,
            "kMDItemContentCreationDate": .contentCreationDate, "kMDItemFSCreationDate": .contentCreationDate,
            "kMDItemPixelWidth": .pixelWidth, "kMDItemPixelHeight": .pixelHeight, "kMDItemPath": .path,
            "kMDItemAuthors": .authors, "kMDItemNumberOfPages": .pageCount,
            "kMDItemAcquisitionMake": .acquisitionMake, "kMDItemAcquisitionModel": .acquisitionModel,
            "kMDItemLatitude": .latitude, "kMDItemLongitude": .longitude,
            "kMDItemUserTags": .userTags, "kMDItemComment": .comment, "kMDItemFinderComment": .comment,
            "kMDItemStarRating": .starRating, "kMDItemWhereFroms": .whereFroms,
        ]
        for (alias, attribute) in aliases { names[alias.lowercased()] = attribute }
        return names
    }()
}
