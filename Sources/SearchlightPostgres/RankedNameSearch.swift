import Foundation
import Searchlight

/// The statement of a search by words on the PostgreSQL index, ranked as
/// ``PostgresIndex/search(words:domain:limit:)`` says, built word by word.
///
/// **Texts are tested through their index, never row by row.** Whether a row's text holds a
/// word (`text_words @@ …`, and Han and kana words checked on the text as written) is read
/// once per search as the set of rows the text's GIN index gives — a `MATERIALIZED` common
/// table expression of row addresses (`ctid`) — and each row is then tested by membership.
/// Testing the row itself reads its whole text vector out of TOAST, once per test: a
/// one-letter search ranked every matching row that way at about 50 µs a row (0.3 s at 5 800
/// items, issue 47), where a set costs a bitmap of the index and a hash look-up a row. The
/// matching rows themselves are the intersection, over the words, of each word's rows (its
/// rich fields through `words`, GIN; its text through its set), read by address (a TID scan).
/// The statement is planned with sequential scans off (``SQLStatement/readsIndexes``): the
/// planner cannot tell that testing a text costs far more than looking it up.
///
/// **Ranking**, as the SQLite index ranks (Docs/Contract.md#search): for each word, the best of
/// name, title, authors and keywords, folders, text, whole before prefix; a phrase of the words
/// in the text ranks as a title; then relevance (`ts_rank_cd`, which must read the vector) in
/// the text tier alone — every word whole, in the text only — when it holds at most
/// ``TextRelevance/maximumScored`` items; then newest first, identifier, domain.
struct RankedNameSearch {
    /// The query tokens (``CompoundWords``).
    let tokens: [String]
    /// Whether the words of texts and authors count (``Searchlight/SearchScope/all``).
    let includeText: Bool
    /// The parameters bound so far, shared by every part of the statement.
    private(set) var statement = SQLStatement()
    /// Sets of rows, by name, as common table expressions: `name AS MATERIALIZED (…)`.
    private var sets: [(name: String, definition: String)] = []

    /// One word's tests.
    private struct Word {
        /// Its match in the rich fields (the `words` vector, GIN; checked on the fields when the
        /// vector can say too much).
        var rich: String
        /// The placeholder of the word as a whole word, between spaces (` word `).
        var whole: String
        /// The placeholder of the word as the start of one, after a space (` word`).
        var prefix: String
        /// Whether a row's text holds it as typed (whole or a prefix), when texts count: a
        /// condition on the row, also the definition of its set (``set(_:)``).
        var text: String?
        /// Whether a row's text holds it whole.
        var wholeText: String?
        /// For a word that is no compound, the placeholders of its queries of the field words
        /// (``PostgreSQLFieldWords``) for each field's rank (name, title, authors and keywords,
        /// folders), whole and as a prefix: tested on the row's stored vector, where a field as
        /// text (``fields``) is made anew for each row (a third of the ranking of 5 000 rows).
        var fieldWords: (whole: [String], prefix: [String])?
        /// For a word that is no compound, the placeholder of its query of the field words whole
        /// in any field that ranks (``PostgreSQLFieldWords``): the rows where it is whole in a
        /// field, read from the field words' GIN index (the whole tier of ``statement(select:domain:limit:)``).
        var wholeInFields: String?
    }

    /// Each token's tests, in the order typed.
    private var words: [Word] = []

    /// Each field as words between spaces, so that ` word ` is a whole word and ` word` a prefix,
    /// in rank order: name, title, authors and keywords, folders. Names alone (`search
    /// --names`) leave out authors as they leave out text.
    private var fields: [String] {
        [
            "(' ' || item.name_words || ' ')", "(' ' || item.title_words || ' ')",
            includeText ? "(' ' || array_to_string(item.author_words || item.keyword_words, ' ') || ' ')"
                : "(' ' || array_to_string(item.keyword_words, ' ') || ' ')",
            "(' ' || item.folder_words || ' ')",
        ]
    }

