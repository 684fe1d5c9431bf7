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
/// A query word matches a word of the text that starts with it. Only the first
/// ``scoredCharacters`` of a text are read. Equal scores keep their order (newest first).
struct TextRelevance {
    let tokens: [String]
    private var idf: [Double]

    /// Characters of a text read for its score: a phrase is most often near the start, and a
    /// text's words past this say little more.
    static let scoredCharacters = 200_000
    /// At most this many items are scored in one search: more text-only matches are ordered by date.
    static let maximumScored = 500

    /// Scores without word frequencies: enough for ``holdsPhrase(_:)``.
    init(tokens: [String]) {
        // Han, kana, Thai… are words of one letter in the index: their letters are the words.
        self.tokens = tokens.flatMap(ContentWords.tokens(of:))
        idf = self.tokens.map { _ in 1 }
    }

    init(tokens: [String], in db: Database) throws {
        self.init(tokens: tokens)
        let total = Double(try Int.fetchOne(db, sql: "SELECT count(*) FROM item_text") ?? 0)
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

    /// Whether `text` holds the query words next to each other, in the order typed (the last
    /// as a prefix of a word, as every query word is).
    func holdsPhrase(_ text: String) -> Bool {
        var folder = RunFolder()
        let words = folder.tokens(of: ContentWords.indexed(String(text.prefix(Self.scoredCharacters))))
        return Self.phrase(of: matches(words), count: min(tokens.count, 64))
    }

    /// Which query words each text word matches (it starts with them), as a bit set.
    private func matches(_ words: [String]) -> [UInt64] {
        words.map { word in
            var bits: UInt64 = 0
            for (index, token) in tokens.enumerated().prefix(64) where word.hasPrefix(token) { bits |= 1 << index }
            return bits
        }
    }

    /// Whether the words match the `count` query words one after the other somewhere.
    private static func phrase(of matches: [UInt64], count: Int) -> Bool {
        guard count > 1, matches.count >= count else { return false }
        for start in 0...(matches.count - count) where (0..<count).allSatisfy({ matches[start + $0] & (1 << $0) != 0 }) {
            return true
        }
        return false
    }

    /// The scores of `texts` (by item id).
    func scores(_ texts: [Int64: String]) -> [Int64: Double] {
        var words: [Int64: [String]] = [:]
        var folder = RunFolder()
        for (id, text) in texts {
            words[id] = folder.tokens(of: ContentWords.indexed(String(text.prefix(Self.scoredCharacters))))
        }
        let averageLength = max(1, Double(words.values.reduce(0) { $0 + $1.count }) / Double(max(words.count, 1)))
        return words.mapValues { score($0, averageLength: averageLength) }
    }

    private func score(_ words: [String], averageLength: Double) -> Double {
        guard !tokens.isEmpty, !words.isEmpty else { return 0 }
        let matches = self.matches(words)
        let count = min(tokens.count, 64)
        // Frequency (BM25).
        let k1 = 1.2, b = 0.75
        let norm = k1 * (1 - b + b * Double(words.count) / averageLength)
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
