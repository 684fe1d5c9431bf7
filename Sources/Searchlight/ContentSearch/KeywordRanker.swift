import Foundation
import GRDB
import Synchronization

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
    /// Holder counts already read, valid for one state of the full-text index.
    private let holderCache = Mutex(HolderCache())

    /// The holders of the words counted since the full-text index last changed: FTS5's
    /// structure record (row 10 of `item_content_data`: its segments and a counter of writes)
    /// changes with every committed write to the index, so the same record means the same
    /// counts, whichever connection and transaction read them. Texts ranked between two of a
    /// scan's batches share their common words' counts.
    private struct HolderCache {
        var structure: Data?
        var holders: [String: Int] = [:]
        /// Words kept at most, after which the cache starts again.
        static let capacity = 50_000
    }

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
    ///
    /// A word is telling when it is frequent in `text` and rare in the index: tf × log(items /
    /// items whose text holds it), the holders read from the content index's own statistics.
    ///
    /// - Throws: GRDB's `DatabaseError` when those statistics cannot be read.
    public func tellingWords(in text: String, limit: Int = tellingCount) throws -> [String] {
        let counts = Self.wordCounts(in: text)
        guard !counts.isEmpty else { return [] }
        // The words met most often, then weighed by how rare they are in the index.
        let frequent = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(40)
        guard let database else {
            return frequent.prefix(limit).map(\.key)
        }
        guard limit > 0 else { return [] }
        // Best first: a higher score, then the word (the words are distinct: a total order).
        func ranksBefore(_ a: (word: String, score: Double), _ b: (word: String, score: Double)) -> Bool {
            a.score != b.score ? a.score > b.score : a.word < b.word
        }
        return try database.read { db in
            let statement = try db.cachedStatement(sql: "SELECT doc FROM item_content_vocab WHERE term = ?")
            let structure = try Data.fetchOne(db.cachedStatement(sql: "SELECT block FROM item_content_data WHERE id = 10"))
            // Counting a word's holders walks its document list in every segment of the index:
            // the costly part. A word's score is at most what it would be if no text held it,
            // and that bound falls with the count, so once a word's bound cannot beat the
            // `limit`-th best, neither can the words after it: the same answer, fewer lookups.
            var best: [(word: String, score: Double)] = []
            for (word, count) in frequent {
                if best.count == limit, let last = best.last,
                   ranksBefore(last, (word, score(count: count, holders: 0))) {
                    break
                }
                let holders = Double(try holderCount(of: word, structure: structure, statement: statement))
                let entry = (word: word, score: score(count: count, holders: holders))
                best.insert(entry, at: best.firstIndex { ranksBefore(entry, $0) } ?? best.endIndex)
                if best.count > limit { best.removeLast() }
            }
            return best.map(\.word)
        }
    }

    /// How many texts hold `word`: from the cache when the index is as it was when it was read
    /// (the same `structure` record), else counted by `statement` and kept.
    private func holderCount(of word: String, structure: Data?, statement: Statement) throws -> Int {
        if let known = holderCache.withLock({ $0.structure == structure ? $0.holders[word] : nil }) { return known }
        let count = try Int.fetchOne(statement, arguments: [word]) ?? 0
        holderCache.withLock { cache in
            if cache.structure != structure || cache.holders.count >= HolderCache.capacity {
                cache = HolderCache(structure: structure)
            }
            cache.holders[word] = count
        }
        return count
    }

    /// tf × idf of a word met `count` times in a text and held by `holders` texts of the index,
    /// plus a millionth of `count`, so that a more frequent word wins when the index says nothing.
    private func score(count: Int, holders: Double) -> Double {
        Double(count) * log((documentCount + 1) / (holders + 1)) + Double(count) * 1e-6
    }

    /// A document's keywords: its own, then the most telling words of its text, then its
    /// name's words — each once, at most ``maximumCount`` — or `fallback` when none of these exist.
    ///
    /// - Parameters:
    ///   - own: The document's own keywords (PDF Keywords, `cp:keywords`, meta keywords), first.
    ///   - text: The document's text, whose telling words come next; `nil` when it has none.
    ///   - nameWords: The words of its name, after those.
    ///   - fallback: Words used only when there is nothing else (the file indexer passes its type's words).
    /// - Throws: ``SearchlightError`` when the index's word statistics cannot be read.
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
    /// - Throws: ``SearchlightError`` when the index's word statistics cannot be read.
    public func keywordRanker() throws -> KeywordRanker {
        try KeywordRanker(database: database)
    }
}

extension KeywordRanker {
    /// How often each word of the start of `text` occurs, folded (``NameTokenizer/fold(_:)``):
    /// the runs of letters and digits of at least three characters that are not all digits,
    /// stopwords left out. Only the first quarter of ``countedBytes`` characters of a text
    /// longer than ``countedBytes`` bytes is counted.
    ///
    /// Characters as Swift's `Character` sees them (a letter or a number by its first scalar,
    /// with the combining marks that follow it), read from the UTF-8 bytes: ASCII by its byte,
    /// other scalars by their properties, each distinct word that is not ASCII folded once.
    static func wordCounts(in text: String) -> [String: Int] {
        var text = text
        text.makeContiguousUTF8()
        let characterLimit = text.utf8.count > countedBytes ? countedBytes / 4 : Int.max
        var folded: [String: Int] = [:]
        var unfolded: [String: Int] = [:]
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var runStart = -1, runCharacters = 0, runIsASCII = true, runIsNumber = true
            var characters = 0
            func endWord(at end: Int) {
                defer { runStart = -1; runCharacters = 0; runIsASCII = true; runIsNumber = true }
                guard runStart >= 0, runCharacters >= 3, !runIsNumber else { return }
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<end])
                if runIsASCII {
                    let word = String(unsafeUninitializedCapacity: run.count) { buffer in
                        for offset in 0..<run.count { buffer[offset] = NameTokenizer.lowercased(run[offset]) }
                        return run.count
                    }
                    folded[word, default: 0] += 1
                } else {
                    unfolded[String(decoding: run, as: UTF8.self), default: 0] += 1
                }
            }
            func character(at index: Int, isWord: Bool, isNumber: Bool) {
                guard isWord else { return endWord(at: index) }
                if runStart < 0 { runStart = index }
                runCharacters += 1
                if !isNumber { runIsNumber = false }
            }
            var index = 0
            while index < bytes.count, characters < characterLimit {
                let byte = bytes[index]
                if byte < 0x80 {
                    let isDigit = (0x30...0x39).contains(byte)
                    character(at: index, isWord: isDigit || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte),
                              isNumber: isDigit)
                    characters += 1
                    index += 1
                    continue
                }
                let (scalar, length) = bytes.nonASCIIScalar(at: index)
                let properties = scalar.properties
                switch properties.generalCategory {
                case .nonspacingMark, .spacingMark, .enclosingMark:
                    // Part of the character before it: in the word if that character is.
                    if runStart >= 0 { runIsASCII = false }
                default:
                    if scalar == "\u{200D}" {
                        if runStart >= 0 { runIsASCII = false }
                    } else {
                        let isNumber = properties.numericType != nil
                        character(at: index, isWord: isNumber || properties.isAlphabetic, isNumber: isNumber)
                        if runStart >= 0 { runIsASCII = false }
                        characters += 1
                    }
                }
                index += length
            }
            endWord(at: index)
        }
        for (word, count) in unfolded { folded[NameTokenizer.fold(word), default: 0] += count }
        return folded.filter { !stopwords.contains($0.key) }
    }
}