    /// The fields as the ranking reads them: each made once a row (`field.f0`…).
    private var fieldColumns: [String] { fields.indices.map { "field.f\($0)" } }

    /// How a statement tests a row's text.
    enum TextTests {
        /// By membership of the row in a set of the whole index (`ctid IN (SELECT t FROM text_0)`),
        /// each set read once from the text's GIN index: for a statement over every match.
        case sets
        /// On the row itself (its vector, out of TOAST when long): for a statement over a few
        /// rows, a walk of the newest or a list of candidates (``TieredNamePage``).
        case rows
    }

    /// The test of whether a row's text meets `definition` (a word's ``Word/text`` or ``Word/wholeText``).
    private func test(_ definition: String, _ tests: TextTests) -> String {
        switch tests {
        case .sets: "item.ctid IN (SELECT t FROM \(setName(definition)))"
        case .rows: "(\(definition))"
        }
    }

    /// The rank of the first of `fields` that holds `needle`, then of the text (`text`, a test
    /// of the row); `NULL` when none does.
    private func rank(of needle: String, in fields: [String], text: String?) -> String {
        rank(of: fields.map { "strpos(\($0), \(needle)) > 0" }, text: text)
    }

    /// The rank of the first of `tests` (one a field, in rank order) that holds, then of the
    /// text (`text`, a test of the row); `NULL` when none does.
    private func rank(of tests: [String], text: String?) -> String {
        let tests = tests + (text.map { [$0] } ?? [])
        return "CASE " + tests.indices.map { "WHEN \(tests[$0]) THEN \($0)" }.joined(separator: " ") + " END"
    }

    /// The search of `words` (split into tokens, compounds whole), text included or not; each
    /// token's tests and sets are made here, bound once.
    init(_ words: [String], includeText: Bool) {
        tokens = CompoundWords.tokens(of: words)
        self.includeText = includeText
        for token in tokens { self.words.append(word(token)) }
    }

