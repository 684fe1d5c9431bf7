import Foundation
import PostgresNIO
import Searchlight

extension PostgresIndex {
    /// The search words spelled as the index spells them (as the SQLite index's
    /// ``Searchlight/SearchableIndex/spellingCorrection(words:)``): each word that no indexed
    /// word starts with replaced by the nearest indexed word (``Searchlight/SpellingNeighbors``).
    ///
    /// The candidates are looked up in the word vectors' GIN indexes (`words`, `text_words`),
    /// each candidate counting its holders up to 100: a few hundred index look-ups in one
    /// statement, whatever the size of the index.
    public func spellingCorrection(words: [String]) async throws -> [String]? {
        let tokens = words.flatMap(NameTokenizer.words(in:))
        var corrected = tokens
        var changed = false
        for (index, token) in tokens.enumerated() {
            guard token.unicodeScalars.count >= SpellingNeighbors.minimumLength,
                  try await !isIndexedPrefix(token) else { continue }
            var known = 0
            // The longest start of the word that starts an indexed word (a binary search).
            var low = 1, high = token.unicodeScalars.count
            while low <= high {
                let middle = (low + high) / 2
                if try await isIndexedPrefix(String(String.UnicodeScalarView(token.unicodeScalars.prefix(middle)))) {
                    known = middle
                    low = middle + 1
                } else {
                    high = middle - 1
                }
            }
            // One edit first; two only when no word one edit away is indexed.
            for edits in 1...SpellingNeighbors.allowedEdits(token) {
                let candidates = SpellingNeighbors.candidates(of: token, knownPrefix: known, edits: edits)
                if let best = SpellingNeighbors.best(of: try await holders(of: candidates), for: token) {
                    corrected[index] = best
                    changed = true
                    break
                }
            }
        }
        return changed ? corrected : nil
    }

    /// The candidates that are indexed words, with how many items hold each (counted up to 100).
    private func holders(of candidates: [String]) async throws -> [(word: String, holders: Int)] {
        guard !candidates.isEmpty else { return [] }
        var statement = SQLStatement()
        let list = statement.bind(.textArray(candidates))
        statement.sql = """
            SELECT candidate, (SELECT count(*) FROM (SELECT 1 FROM item
                    WHERE item.words @@ quote_literal(candidate)::tsquery
                       OR item.text_words @@ quote_literal(candidate)::tsquery LIMIT 100) AS holders)::int8
            FROM unnest(\(list)::text[]) AS candidate
            """
        let query = statement.query
        return try await withConnection("cannot read the index") { connection in
            var found: [(word: String, holders: Int)] = []
            for try await (word, holders) in try await connection.query(query, logger: self.logger)
                .decode((String, Int64).self) where holders > 0 {
                found.append((word, Int(holders)))
            }
            return found
        }
    }

    /// Whether some indexed word (of a name, keyword, folder or text) starts with `prefix`.
    private func isIndexedPrefix(_ prefix: String) async throws -> Bool {
        var statement = SQLStatement()
        let lexeme = statement.bind(TextWords.lexeme(prefix) + ":*")
        statement.sql = "SELECT count(*)::int8 FROM (SELECT 1 FROM item WHERE item.words @@ \(lexeme)::tsquery "
            + "OR item.text_words @@ \(lexeme)::tsquery LIMIT 1) AS found"
        return try await count(statement) > 0
    }
}
