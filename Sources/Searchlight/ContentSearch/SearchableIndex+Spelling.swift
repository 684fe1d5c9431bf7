import Foundation
import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// The spellings the index holds for each of `words` (folded words, as ``Respellings``
    /// splits them), best first: the word itself when some indexed word (in any field) starts
    /// with it, then the indexed words a typo away from it (``SpellingNeighbors``) — looked for
    /// only when no indexed word starts with it, or `correctingIndexed`. A word never corrected
    /// (short, or of an unspaced script) is kept as it is.
    ///
    /// The candidates are looked up in the vocabularies of the full-text tables
    /// (`item_words_vocab`, and `item_content_vocab` where text is searched): the cost is that
    /// of a few walks and a few hundred look-ups a word, whatever the size of the index.
    ///
    /// ```swift
    /// let spellings = try index.spellings(of: ["recipt"], correctingIndexed: false)
    /// spellings[0].map(\.word)   // ["receipt", …] when "receipt" is indexed and "recipt" starts no word
    /// ```
    ///
    /// - Parameters:
    ///   - words: Folded words, as a search's tokens.
    ///   - correctingIndexed: Also look for neighbours of a word that some indexed word
    ///     starts with (a second attempt of a search that found nothing).
    /// - Returns: For each word, its spellings, best first: the word alone when it is never
    ///   corrected; none when it starts no indexed word and no indexed word is near it.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func spellings(of words: [String], correctingIndexed: Bool) throws -> [[Respellings.Spelling]] {
        try readStatements { db in
            // The text's words only where searches read them (``hasContent(in:)``): a word of
            // no searched field would be a correction that finds nothing.
            let vocabularies = try Self.hasContent(in: db) ? ["item_words_vocab", "item_content_vocab"] : ["item_words_vocab"]
            return try words.map { word in
                let typed = Respellings.Spelling(word: word, edits: 0)
                guard SpellingNeighbors.isCorrectable(word) else { return [typed] }
                let known = try SpellingNeighbors.knownPrefix(of: word) { try Self.firstWord(from: $0, in: vocabularies, db) }
                // Some indexed word starts with the word: it is a spelling of its own.
                let isIndexed = known == word.unicodeScalars.count
                guard !isIndexed || correctingIndexed else { return [typed] }
                // One edit first; two only when no word one edit away is indexed.
                var corrections: [Respellings.Spelling] = []
                for edits in 1...SpellingNeighbors.allowedEdits(word) where corrections.isEmpty {
                    let candidates = SpellingNeighbors.spellings(of: word, knownPrefix: known, edits: edits)
                    corrections = SpellingNeighbors.ranked(try Self.holders(of: candidates, near: word, in: vocabularies, db), for: word)
                }
                return (isIndexed ? [typed] : []) + corrections
            }
        }
    }

    /// The candidates that are indexed words in `vocabularies`, with how many items hold each.
    ///
    /// Each statement on an `fts5vocab` table compiles one of its own, and each look-up of one
    /// term opens FTS5's iterators over every segment: in the words of names, titles, keywords
    /// and folders, the candidates that keep the first letter of `word` (most of them: edits
    /// after it) are found by one walk of the vocabulary from the first of them to the last,
    /// cut short after ``rangeWalkLimit`` terms (a large vocabulary); the others (an edit of the
    /// first letter: a few of each letter, scattered over the vocabulary) and those beyond a
    /// walk cut short, by one statement of look-ups. The text's words are only looked up: a
    /// walk reads the list of items of every term it passes (fts5vocab counts them as it
    /// steps), and a text word's list is long — a walk over the text words of one first letter
    /// read 10 ms of a 10 000-text index where the look-ups of 441 candidates read 1.4 ms
    /// (Benchmarks/README.md, "Corrections that help").
    ///
    /// - Parameters:
    ///   - candidates: The spellings to look up, a typo away from `word`.
    ///   - word: The folded word typed.
    ///   - vocabularies: The `fts5vocab` tables to look in.
    ///   - db: Either kind of read connection.
    /// - Returns: The candidates found in some vocabulary, with the sum over the vocabularies of
    ///   the items that hold each, in the candidates' order.
    /// - Throws: The connection's errors.
    private static func holders(of candidates: SpellingList, near word: String, in vocabularies: [String],
                                _ db: any ReadConnection) throws -> [(word: String, holders: Int)] {
        guard !candidates.isEmpty else { return [] }
        // A candidate keeps the first letter when it starts with its bytes (UTF-8 is prefix-free).
        let firstLetter = word.unicodeScalars.first.map { Array(String($0).utf8) } ?? []
        var near: [Int] = [], far: [Int] = []
        for index in 0..<candidates.count {
            if candidates.bytes(index).starts(with: firstLetter) { near.append(index) } else { far.append(index) }
        }
        // The first and last in the vocabularies' order (their bytes'), without sorting them all.
        let lowest = near.min { candidates.bytes($0).lexicographicallyPrecedes(candidates.bytes($1)) }
        let highest = near.max { candidates.bytes($0).lexicographicallyPrecedes(candidates.bytes($1)) }
        var holders = [Int](repeating: 0, count: candidates.count)
        func count(_ row: SQLiteStatement) {
            if let index = candidates.index(of: text(row, 0)) { holders[index] += Int(sqlite3_column_int64(row, 1)) }
        }
        for table in vocabularies {
            let walks = table != "item_content_vocab"
            var single = walks ? far : Array(0..<candidates.count)
            if walks, let lowest, let highest {
                var walked = 0
                var last: [UInt8] = []
                try db.readStatement("SELECT term, doc FROM \(table) WHERE term >= ? AND term <= ? LIMIT ?")
                    .forEachRow(.text(candidates.string(lowest)), .text(candidates.string(highest)),
                                .integer(Int64(rangeWalkLimit))) { row in
                        walked += 1
                        if walked == rangeWalkLimit { last = Array(text(row, 0)) }
                        count(row)
                        return true
                    }
                // Cut short: what lies beyond the last term walked is looked up term by term.
                if walked == rangeWalkLimit {
                    single += near.filter { last.lexicographicallyPrecedes(candidates.bytes($0)) }
                }
            }
            guard !single.isEmpty else { continue }
            try db.readStatement("SELECT term, doc FROM \(table) WHERE term IN (SELECT value FROM json_each(?))")
                .forEachRow(.text(jsonArray(of: single.map(candidates.bytes)))) { row in
                    count(row)
                    return true
                }
        }
        return holders.indices.filter { holders[$0] > 0 }.map { (candidates.string($0), holders[$0]) }
    }

    /// Strings in UTF-8 as a JSON array, for `json_each`: escaped where JSON needs it, made a
    /// string once (by hand: `JSONEncoder`'s first use costs a search with no hit a tenth of a
    /// millisecond of type metadata).
    ///
    /// - Parameter strings: Valid UTF-8, each one string of the array.
    /// - Returns: The array as JSON text: `"` and `\` escaped, control characters as `\u00XX`.
    static func jsonArray(of strings: [ArraySlice<UInt8>]) -> String {
        var json: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(UInt8(ascii: "\""))
            for byte in string {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): json += [UInt8(ascii: "\\"), byte]
                case ..<0x20: json += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
                default: json.append(byte)
                }
            }
            json.append(UInt8(ascii: "\""))
        }
        json.append(UInt8(ascii: "]"))
        return String(decoding: json, as: UTF8.self)
    }

    /// The lowercase hexadecimal digits, for the escapes of ``jsonArray(of:)``.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// How many terms one walk of a vocabulary reads at most (``holders(of:near:in:_:)``).
    static let rangeWalkLimit = 4_096

    /// The first word of `vocabularies` at or after `start` in the order of their UTF-8 bytes
    /// (the vocabularies' order): a seek in each, where a prefix query on the text would merge
    /// the lists of every word that starts so.
    ///
    /// One statement per vocabulary, each reading one row (`LIMIT 1`).
    ///
    /// - Parameters:
    ///   - start: The word typed, or a start of it (``SpellingNeighbors/knownPrefix(of:firstFrom:)``
    ///     asks one letter more at a time).
    ///   - vocabularies: The `fts5vocab` tables to look in.
    ///   - db: Either kind of read connection.
    /// - Returns: The lowest of the vocabularies' first terms at or after `start`; `nil` when no
    ///   vocabulary has one.
    /// - Throws: The connection's errors.
    private static func firstWord(from start: String, in vocabularies: [String], _ db: any ReadConnection) throws -> String? {
        var first: String?
        // No ORDER BY: fts5vocab seeks to a term bound and reads in order, but sorting would read every term.
        for table in vocabularies {
            let statement = try db.readStatement("SELECT term FROM \(table) WHERE term >= ? LIMIT 1")
            if let term = try statement.firstRow(.text(start), read: { string($0, 0) }),
               first.map({ term.utf8.lexicographicallyPrecedes($0.utf8) }) ?? true {
                first = term
            }
        }
        return first
    }
}