    /// The statement selecting `select` (`nil`: counting), in rank order, at most `limit` rows.
    ///
    /// The statement is built, not run: its parameters are those ``statement`` holds, then those
    /// bound here (the time for the expiration test, the domain, the phrase and relevance
    /// queries, the limit).
    ///
    /// - Parameters:
    ///   - select: The columns to select, or `nil` for `count(*)` (then unordered).
    ///   - domain: Only this domain's items, when given.
    ///   - limit: At most this many rows, when given (a negative limit is 0).
    ///   - intersecting: Whether a count of several words reads each word's rows and
    ///     intersects them (texts kept out of their rows, in TOAST), rather than one pass.
    /// - Returns: The statement, to be planned through the indexes (``SQLStatement/readsIndexes``);
    ///   when no word has a letter or digit, one that selects nothing.
    func statement(select: String?, domain: String?, limit: Int?, intersecting: Bool = false) -> SQLStatement {
        var statement = self.statement
        guard !words.isEmpty else {
            // Words with no letter or digit find nothing.
            statement.sql = "SELECT \(select ?? "count(*)::int8") FROM item \(PostgresIndex.itemJoins) WHERE false"
            return statement
        }
        guard let select else {
            // Counted in one pass over the indexes' bitmaps, each row's texts tested by its
            // index alone: making each word's sets of rows took 1.7 s for `alpha` in 500 000 texts.
            // Several words over texts in TOAST: the planner tests the later words on each row
            // of the first, reading its text (176 ms to count `debian fi` on a copy of
            // /usr/share/doc); each word's rows read from its indexes and intersected: 15 ms.
            let matches = intersecting && words.count > 1 ? ["item.ctid IN (\(Self.rows(meetingEach: matchesEveryWord)))"] : matchesEveryWord
            statement.sql = "SELECT count(*)::int8 FROM item JOIN domain ON domain.id = item.domain_id WHERE "
                + (matches + Self.admission(&statement, domain: domain)).joined(separator: " AND ")
            statement.readsIndexes = true
            return statement
        }
        var definitions = sets.map { "\($0.name) AS MATERIALIZED (SELECT item.ctid AS t FROM item WHERE \($0.definition))" }
        // The matches: each word's rows read in one pass over its indexes' bitmaps (its fields
        // OR its text), the words' rows intersected. A word's rows as two lists (fields, then
        // text), each read in full, took 22 of the 45 ms of `predicates c` on a copy of
        // /usr/share/doc (11 136 rows of `c…`, now 6 110); one bitmap scan of every word (AND)
        // took 41 ms of `debian fi`: the planner tests the second word on each row of the
        // first, reading its text vector out of TOAST, where the intersection takes 11.
        definitions.append("candidate AS MATERIALIZED (\(Self.rows(meetingEach: matchesEveryWord)))")
        let admission = Self.admission(&statement, domain: domain)
        let conditions = ["item.ctid = ANY(ARRAY(SELECT t FROM candidate))"] + admission
        // The tiers (``ranked(_:select:where:tests:phrase:scored:limit:tiers:)``): the rows where
        // every word is whole somewhere; for one word with texts, then also those where it starts
        // a word of a field, which rank before every row where it starts a word of the text alone.
        // Each set is read only when the tier before it leaves the page short. The second tier
        // is planned with the statement (a page's ranking more: 1.5 ms a keystroke on a new
        // connection); for two words it rarely fills a page (`debian fin`: `fin` whole or in a
        // field of few of the texts holding `debian`) and cost 3 to 7 ms at p50 and p95 on a
        // copy of /usr/share/doc, where it saves 10 for `cre` (a page of 50).
        var tiers: [[String]] = []
        if let limit, limit > 0, let everyWordWhole = wholeMatches() {
            definitions.append("whole_candidate AS MATERIALIZED (\(Self.rows(meetingEach: everyWordWhole)))")
            tiers.append(["item.ctid = ANY(ARRAY(SELECT t FROM whole_candidate))"] + admission + ["\(rankedPrefixOnly) = 0"])
            if includeText, words.count == 1, let wholeOrInFields = wholeMatches(orInFields: true) {
                definitions.append("field_candidate AS MATERIALIZED (\(Self.rows(meetingEach: wholeOrInFields)))")
                tiers.append(["item.ctid = ANY(ARRAY(SELECT t FROM field_candidate))"] + admission)
            }
        }
        // A phrase of the words in the text ranks as every word in the title (SQLite's
        // ContentSearch.phraseRank): every word whole, each of rank 1. As there, looked for among
        // the texts with every word whole, when they are few enough to score: a phrase test
        // reads the row's vector (46 ms for `gnu general` at 3 600 items, most of the search).
        let wholeTexts = words.compactMap(\.wholeText)
        let tierIsScored = "(SELECT count(*) FROM (SELECT 1 FROM text_tier LIMIT \(TextRelevance.maximumScored + 1)) AS scored) <= \(TextRelevance.maximumScored)"
        if scoresText {
            definitions.append("text_tier AS MATERIALIZED (\(wholeTexts.map { "SELECT t FROM \(setName($0))" }.joined(separator: " INTERSECT ")))")
        }
        var phrase = "false"
        if let query = phraseQuery(&statement) {
            phrase = "item.ctid IN (SELECT t FROM phrase)"
            definitions.append("""
                phrase AS MATERIALIZED (SELECT item.ctid AS t FROM item WHERE \(tierIsScored)
                    AND item.ctid = ANY(ARRAY(SELECT t FROM text_tier)) AND \(PostgreSQLTextStart.vector) @@ \(query)::tsquery)
                """)
        }
        statement.sql = "WITH \(definitions.joined(separator: ",\n"))\n"
            + ranked(&statement, select: select, where: conditions, tests: .sets, phrase: phrase, scored: tierIsScored, limit: limit,
                     tiers: tiers)
        statement.readsIndexes = true
        return statement
    }

