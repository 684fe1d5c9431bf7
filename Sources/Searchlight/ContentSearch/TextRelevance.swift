import Foundation
import GRDB

/// How well an item's text matches the query words, for ordering the items that match only in
/// their text (and alike in everything else): the relevance that recency used to stand in for.
///
/// `score = phrase + proximity + frequency`, each in [0, 1]:
/// - **phrase**: 1 when the query words stand next to each other, in the order typed, somewhere
///   in the text (a phrase copied from the document).
/// - **proximity**: `n / w`, where `w` is the length in words of the smallest stretch of text
///   holding every one of the `n` query words (1 for adjacent words; 1 for a single word).
/// - **frequency**: BM25 over the text, normalized to [0, 1): for each word,
///   `idf · tf·(k₁+1) / (tf + k₁·(1 − b + b·len/avglen))` with k₁ = 1.2, b = 0.75, `idf` from how
///   many texts hold the word (`item_content_vocab`), summed and divided by the sum of the
///   words' idf·(k₁+1).
///
/// A query word matches a word of the text that starts with it. Only the start of a text is
/// read: 32 KB, less when many long texts share the 1 MB of one search (4 KB at least). Equal scores keep their order (newest first).
public struct TextRelevance {
    let tokens: [String]
    /// The tokens' UTF-8, compared in place with the words of a text.
    private let tokenBytes: [[UInt8]]
    /// Whether a token holds unspaced letters (then a text is spaced out as the index does first).
    private let hasUnspaced: Bool
    private var idf: [Double]

    /// Bytes of a text read for its score, at most: a phrase is most often near the start, and
    /// a text's words past this say little more.
    static let scoredBytes = 32_768
    /// Bytes read for all the texts of one search, at most: with many long texts, each is read
    /// for its share (at least ``minimumScoredBytes``).
    static let scoredBytesPerSearch = 1 << 20
    static let minimumScoredBytes = 4_096

    /// The bytes of each text read when `count` texts are scored.
    static func scoredBytes(forTexts count: Int) -> Int {
        max(minimumScoredBytes, min(scoredBytes, scoredBytesPerSearch / max(count, 1)))
    }
    /// At most this many items are scored in one search: more text-only matches are ordered by
    /// date (on both backends: the PostgreSQL index orders its text tier by `ts_rank_cd` within
    /// the same bound).
    public static let maximumScored = 200

    /// Scores without word frequencies (each word's idf 1).
    init(tokens: [String]) {
        // Han, kana, Thai… are words of one letter in the index: their letters are the words.
        // A compound is its runs in a text (``CompoundWords``).
        self.tokens = tokens.flatMap(CompoundWords.runs(of:)).flatMap(ContentWords.tokens(of:))
        tokenBytes = self.tokens.map { Array($0.utf8) }
        hasUnspaced = tokens.contains { $0.unicodeScalars.contains(where: ContentWords.isSplitCJK) }
        idf = self.tokens.map { _ in 1 }
    }

    init(tokens: [String], in db: Database) throws {
        self.init(tokens: tokens)
        // Items, not texts: `item_text` holds the texts themselves, and counting its rows reads
        // them all; an index of `item` is small.
        let total = Double(try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0)
        let frequency = try db.cachedStatement(sql: "SELECT doc FROM item_content_vocab WHERE term = ?")
        idf = try self.tokens.map { token in
            let holders = Double(try Int.fetchOne(frequency, arguments: [token]) ?? 1)
            return log((total - holders + 0.5) / (holders + 0.5) + 1)
        }
    }

