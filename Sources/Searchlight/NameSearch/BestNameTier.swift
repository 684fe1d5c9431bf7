import Foundation
import GRDB
import GRDBSQLite

/// The best rank a candidate of a name query can have, and which items have it.
///
/// A query word that no item has as a whole word, in any field, can only ever match as a
/// prefix; any other word may match whole. So no candidate ranks better than one with every
/// word in its name, whole when the word can be: the items of ``expression``.
struct BestNameTier {
    /// Words the best items have whole in their name.
    let wholeTokens: [String]
    /// Words no item has whole: the best items have a name word starting with each.
    let prefixTokens: [String]
    private let wholeBytes: [[UInt8]]
    private let prefixBytes: [[UInt8]]
    /// The query words that are ASCII: a name word they match, folded, holds them as they are.
    private let asciiTokens: [[UInt8]]

    init(_ tokens: [String], in db: any ReadConnection) throws {
        var whole: [String] = []
        var prefix: [String] = []
        for token in tokens {
            // Kept per connection: a search asks this for each of its words.
            let somewhereWhole = try db.readStatement("SELECT rowid FROM item_words WHERE item_words MATCH ? LIMIT 1")
                .firstRow(.text(SearchableIndex.quoted(token))) { _ in } != nil
            if somewhereWhole { whole.append(token) } else { prefix.append(token) }
        }
        wholeTokens = whole
        prefixTokens = prefix
        wholeBytes = whole.map { Array($0.utf8) }
        prefixBytes = prefix.map { Array($0.utf8) }
        asciiTokens = (wholeBytes + prefixBytes).filter { $0.allSatisfy { $0 < 0x80 } }
    }

    /// The items that start a word of their name with every one of `tokens`: those of every
    /// rank where each word matches in the name (``SearchableIndex/pageAfterBestTier``).
    init(prefixes tokens: [String]) {
        wholeTokens = []
        prefixTokens = tokens
        wholeBytes = []
        prefixBytes = tokens.map { Array($0.utf8) }
        asciiTokens = prefixBytes.filter { $0.allSatisfy { $0 < 0x80 } }
    }

    /// An FTS5 query for the items of this rank.
    var expression: String {
        let words = wholeTokens.map(SearchableIndex.quoted) + prefixTokens.map { SearchableIndex.quoted($0) + "*" }
        return "name : (" + words.joinedInPlace(separator: " AND ") + ")"
    }

    /// Whether an item with this name, as UTF-8 bytes, has this rank: an ASCII name (most of
    /// them) is checked on its bytes, without making strings; the others are split into words
    /// only when their folded text holds every ASCII query word.
    func admits(nameBytes bytes: UnsafeBufferPointer<UInt8>, folds: inout NameFolds) -> Bool {
        // One bit per query word found, whole words first: no allocation per name.
        let tokens = wholeBytes.count + prefixBytes.count
        var found: UInt64 = 0
        let checkedOnBytes = tokens <= 64 && NameTokenizer.forEachASCIIWord(in: bytes) { range in
            let word = UnsafeBufferPointer(rebasing: bytes[range])
            for (index, token) in wholeBytes.enumerated() where token.count == word.count {
                if NameTokenizer.bytes(word, at: 0, startWith: token) { found |= 1 << index }
            }
            for (index, token) in prefixBytes.enumerated() where token.count <= word.count {
                if NameTokenizer.bytes(word, at: 0, startWith: token) { found |= 1 << (wholeBytes.count + index) }
            }
        }
        guard checkedOnBytes else {
            let folded = folds.foldedScalars(of: bytes)
            guard asciiTokens.allSatisfy({ folded.contains($0) }) else { return false }
            return admits(words: NameTokenizer.words(in: String(decoding: bytes, as: UTF8.self)) { folds.fold($0) })
        }
        return found.nonzeroBitCount == tokens
    }

    private func admits(words: [String]) -> Bool {
        wholeTokens.allSatisfy(words.contains) && prefixTokens.allSatisfy { token in
            words.contains { $0.hasPrefix(token) }
        }
    }
}