    /// The addresses (`t`) of the rows meeting every one of `conditions` (one a word), each
    /// condition's rows read from its indexes and the lists intersected.
    private static func rows(meetingEach conditions: [String]) -> String {
        conditions.map { "SELECT item.ctid AS t FROM item WHERE \($0)" }.joined(separator: " INTERSECT ")
    }

    /// Each word's condition of being whole somewhere: in a field that ranks (its field words,
    /// GIN) or in its text; or, `orInFields`, also in its rich fields as the start of a word
    /// (their `words` vector, GIN). `nil` when a word is a compound (its parts are no field words).
    ///
    /// A row the ranking gives no prefix-only word (`rank.prefix_only` 0), or a phrase, meets
    /// all of them: a phrase is looked for among the texts with every word whole. `orInFields`,
    /// so does a row where a word is whole nowhere and starts a word of a field.
    private func wholeMatches(orInFields: Bool = false) -> [String]? {
        var conditions: [String] = []
        for word in words {
            guard let fields = word.wholeInFields.map({ orInFields ? word.rich : $0 }) else { return nil }
            conditions.append(word.wholeText.map { "(\(fields) OR \(test($0, .rows)))" } ?? fields)
        }
        return conditions
    }

    /// The first sort key: how many words are whole nowhere (none in a phrase).
    private var rankedPrefixOnly: String { "CASE WHEN rank.phrase THEN 0 ELSE rank.prefix_only END" }

    /// The second sort key: the sum of each word's best place, whole ones before prefixes (a
    /// phrase as every word in the title).
    private var rankedFields: String { "LEAST(rank.fields, CASE WHEN rank.phrase THEN \(tokens.count) ELSE rank.fields END)" }

    /// The statement selecting `select` for the matches among `candidates` (row addresses,
    /// `ctid` as text), in rank order, at most `limit` rows: what ``statement(select:domain:limit:)``
    /// would return of them, each row tested on itself (``TextTests/rows``).
    ///
    /// Whether the text tier is few enough to score is told (`scored`), since it counts the
    /// tier of the whole index (``TieredNamePage``).
    func statement(select: String, domain: String?, limit: Int?, among candidates: [String], scored: Bool) -> SQLStatement {
        var statement = self.statement
        var conditions = ["item.ctid = ANY(\(statement.bind(.textArray(candidates)))::tid[])"]
        conditions += matchesEveryWord + Self.admission(&statement, domain: domain)
        let isScored = scored ? "true" : "false"
        let phrase = phraseQuery(&statement).map { "(\(isScored) AND \(wholeTexts(.rows)) AND \(PostgreSQLTextStart.vector) @@ \($0)::tsquery)" }
        statement.sql = ranked(&statement, select: select, where: conditions, tests: .rows, phrase: phrase ?? "false", scored: isScored,
                               limit: limit)
        return statement
    }

    /// The statement selecting `select` for the matches among the rows `candidates` selects (a
    /// condition bound into `statement`, which extends this search's ``statement``, read
    /// through the indexes), in rank order, at most `limit` rows: what
    /// ``statement(select:domain:limit:)`` would return of them, each row tested on itself
    /// (``TextTests/rows``): one statement, where reading the candidates' addresses and then
    /// ranking them took two round trips and the addresses twice through text.
    ///
    /// It returns nothing when more than `most` rows are candidates: they are not all ranked.
    /// The candidates are kept as addresses: their whole rows, kept as a set, took longer than
    /// reading them again (25 ms for the 5 200 notes holding a word of `q` among keywords).
    func statement(extending statement: SQLStatement, select: String, domain: String?, limit: Int,
                   amongRowsWhere candidates: String, atMost most: Int, scored: Bool) -> SQLStatement {
        var statement = statement
        let cap = statement.bind(.integer(most + 1))
        var conditions = ["(SELECT count(*) FROM candidate) < \(cap)", "item.ctid = ANY(ARRAY(SELECT t FROM candidate))"]
        conditions += matchesEveryWord + Self.admission(&statement, domain: domain)
        let isScored = scored ? "true" : "false"
        let phrase = phraseQuery(&statement).map { "(\(isScored) AND \(wholeTexts(.rows)) AND \(PostgreSQLTextStart.vector) @@ \($0)::tsquery)" }
        statement.sql = "WITH candidate AS MATERIALIZED (SELECT item.ctid AS t FROM item WHERE \(candidates) LIMIT \(cap))\n"
            + ranked(&statement, select: select, where: conditions, tests: .rows, phrase: phrase ?? "false", scored: isScored, limit: limit)
        statement.readsIndexes = true
        return statement
    }