    /// `items` ordered by their scores, highest first; equal scores keep their order (newest first).
    static func ordered<Item>(_ items: [Item], by scores: [Int64: Double], id: (Item) -> Int64) -> [Item] {
        items.enumerated().sorted { lhs, rhs in
            let left = scores[id(lhs.element)] ?? 0, right = scores[id(rhs.element)] ?? 0
            return left != right ? left > right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The scores of `texts` (by item id), and those that hold the query words as a phrase.
    func analyze(_ texts: [Int64: String]) -> (scores: [Int64: Double], phrases: Set<Int64>) {
        var folder = RunFolder()
        var matches: [Int64: [UInt64]] = [:]
        for (id, text) in texts { matches[id] = self.matches(text, folder: &folder) }
        let averageLength = max(1, Double(matches.values.reduce(0) { $0 + $1.count }) / Double(max(matches.count, 1)))
        let count = min(tokens.count, 64)
        return (matches.mapValues { score($0, averageLength: averageLength) },
                Set(matches.filter { Self.phrase(of: $0.value, count: count) }.keys))
    }


    /// For each word of (the start of) `text`, which query words it starts with, as a bit set:
    /// the words compared as bytes where they lie, ASCII ones lowercased on the fly, others
    /// folded (and remembered by `folder`).
    private func matches(_ text: String, folder: inout RunFolder) -> [UInt64] {
        var text = hasUnspaced ? ContentWords.indexed(text) : text
        text.makeContiguousUTF8()
        let count = min(tokens.count, 64)
        var matches: [UInt64] = []
        text.utf8.withContiguousStorageIfAvailable { all in
            let bytes = UnsafeBufferPointer(rebasing: all.prefix(Self.scoredBytes))  // already cut by the reader
            WordRuns.forEach(in: bytes) { run, isASCII in
                var bits: UInt64 = 0
                if isASCII {
                    for index in 0..<count where tokenBytes[index].count <= run.count {
                        let token = tokenBytes[index]
                        if token.indices.allSatisfy({ NameTokenizer.lowercased(bytes[run.lowerBound + $0]) == token[$0] }) {
                            bits |= 1 << index
                        }
                    }
                } else {
                    let word = folder.fold(UnsafeBufferPointer(rebasing: bytes[run]), isASCII: false)
                    for index in 0..<count where word.starts(with: tokenBytes[index]) { bits |= 1 << index }
                }
                matches.append(bits)
                return true
            }
        }
        return matches
    }

    /// Whether the words match the `count` query words one after the other somewhere.
    private static func phrase(of matches: [UInt64], count: Int) -> Bool {
        guard count > 1, matches.count >= count else { return false }
        for start in 0...(matches.count - count) where (0..<count).allSatisfy({ matches[start + $0] & (1 << $0) != 0 }) {
            return true
        }
        return false
    }

    private func score(_ matches: [UInt64], averageLength: Double) -> Double {
        guard !tokens.isEmpty, !matches.isEmpty else { return 0 }
        let count = min(tokens.count, 64)
        // Frequency (BM25).
        let k1 = 1.2, b = 0.75
        let norm = k1 * (1 - b + b * Double(matches.count) / averageLength)
        var frequency = 0.0, best = 0.0
        for index in 0..<count {
            let tf = Double(matches.lazy.filter { $0 & (1 << index) != 0 }.count)
            frequency += idf[index] * tf * (k1 + 1) / (tf + norm)
            best += idf[index] * (k1 + 1)
        }
        // Proximity: the smallest window holding every query word (two pointers over the words).
        var window = Int.max
        var held = [Int](repeating: 0, count: count)
        var present = 0
        var start = 0
        for (end, bits) in matches.enumerated() {
            for index in 0..<count where bits & (1 << index) != 0 {
                if held[index] == 0 { present += 1 }
                held[index] += 1
            }
            while present == count {
                window = min(window, end - start + 1)
                for index in 0..<count where matches[start] & (1 << index) != 0 {
                    held[index] -= 1
                    if held[index] == 0 { present -= 1 }
                }
                start += 1
            }
        }
        let proximity = window == .max ? 0 : Double(count) / Double(window)
        // The words as typed, next to each other.
        let phrase = Self.phrase(of: matches, count: count) ? 1.0 : 0
        return phrase + proximity + (best > 0 ? frequency / best : 0)
    }
}
