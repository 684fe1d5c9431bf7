import Foundation
import GRDB

/// Picks the words that tell one document from the others: frequent in its text, rare in the
/// index (tf × idf), with the index's own statistics (the number of texts that hold each word,
/// from the `item_content` full-text index through an `fts5vocab` table).
///
/// The library offers the mechanism; what a file's keywords are made of is the indexer's rule
/// (SearchlightFiles builds a file's attributes): ``keywords(own:text:nameWords:fallback:)``
/// composes them as Docs/Contract.md#what-is-indexed says — the document's own keywords, then the most telling words of
/// its text, then its name's words, 5 to 10 in all, and the fallback (libmagic's type words)
/// only when there is nothing else.
///
/// ```swift
/// let ranker = try index.keywordRanker()
/// attributes.keywords = try ranker.keywords(own: document.keywords, text: document.text,
///                                          nameWords: AttributeSet.nameKeywords(of: name), fallback: typeWords)
/// ```
public final class KeywordRanker: Sendable {
    /// At most this many keywords.
    public static let maximumCount = 10
    /// Telling words are added up to this many keywords.
    public static let tellingCount = 7
    /// Only the start of a long text is counted: enough to know what it is about.
    static let countedBytes = 256 * 1024

    /// Words too common in any language's prose to tell anything, whatever the index holds
    /// (an index of a few documents has no useful statistics yet).
    static let stopwords: Set<String> = Set("""
        the of and to in is that for it as was with be by on not he this are or his from at which but have an they
        you were her she there been one all we their has would when if so no will more can who its out up about them
        into than other some what only time could these also any may our your such then each use used using see
        le la les de des du un une et est en que qui pour par sur dans pas plus der die das und ist den dem ein eine
        zu von mit sich auf für nicht el los las del y se por con para una
        """.split(whereSeparator: \.isWhitespace).map(String.init))

    private let database: (any DatabaseReader)?
    private let documentCount: Double

    /// A ranker without an index's statistics: the words a text uses most (stopwords left
    /// out), for an index that keeps no word counts (the PostgreSQL index, for now).
    public init() {
        database = nil
        documentCount = 0
    }

    init(database: any DatabaseReader) throws {
        self.database = database
        documentCount = try database.read { db in
            // Every item rather than those with text (counting `item_text` would read their
            // text pages): an upper bound, which only shifts the logarithm of every word alike.
            Double(try Int64.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0)
        }
    }

    /// The most telling words of `text`, best first, at most `limit`.
    public func tellingWords(in text: String, limit: Int = tellingCount) throws -> [String] {
        var counts: [String: Int] = [:]
        var run = ""
        func endWord() {
            defer { run = "" }
            guard run.count >= 3, !run.allSatisfy(\.isNumber) else { return }
            let folded = NameTokenizer.fold(run)
            guard !Self.stopwords.contains(folded) else { return }
            counts[folded, default: 0] += 1
        }
        let counted = text.utf8.count > Self.countedBytes ? String(text.prefix(Self.countedBytes / 4)) : text
        for character in counted {
            if character.isLetter || character.isNumber { run.append(character) } else { endWord() }
        }
        endWord()
        guard !counts.isEmpty else { return [] }
        // The words met most often, then weighed by how rare they are in the index.
        let frequent = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(40)
        guard let database else {
            return frequent.prefix(limit).map(\.key)
        }
        let scored = try database.read { db in
            let statement = try db.cachedStatement(sql: "SELECT doc FROM item_content_vocab WHERE term = ?")
            return try frequent.map { word, count -> (String, Double) in
                let holders = Double(try Int.fetchOne(statement, arguments: [word]) ?? 0)
                return (word, Double(count) * log((documentCount + 1) / (holders + 1)) + Double(count) * 1e-6)
            }
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(limit).map(\.0)
    }

    /// A document's keywords: its own, then the most telling words of its text, then its
    /// name's words — each once, at most ``maximumCount`` — or `fallback` when none of these exist.
    public func keywords(own: [String], text: String?, nameWords: [String], fallback: [String] = []) throws -> [String] {
        var keywords: [String] = []
        var seen = Set<String>()
        func add(_ words: some Sequence<String>, upTo count: Int) {
            for word in words where keywords.count < count && !word.isEmpty && seen.insert(NameTokenizer.fold(word)).inserted {
                keywords.append(word)
            }
        }
        add(own, upTo: Self.maximumCount)
        if let text, keywords.count < Self.tellingCount {
            add(try tellingWords(in: text, limit: Self.tellingCount), upTo: Self.tellingCount)
        }
        add(nameWords, upTo: Self.maximumCount)
        if keywords.isEmpty { add(fallback, upTo: Self.maximumCount) }
        return keywords
    }
}

extension SearchableIndex {
    /// A ranker of the telling words of texts, with this index's statistics as they are now.
    public func keywordRanker() throws -> KeywordRanker {
        try KeywordRanker(database: database)
    }
}