    /// Whether the text tier (every word whole in the text) is few enough to be ranked by
    /// relevance, as ``RankedNameSearch`` counts it: `nil` when the search has no text tier.
    ///
    /// Planned as PostgreSQL likes: a word in most texts is counted by reading rows until the
    /// count is passed, not by its whole list.
    func textTierIsScored() -> SQLStatement? {
        guard scoresText else { return nil }
        var statement = self.statement
        statement.sql = """
            SELECT count(*) <= \(TextRelevance.maximumScored) FROM
                (SELECT 1 FROM item WHERE \(wholeTexts(.rows)) LIMIT \(TextRelevance.maximumScored + 1)) AS tier
            """
        return statement
    }

    /// How many matches are ranked each on its own row at most (``statement(select:domain:limit:among:scored:)``),
    /// rather than by sets of rows of the whole index: a rare word's among half a million
    /// notes in milliseconds, where the sets of its other words' took seconds (`d70`).
    static let fewMatches = 20_000

    /// How many items an index holds before its searches are read row by row at all
    /// (`PostgresIndex.rowByRow`): below, ranking every match by sets of rows costs a few
    /// milliseconds (45 ms a keystroke at p95 on 2 000 files, process included), and a walk
    /// that meets a rare word tests every text on the way (63 ms).
    static let rankedRowByRowFrom = 50_000

    /// The addresses (`ctid` as text) of at most `most` + 1 matches (more says too many),
    /// read in one pass over the indexes' bitmaps, unordered and not admitted.
    func matches(atMost most: Int) -> SQLStatement {
        var statement = self.statement
        statement.sql = "SELECT item.ctid::text FROM item WHERE \(matchesEveryWord.joined(separator: " AND ")) LIMIT \(statement.bind(.integer(most + 1)))"
        statement.readsIndexes = true
        return statement
    }

    /// Whether the text tier (every word whole in the text) is ranked by relevance, for the
    /// phrase and relevance tests of ``statement(select:domain:limit:among:scored:)``.
    var scoresText: Bool { includeText && words.allSatisfy { $0.wholeText != nil } }

    /// Each word's condition of matching on the row: its rich fields, or its text.
    var matchesEveryWord: [String] {
        words.map { word in word.text.map { "(\(word.rich) OR \(test($0, .rows)))" } ?? word.rich }
    }

    /// Every word whole in the row's text.
    func wholeTexts(_ tests: TextTests) -> String {
        words.compactMap(\.wholeText).map { test($0, tests) }.joined(separator: " AND ")
    }

    /// The phrase of the words, bound, when the ranking looks for one (several words, texts
    /// counted, no Han or kana).
    private func phraseQuery(_ statement: inout SQLStatement) -> String? {
        guard scoresText, tokens.count > 1, !tokens.contains(where: TextWords.hasSplitCJK) else { return nil }
        return statement.bind(tokens.flatMap(CompoundWords.runs(of:)).map { TextWords.lexeme($0) + ":*" }.joined(separator: " <-> "))
    }

    /// The conditions of an item being searched: not expired, in `domain` when given.
    static func admission(_ statement: inout SQLStatement, domain: String?) -> [String] {
        var conditions = ["(item.expiration_date IS NULL OR item.expiration_date > \(statement.bind(.double(Date().timeIntervalSince1970))))"]
        if let domain { conditions.append("domain.name = \(statement.bind(domain))") }
        return conditions
    }

