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
            let candidates = SpellingNeighbors.candidates(of: token)
            guard !candidates.isEmpty else { continue }
            var statement = SQLStatement()
            let prefix = statement.bind(TextWords.lexeme(token) + ":*")
            let list = statement.bind(.textArray(candidates))
            statement.sql = """
                SELECT candidate, (SELECT count(*) FROM (SELECT 1 FROM item
                        WHERE item.words @@ quote_literal(candidate)::tsquery
                           OR item.text_words @@ quote_literal(candidate)::tsquery LIMIT 100) AS holders)::int8
                FROM unnest(\(list)::text[]) AS candidate
                WHERE NOT EXISTS (SELECT 1 FROM item WHERE item.words @@ \(prefix)::tsquery
                                                     OR item.text_words @@ \(prefix)::tsquery)
                """
            let query = statement.query
            let found = try await withConnection("cannot read the index") { connection in
                var found: [(word: String, holders: Int)] = []
                for try await (word, holders) in try await connection.query(query, logger: self.logger)
                    .decode((String, Int64).self) where holders > 0 {
                    found.append((word, Int(holders)))
                }
                return found
            }
            if let best = SpellingNeighbors.best(of: found, for: token) {
                corrected[index] = best
                changed = true
            }
        }
        return changed ? corrected : nil
    }
}
