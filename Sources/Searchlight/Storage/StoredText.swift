import Foundation

/// An item's title and keywords as the index stores them: without what its display name
/// already says, and with whether its identifier is a path.
///
/// An indexer often takes a title and keywords from an item's name (a file's title is its
/// name without extension; its keywords start with its name's words). Storing (and indexing)
/// those again would cost about a fifth of the index, so the index keeps only the rest (the
/// title in `item`, the other keywords in the item's ``ContentKind``) and an integer,
/// `item.derived` (``column``), that says what to rebuild from the display name. The rules are the
/// library's own and know nothing of files: a title that is the start of the display name,
/// ending where a word of the name ends, is stored as the length of the rest of the name
/// (a file's title leaves out `.pdf`: 4, so the column stays one byte); keywords are stored
/// without the name's words (``AttributeSet/nameKeywords(of:)``) when they start with them.
///
/// | bits of `item.derived` | meaning |
/// |---|---|
/// | ``derivedTitle`` | the title is the display name without its last ``nameTailLength`` UTF-8 bytes; `title` is `NULL` |
/// | ``derivedKeywords`` | the keywords are ``AttributeSet/nameKeywords(of:)`` of the display name, then the stored ones |
/// | ``pathIdentifier`` | the identifier is a path whose folder names are words of the item (``SearchableItem/identifierIsPath``) |
/// | from ``tailLengthShift`` to 23 | ``nameTailLength`` (less than 2²¹) |
/// | from ``kindCharactersShift`` up | ``kindCharacters``: 0 for all of the kind's keywords, n for their first n − 1 characters |
///
/// Reading gives back exactly the attributes that were written. When a move renames an item
/// (``IndexBatch/Rename``), what the caller's rules derive from the name follows the new name
/// only as the rename says.
struct StoredText: Equatable {
    /// The `derived` bit of a title that is the start of the display name.
    static let derivedTitle = 1
    /// The `derived` bit of keywords that start with the display name's words.
    static let derivedKeywords = 2
    /// The `derived` bit of an identifier whose folders are words of the item.
    static let pathIdentifier = 4
    /// Where ``nameTailLength`` starts in `item.derived`.
    static let tailLengthShift = 3
    /// Where ``kindCharacters`` starts in `item.derived`: above every name tail (a file name has at
    /// most 255 bytes), so that the columns written before v7 read as they did; the column
    /// is a 4-byte integer for up to 126 characters.
    static let kindCharactersShift = 24
    /// The longest ``nameTailLength`` the column holds; a longer tail keeps its title stored.
    static let maximumTailLength = 1 << (kindCharactersShift - tailLengthShift) - 1

    /// The stored title: `nil` when absent or derived.
    var title: String?
    /// The stored keywords, joined by ``SearchableIndex/keywordSeparator``: `nil` when there are none left.
    var keywords: String?
    /// What is rebuilt from the display name and the identifier: the bits of the table above.
    var derived: Int
    /// The bytes of the display name after a derived title.
    var nameTailLength: Int
    /// How much of its kind's keywords an item has, since v7: 0 for all of them (items written
    /// before), n for their first n − 1 characters (Unicode scalars, as SQLite's `substr`
    /// counts them), which writers always set. Items whose keywords beyond their name's are
    /// the start of another item's (a long name leaves room for fewer describing words) share
    /// that item's kind row (``BatchWriter/kind(_:sharing:)``) instead of one row per length.
    var kindCharacters = 0

    /// The `item.derived` column: ``derived``, ``nameTailLength`` and ``kindCharacters``.
    var column: Int { derived | nameTailLength << Self.tailLengthShift | kindCharacters << Self.kindCharactersShift }