    /// Each word's best rank and the item's sums, as columns of the lateral `rank`: where the
    /// word is whole (`whole_0`…) and, for tests of rows, where it starts a word (`prefix_0`…), then how many words
    /// are whole nowhere (`rank.prefix_only`) and the sum of each word's best field
    /// (`rank.fields`, whole ones before prefixes), before any phrase. A word's fields are
    /// tested on the field words (``Word/fieldWords``), a compound's on the fields as text.
    ///
    /// - Returns: The `CROSS JOIN LATERAL` clauses of the fields as text (`field.f0`…, when a
    ///   word is a compound) and of the ranks.
    func rankJoins(_ tests: TextTests, phrase: String) -> String {
        // Per word, the rank of where it is whole and of where it starts a word; an item's rank:
        // the words whole nowhere, then the sum of each word's best (whole ones before prefixes).
        let places = fields.count + (includeText ? 1 : 0)
        var ranks: [String] = [], prefixes: [String] = []
        for (index, word) in words.enumerated() {
            let wholeText = word.wholeText.map { test($0, tests) }, text = word.text.map { test($0, tests) }
            if let fieldWords = word.fieldWords {
                let vector = PostgreSQLFieldWords.vector
                ranks.append(rank(of: fieldWords.whole.map { "\(vector) @@ \($0)::tsquery" }, text: wholeText) + " AS whole_\(index)")
                prefixes.append(rank(of: fieldWords.prefix.map { "\(vector) @@ \($0)::tsquery" }, text: text))
            } else {
                ranks.append(rank(of: word.whole, in: fieldColumns, text: wholeText) + " AS whole_\(index)")
                prefixes.append(rank(of: word.prefix, in: fieldColumns, text: text))
            }
        }
        let prefixOnly = words.indices.map { "(whole_\($0) IS NULL)::int" }.joined(separator: " + ")
        // Where a word starts a word counts only where it is whole nowhere. Over sets of the
        // whole index, each prefix is tested then alone (inside `coalesce`): a text's prefix
        // set (5 119 rows for `pa`) is never made for rows that all hold the words whole (the
        // whole tier). A walk's rows (TieredNamePage) keep each as a column it counts.
        let fieldRanks: String
        if tests == .sets {
            fieldRanks = words.indices.map { "coalesce(whole_\($0), \(places) + coalesce(\(prefixes[$0]), 0))" }.joined(separator: " + ")
        } else {
            ranks += prefixes.indices.map { "\(prefixes[$0]) AS prefix_\($0)" }
            fieldRanks = words.indices.map { "coalesce(whole_\($0), \(places) + coalesce(prefix_\($0), 0))" }.joined(separator: " + ")
        }
        // The fields as text, for the compounds alone (``Word/fieldWords``).
        let asText = words.contains { $0.fieldWords == nil }
            ? "CROSS JOIN LATERAL (SELECT \(fields.indices.map { "\(fields[$0]) AS f\($0)" }.joined(separator: ", ")) OFFSET 0) AS field\n"
            : ""
        return asText + """
            CROSS JOIN LATERAL (SELECT *, \(prefixOnly) AS prefix_only, \(fieldRanks) AS fields FROM
                (SELECT \(ranks.joined(separator: ",\n    ")), \(phrase) AS phrase OFFSET 0) AS each) AS rank
            """
    }

