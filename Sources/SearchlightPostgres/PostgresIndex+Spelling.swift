import Foundation
import PostgresNIO
import Searchlight

extension PostgresIndex {
    /// The spellings the index holds for each of `words` (as the SQLite index's
    /// ``Searchlight/SearchableIndex/spellings(of:correctingIndexed:)``): the word itself when
    /// some indexed word starts with it, then the indexed words a typo away from it
    /// (``Searchlight/SpellingNeighbors``), looked for only when no indexed word starts with it
    /// or `correctingIndexed`; a word never corrected kept as it is.
    ///
    /// The candidates are looked up in the word vectors' GIN indexes (`words`, `text_words`),
    /// each candidate counting its holders up to 100: a few hundred index look-ups in one
    /// statement a word, whatever the size of the index; every statement of the pass in one
    /// transaction.
    ///
    /// - Parameters:
    ///   - words: Folded words, as a search's tokens.
    ///   - correctingIndexed: Also look for neighbours of a word that some indexed word
    ///     starts with (the second pass of a search that found nothing).
    /// - Returns: For each word, its spellings, best first, the word itself first when it is
    ///   indexed.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func spellings(of words: [String], correctingIndexed: Bool) async throws -> [[Respellings.Spelling]] {
        // Every look-up of every word in one transaction: a search that found nothing makes
        // a dozen or more, each otherwise a transaction of its own (four round trips).
        try await readingIndexes("cannot read the index") { connection in
            var spellings: [[Respellings.Spelling]] = []
            for word in words {
                spellings.append(try await self.spellings(of: word, correctingIndexed: correctingIndexed, on: connection))
            }
            return spellings
        }
    }

    /// The spellings of one word (``spellings(of:correctingIndexed:)``), looked up on `connection`.
    ///
    /// Costs one prefix look-up (``isIndexedPrefix(_:on:)``), then, for a word no indexed word
    /// starts with, a binary search of its longest indexed start (a look-up a step), then one
    /// statement of candidates per number of edits tried (``holders(of:on:)``).
    ///
    /// - Returns: The word alone when it is never corrected, or indexed and not `correctingIndexed`;
    ///   else the word (when indexed) followed by its corrections, best first.
    private func spellings(of word: String, correctingIndexed: Bool,
                           on connection: PostgresConnection) async throws -> [Respellings.Spelling] {
        let typed = Respellings.Spelling(word: word, edits: 0)
        guard SpellingNeighbors.isCorrectable(word) else { return [typed] }
        let isIndexed = try await isIndexedPrefix(word, on: connection)
        guard !isIndexed || correctingIndexed else { return [typed] }
        var known = isIndexed ? word.unicodeScalars.count : 0
        // The longest start of the word that starts an indexed word (a binary search).
        var low = 1, high = isIndexed ? 0 : word.unicodeScalars.count
        while low <= high {
            let middle = (low + high) / 2
            if try await isIndexedPrefix(String(String.UnicodeScalarView(word.unicodeScalars.prefix(middle))), on: connection) {
                known = middle
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        // One edit first; two only when no word one edit away is indexed.
        var corrections: [Respellings.Spelling] = []
        for edits in 1...SpellingNeighbors.allowedEdits(word) where corrections.isEmpty {
            let candidates = SpellingNeighbors.candidates(of: word, knownPrefix: known, edits: edits)
            corrections = SpellingNeighbors.ranked(try await holders(of: candidates, on: connection), for: word)
        }
        return (isIndexed ? [typed] : []) + corrections
    }

    /// The candidates that are indexed words, with how many items hold each (counted up to 100).
    ///
    /// One statement for all the candidates, each counted in the rich fields' vector and the
    /// text's. Empty, without a statement, for no candidates.
    ///
    /// - Returns: The candidates that some item holds, with their count, in PostgreSQL's order.
    private func holders(of candidates: [String], on connection: PostgresConnection) async throws -> [(word: String, holders: Int)] {
        guard !candidates.isEmpty else { return [] }
        var statement = SQLStatement()
        let list = statement.bind(.textArray(candidates))
        statement.sql = """
            SELECT candidate, (SELECT count(*) FROM (SELECT 1 FROM item
                    WHERE item.words @@ quote_literal(candidate)::tsquery
                       OR item.text_words @@ quote_literal(candidate)::tsquery LIMIT 100) AS holders)::int8
            FROM unnest(\(list)::text[]) AS candidate
            """
        // Each candidate through the GIN indexes (sequential scans are off in the transaction
        // of ``spellings(of:correctingIndexed:)``): testing every row's text vector instead
        // (the planner's choice) took 14 s for the neighbours of `d70` at 2 500 documents.
        var found: [(word: String, holders: Int)] = []
        for try await (word, holders) in try await connection.query(statement.query, logger: logger)
            .decode((String, Int64).self) where holders > 0 {
            found.append((word, Int(holders)))
        }
        return found
    }

    /// Whether some indexed word (of a name, keyword, folder or text) starts with `prefix`.
    ///
    /// One statement, stopped at the first row found, meant for the GIN indexes of `words` and
    /// of `text_words` (or, for a prefix ``PostgreSQLTextInitials`` answers, `text_initials`).
    private func isIndexedPrefix(_ prefix: String, on connection: PostgresConnection) async throws -> Bool {
        var statement = SQLStatement()
        let lexeme = statement.bind(TextWords.lexeme(prefix) + ":*")
        // A one-letter prefix: one list of the texts' first letters (``PostgreSQLTextInitials``).
        let text = PostgreSQLTextInitials.answers(prefix)
            ? "item.text_initials @@ \(statement.bind(TextWords.lexeme(prefix)))::tsquery" : "item.text_words @@ \(lexeme)::tsquery"
        statement.sql = "SELECT count(*)::int8 FROM (SELECT 1 FROM item WHERE item.words @@ \(lexeme)::tsquery "
            + "OR \(text) LIMIT 1) AS found"
        return (try await Self.single(try await connection.query(statement.query, logger: logger), Int.self) ?? 0) > 0
    }

    /// The respellings (each a search's words) that some item may match, in their order: those
    /// where one item holds every word, as a prefix, in its fields' words or its text's. Every
    /// respelling a search finds something for is among them (its words are tested as the
    /// search tests them, ``RankedNameSearch``, without the domain, the ranking or the name
    /// fields' positions); a compound, a Han or kana word and a word of one letter are not
    /// tested here.
    ///
    /// One statement for all of them, through the word vectors' GIN indexes, each stopped at
    /// its first item. Two words typed with a typo, on PostgreSQL, tried up to twelve respelled
    /// searches of two to four statements each before: 60 % of a keystroke's 100 ms.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of
    ///   ``retryPolicy``.
    public func plausibleRespellings(_ respellings: [[String]]) async throws -> [[String]] {
        guard respellings.count > 1 else { return respellings }
        var statement = SQLStatement()
        var tests: [String] = []
        for (index, words) in respellings.enumerated() {
            let conditions = words.compactMap { word -> String? in
                guard word.unicodeScalars.count > 1, !CompoundWords.isCompound(word), !TextWords.hasSplitCJK(word) else { return nil }
                let query = statement.bind(Self.nameVectorQuery(word))
                return "(item.words @@ \(query)::tsquery OR item.text_words @@ \(query)::tsquery)"
            }
            tests.append("SELECT \(index)::int8 WHERE EXISTS (SELECT 1 FROM item WHERE "
                         + (conditions.isEmpty ? "true" : conditions.joined(separator: " AND ")) + ")")
        }
        statement.sql = tests.joined(separator: " UNION ALL ")
        statement.readsIndexes = true
        let tested = statement
        let found = try await reading(tested, "cannot read the index") { connection in
            var found = Set<Int>()
            for try await index in try await connection.query(tested.query, logger: self.logger).decode(Int64.self) {
                found.insert(Int(index))
            }
            return found
        }
        return respellings.indices.filter(found.contains).map { respellings[$0] }
    }
}

