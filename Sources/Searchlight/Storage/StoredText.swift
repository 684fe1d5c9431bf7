import Foundation

/// An item's title and keywords as the index stores them: without what its display name
/// already says.
///
/// A file's title is usually its name without extension, and its keywords usually start with
/// its name's words. Storing (and indexing) those again would cost about a fifth of the
/// index, so the index keeps only the rest (the title in `item`, the other keywords in the
/// item's ``ContentKind``) and a bit set, `item.derived`, that says what to rebuild from the
/// display name:
///
/// | bit | meaning |
/// |---|---|
/// | ``derivedTitle`` | the title is ``AttributeSet/title(fromFileName:)`` of the display name; `title` is `NULL` |
/// | ``derivedKeywords`` | the keywords are ``nameKeywords(of:)`` of the display name, then the stored ones |
///
/// Reading gives back exactly the attributes that were written. When a move renames an item
/// (``IndexBatch/Rename``), what is derived follows the new name only if the caller says so.
struct StoredText: Equatable {
    /// The `derived` bit of a title rebuilt from the display name.
    static let derivedTitle = 1
    /// The `derived` bit of keywords that start with the display name's words.
    static let derivedKeywords = 2

    /// The stored title: `nil` when absent or derived.
    var title: String?
    /// The stored keywords, joined by ``SearchableIndex/keywordSeparator``: `nil` when there are none left.
    var keywords: String?
    /// Which attributes are rebuilt from the display name.
    var derived: Int

    /// The stored form of what `attributes` says. Texts are compared byte for byte, not as
    /// Swift strings (which equate `é` with `e` and a combining accent): what is read back
    /// must be the very bytes written.
    init(_ attributes: AttributeSet) {
        var title = attributes.title
        var keywords = attributes.keywords
        var derived = 0
        if let name = attributes.displayName {
            if let stored = title, stored.utf8.elementsEqual(AttributeSet.title(fromFileName: name).utf8) {
                title = nil
                derived |= Self.derivedTitle
            }
            let nameKeywords = Self.nameKeywords(of: name)
            if !nameKeywords.isEmpty, keywords.starts(with: nameKeywords, by: { $0.utf8.elementsEqual($1.utf8) }) {
                keywords.removeFirst(nameKeywords.count)
                derived |= Self.derivedKeywords
            }
        }
        self.init(title: title, keywords: Self.joined(keywords), derived: derived)
    }

    /// Stored columns, as read from a row.
    init(title: String?, keywords: String?, derived: Int) {
        self.title = title
        self.keywords = keywords
        self.derived = derived
    }

    /// The title, rebuilt from `displayName` when derived.
    func title(displayName: String?) -> String? {
        guard derived & Self.derivedTitle != 0, let displayName else { return title }
        return AttributeSet.title(fromFileName: displayName)
    }

    /// The keywords, starting with those of `displayName` when derived.
    func keywords(displayName: String?) -> [String] {
        let stored = keywords.map { $0.split(separator: SearchableIndex.keywordSeparator).map(String.init) } ?? []
        guard derived & Self.derivedKeywords != 0, let displayName else { return stored }
        return Self.nameKeywords(of: displayName) + stored
    }

    /// The keywords joined as the `keywords` column and the query functions hold them.
    func joinedKeywords(displayName: String?) -> String? {
        Self.joined(keywords(displayName: displayName))
    }

    /// The words of a name that keywords stored as derived start with.
    static func nameKeywords(of name: String) -> [String] { AttributeSet.nameKeywords(of: name) }

    private static func joined(_ keywords: [String]) -> String? {
        keywords.isEmpty ? nil : keywords.joined(separator: String(SearchableIndex.keywordSeparator))
    }
}