    /// The `SELECT` of `select` from the items meeting `conditions`, in rank order, at most
    /// `limit` of them.
    ///
    /// With a limit, the ranking carries each row's address and sort keys alone, and the page's
    /// columns and thumbnails are read after it, by address, for the page's rows: carried
    /// through the sort, the columns of every match (and a look-up of its thumbnail) were a
    /// quarter of ranking the 5 672 matches of `e` on a copy of `/usr/share/doc` (35 → 27 ms).
    /// The page is read in the snapshot that ranked it, so its addresses are still its rows'.
    ///
    /// - Parameters:
    ///   - phrase: Whether the row holds the words as a phrase (a condition).
    ///   - scored: Whether the text tier is few enough to be ranked by relevance (a condition).
    ///   - tiers: With `limit`, the conditions of the rows of each tier, the start of the ranking
    ///     (every row of a tier ranks before every match outside it), each holding those before
    ///     it: the page is the first tier's first page that is full, and the tiers after it and
    ///     the ranking of every match are never run.
    private func ranked(_ statement: inout SQLStatement, select: String, where conditions: [String],
                        tests: TextTests, phrase: String, scored: String, limit: Int?, tiers: [[String]] = []) -> String {
        // The sort keys, each with its direction.
        var keys = [(rankedPrefixOnly, ""), (rankedFields, "")]
        // Relevance among equals, in the text tier alone (each word's rank that of the text,
        // after the fields), when it is small enough to score:
        // cover density of the words in the text (their proximity and frequency, `ts_rank_cd`).
        if scoresText {
            let lexemes = tokens.flatMap(CompoundWords.runs(of:)).flatMap(TextWords.splitParts(of:)).map { TextWords.lexeme($0) + ":*" }
            keys.append(("""
                CASE WHEN \(rankedPrefixOnly) = 0 AND \(rankedFields) = \(fields.count * tokens.count) AND \(scored)
                    THEN ts_rank_cd(\(PostgreSQLTextStart.vector), \(statement.bind(lexemes.joined(separator: " & ")))::tsquery) ELSE 0 END
                """, " DESC"))
        }
        keys += [("coalesce(item.modification_date, 0)", " DESC"), ("item.identifier", ""), ("domain.name COLLATE \"C\"", "")]
        let joins = rankJoins(tests, phrase: phrase)
        guard let limit else {
            return """
                SELECT \(select) FROM item \(PostgresIndex.itemJoins)
                    \(joins)
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY \(keys.map { $0.0 + $0.1 }.joined(separator: ", "))
                """
        }
        let size = statement.bind(.integer(max(0, limit)))
        // The first `limit` rows meeting `conditions`: their addresses, the tier that read them
        // (the ranking of every match after the tiers) and their sort keys.
        func page(_ conditions: [String], tier: Int) -> String {
            """
            SELECT item.ctid AS address, \(tier) AS tier, \(keys.indices.map { "\(keys[$0].0) AS key_\($0)" }.joined(separator: ", "))
                FROM item JOIN domain ON domain.id = item.domain_id
                    \(joins)
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY \(keys.indices.map { "key_\($0)\(keys[$0].1)" }.joined(separator: ", "))
                LIMIT \(size)
            """
        }
        var source = page(conditions, tier: 0)
        if !tiers.isEmpty {
            // A tier's page, when full, is the page; the tiers after it and the ranking of every
            // match are behind its count, a condition the server tests once, in order (`CASE`),
            // and never run. `pa` on a copy of /usr/share/doc: the 148 rows with `pa` whole
            // ranked, not its 5 128 matches; `fin`: its 28 rows whole and 30 in a field, not 1 911.
            let full = tiers.indices.map { "(SELECT count(*) FROM tier_\($0)) = \(size)" }
            // Whether the tiers before `tier` all leave the page short, then `then`.
            func after(_ tier: Int, then: String) -> String {
                tier == 0 ? then : "CASE " + full.prefix(tier).map { "WHEN \($0) THEN false " }.joined() + "ELSE \(then) END"
            }
            source = "WITH " + tiers.indices.map { "tier_\($0) AS MATERIALIZED (\(page(tiers[$0], tier: $0)))" }.joined(separator: ",\n")
                + "\n" + tiers.indices.map { "SELECT * FROM tier_\($0) WHERE \(after($0, then: full[$0]))" }.joined(separator: "\nUNION ALL\n")
                + "\nUNION ALL\nSELECT * FROM (\(page(conditions + [after(tiers.count, then: "true")], tier: tiers.count))) AS ranking"
        }
        return """
            SELECT \(select) FROM (
                \(source)
            ) AS page JOIN item ON item.ctid = page.address \(PostgresIndex.itemJoins)
            ORDER BY \(keys.indices.map { "page.key_\($0)\(keys[$0].1)" }.joined(separator: ", "))
            """
    }