    /// The stored form of what `attributes` says. Texts are compared byte for byte, not as
    /// Swift strings (which equate `é` with `e` and a combining accent): what is read back
    /// must be the very bytes written.
    init(_ attributes: AttributeSet, identifierIsPath: Bool = false) {
        var title = attributes.title
        var keywords = attributes.keywords
        var derived = identifierIsPath ? Self.pathIdentifier : 0
        var nameTailLength = 0
        if let name = attributes.displayName {
            if let stored = title, Self.isNameStart(stored, of: name),
               name.utf8.count - stored.utf8.count <= Self.maximumTailLength {
                title = nil
                derived |= Self.derivedTitle
                nameTailLength = name.utf8.count - stored.utf8.count
            }
            let nameKeywords = AttributeSet.nameKeywords(of: name)
            if !nameKeywords.isEmpty, keywords.starts(with: nameKeywords, by: { $0.utf8.elementsEqual($1.utf8) }) {
                keywords.removeFirst(nameKeywords.count)
                derived |= Self.derivedKeywords
            }
        }
        self.title = title
        self.keywords = Self.joined(keywords)
        self.derived = derived
        self.nameTailLength = nameTailLength
    }

    /// Stored columns, as read from a row: `column` is `item.derived`, `keywords` the whole
    /// keywords of the item's kind (of which the item has the first ``kindCharacters``).
    init(title: String?, keywords: String?, column: Int) {
        self.title = title
        self.keywords = Self.kindKeywords(keywords, column: column)
        derived = column & (1 << Self.tailLengthShift - 1)
        nameTailLength = column >> Self.tailLengthShift & Self.maximumTailLength
        kindCharacters = 0
    }

    /// The keywords an item has of its kind's `keywords` (joined), given its `item.derived`
    /// column: all of them, or their first ``kindCharacters`` − 1 characters (`nil` for none).
    /// In SQL: ``SearchableIndex/kindKeywordsSQL(_:keywords:)``.
    static func kindKeywords(_ keywords: String?, column: Int) -> String? {
        let characters = column >> kindCharactersShift
        guard characters > 0, let keywords else { return keywords }
        let scalars = keywords.unicodeScalars
        guard characters > 1 else { return nil }
        guard let end = scalars.index(scalars.startIndex, offsetBy: characters - 1, limitedBy: scalars.endIndex) else {
            return keywords
        }
        return String(keywords[..<end])
    }

    /// Whether the identifier is a path whose folders are words of the item.
    var identifierIsPath: Bool { derived & Self.pathIdentifier != 0 }

    /// The title, rebuilt from `displayName` when derived.
    func title(displayName: String?) -> String? {
        guard derived & Self.derivedTitle != 0, let displayName else { return title }
        return String(decoding: displayName.utf8.dropLast(nameTailLength), as: UTF8.self)
    }

    /// The keywords, starting with those of `displayName` when derived.
    func keywords(displayName: String?) -> [String] {
        let stored = keywords.map { $0.split(separator: SearchableIndex.keywordSeparator).map(String.init) } ?? []
        guard derived & Self.derivedKeywords != 0, let displayName else { return stored }
        return AttributeSet.nameKeywords(of: displayName) + stored
    }

    /// The keywords joined as the `keywords` column and the query functions hold them.
    func joinedKeywords(displayName: String?) -> String? {
        Self.joined(keywords(displayName: displayName))
    }

    /// Whether `title` is a non-empty start of `name` that ends where a word of the name ends
    /// (at its end, or before an ASCII character that is neither a letter nor a digit): then
    /// the title's words are words of the name, which the full-text index and the name
    /// search count on (a derived title has no words of its own there).
    static func isNameStart(_ title: String, of name: String) -> Bool {
        let titleBytes = title.utf8, nameBytes = name.utf8
        guard !titleBytes.isEmpty, nameBytes.starts(with: titleBytes) else { return false }
        guard let next = nameBytes.dropFirst(titleBytes.count).first else { return true }
        return next < 0x80 && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next)
            && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(next) && !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(next)
    }

    private static func joined(_ keywords: [String]) -> String? {
        keywords.isEmpty ? nil : keywords.joined(separator: String(SearchableIndex.keywordSeparator))
    }
}