    /// The tests of one token.
    ///
    /// Binds the word's values into ``statement`` and defines its sets of rows (``set(_:)``).
    private mutating func word(_ token: String) -> Word {
        // A compound (``CompoundWords``): its parts as consecutive words of a field.
        let isCompound = CompoundWords.isCompound(token)
        let spaced = CompoundWords.parts(of: token).joined(separator: " ")
        let whole = statement.bind(" \(spaced) "), prefix = statement.bind(" \(spaced)")
        let vector = statement.bind(PostgresIndex.nameVectorQuery(token))
        var word = Word(rich: "item.words @@ \(vector)::tsquery", whole: whole, prefix: prefix)
        if !isCompound {
            // `'2alpha' | '3alpha'`: the word among keywords or authors (the rank of both).
            func query(_ rank: Int, prefix: Bool) -> String {
                let tags = PostgreSQLFieldWords.Tag.allCases.filter { $0.rank(includingText: includeText) == rank }
                return statement.bind(PostgreSQLFieldWords.query([token], in: tags, lastAsPrefix: prefix))
            }
            word.fieldWords = (fields.indices.map { query($0, prefix: false) }, fields.indices.map { query($0, prefix: true) })
            let ranked = PostgreSQLFieldWords.Tag.allCases.filter { $0.rank(includingText: includeText) != nil }
            word.wholeInFields = "\(PostgreSQLFieldWords.vector) @@ "
                + "\(statement.bind(PostgreSQLFieldWords.query([token], in: ranked, lastAsPrefix: false)))::tsquery"
        }
        if isCompound || !includeText {
            // The vector holds the authors' words too, and a compound's parts in any order:
            // the match must be in a name field.
            word.rich = "(\(word.rich) AND \(rank(of: prefix, in: fields, text: nil)) IS NOT NULL)"
        }
        guard includeText else { return word }
        if isCompound {
            word.wholeText = set("item.text_words @@ \(statement.bind(PostgresIndex.textVectorQuery(token, whole: true)))::tsquery")
            word.text = set("item.text_words @@ \(statement.bind(PostgresIndex.textVectorQuery(token, whole: false)))::tsquery")
        } else if TextWords.hasSplitCJK(token) {
            // Han and kana are words of one character in the text's vector (as in SQLite's
            // index): all of them, then the word as written in the text, spaces left out.
            let characters = TextWords.splitParts(of: token).map(TextWords.lexeme)
            word.text = set("item.text_words @@ \(statement.bind(characters.joined(separator: " & ")))::tsquery"
                + " AND strpos(searchlight_fold(searchlight_join_cjk(item.text_content)), \(statement.bind(token))) > 0")
            word.wholeText = word.text
        } else {
            word.wholeText = set("item.text_words @@ \(statement.bind(PostgresQueryCompiler.tsqueryLexeme(token)))::tsquery")
            // A one-letter prefix: one list of the texts' first letters (``PostgreSQLTextInitials``).
            word.text = PostgreSQLTextInitials.answers(token)
                ? set("item.text_initials @@ \(statement.bind(PostgresQueryCompiler.tsqueryLexeme(token)))::tsquery")
                : set("item.text_words @@ \(vector)::tsquery")
        }
        return word
    }

    /// Defines the set of rows `definition` holds, once per search, and returns the definition.
    private mutating func set(_ definition: String) -> String {
        if !sets.contains(where: { $0.definition == definition }) { sets.append(("text_\(sets.count)", definition)) }
        return definition
    }

    /// The name of the set of rows `definition` holds (``set(_:)``).
    private func setName(_ definition: String) -> String {
        sets.first { $0.definition == definition }!.name
    }
}
