import Searchlight

/// The first page of a search by words on a large PostgreSQL index, read from the newest
/// matches and the few rows that could rank before them, never by ranking every match.
///
/// A word typed on half a million notes (`a`, `alph`, `zulu`) matches most of them, and
/// ``RankedNameSearch`` ranks every match: seconds. Most matches share a few ranks, so:
///
/// 1. **A walk** of the newest items (at most ``walked``, on the date index) ranks each on its
///    own row, and keeps the best matches (``walks(limit:)``). Its `limit`-th best rank is
///    the tier `T`; its newest `limit` matches of rank `T` or better are `W`.
/// 2. **The rows that could rank before `T`**, a superset read through the GIN indexes
///    (``page(select:domain:limit:tier:among:newest:items:reading:textTierIsScored:estimates:)``): those with more words whole
///    (`words`, `text_words`), with a word in a field that ranks better (the field words of
///    ``PostgreSQLFieldWords``), the text tier when it is ranked by relevance, and every item
///    dated like one of `W`.
/// 3. **The page** is the full ranking's statement over that superset alone, each row tested on
///    itself, in one pass (``RankedNameSearch/statement(extending:select:domain:limit:amongRowsWhere:atMost:scored:)``).
///    When the superset holds more than ``betterAtMost`` rows besides `W` (or the walk's shares,
///    or between their bounds the statistics of the field words, say a first walk's would hold
///    more than ``walkOnFrom(limit:items:)``), a second, longer walk looks for
///    them alone, and its tier is taken the same way; when they are still too many, the page
///    is left to the full ranking.
///
/// Why it is the full ranking's first page: every row of rank below `T` is in the superset;
/// every row of rank `T` newer than the last of `W` is in `W` (the walk met every match newer
/// than its end); `W` holds `limit` rows of rank `T` or better; so no row left out can be
/// among the first `limit`. A phrase can lift a row of the text tier, which is why that tier is
/// in the superset whenever it is scored (phrases are only looked for then).
///
/// A walk that meets fewer than `limit` matches (a rare word: `zeppelin`) says the matches are
/// few enough to rank: the page is then left to the ranking of every match, each on its row
/// when they are few (`PostgresIndex.rowByRow`), else by sets (``RankedNameSearch``). Han and
/// kana, and more than three words, are left to them as well. A compound (`note_4`, `d70`) is whole where
/// its parts are whole in a field or in sequence in the text, and is in a field where its
/// parts are all in that field (a superset: in any order).
struct TieredNamePage {
    /// The rank of a row before any phrase: how many words are whole nowhere, then the sum of
    /// each word's best field (``RankedNameSearch/rankJoins(_:phrase:)``).
    struct Rank: Comparable {
        var prefixOnly: Int
        var fields: Int

        static func < (left: Rank, right: Rank) -> Bool {
            (left.prefixOnly, left.fields) < (right.prefixOnly, right.fields)
        }
    }

    /// A match met on the walk.
    struct Walked {
        /// `coalesce(modification_date, 0)`.
        var date: Double
        var rank: Rank
        /// For each word, the best field that holds it whole or as a prefix (0 name … 4 text;
        /// 9 none): what tells how common a word is in each field.
        var fields: [Int]
        /// How many items the walk had visited when it met it (a walk newest first), or in all
        /// (a walk best first, which ranks every item it visits).
        var visited: Int
        /// For a walk best first, what it met among every match, kept or not (``Met``); `nil`
        /// for a walk newest first, which stops at the last match it keeps.
        var met: Met?
    }

    /// What a walk best first met among every match of the items it visited, kept or not: the
    /// matches it keeps are the best, so a word in a field that ranks a match only as well as
    /// the page's tier is often in matches it leaves.
    struct Met {
        /// How many of the items visited matched.
        var matches: Int
        /// How many matches hold each word in a field of each rank or better, before the last
        /// place (`[word × ranks + rank]`, ``TieredNamePage/fieldRanks``).
        var inFields: [Int]
    }

    /// The most newest items a walk visits: about 10 ms of row tests on half a million notes.
    static let walked = 2000
    /// How many rows the superset of a first walk of an index of `items` may be expected to
    /// read from one index before the longer walk is taken instead, for a page of `limit`.
    ///
    /// A row of the superset costs about 5 µs to read and rank (the 5 200 notes holding a `q…`
    /// word among keywords: 25 ms). The longer walk stops at the `2 × limit`-th row that ranks
    /// before the tier, which it meets as often as the superset's rows are among the items: it
    /// visits `2 × limit × items / rows`, about 4 µs each (4 200 notes in 17 ms). The two cost
    /// the same at `rows = √(2 × limit × items × 4/5)`: 4 000 for a page of 20 at half a million.
    /// Never fewer than 2 000 (10 ms of superset): fewer rows than that could leave the longer
    /// walk short of a page, and a walk of a small index has met them all.
    static func walkOnFrom(limit: Int, items: Int) -> Int {
        max(2000, Int((Double(2 * limit) * Double(max(items, 1)) * 0.8).squareRoot()))
    }

    /// The most rows that could rank before the walk's page that are ranked one by one: the
    /// 15 000 names of half a million notes holding `note` and `4` (`note_4`) take 0.1 s,
    /// where ranking every match took 0.6.
    static let betterAtMost = 20000

    /// The ranks of the fields before the last place (name 0, title 1, keywords and authors 2,
    /// folders 3, then the text; in a search of names alone, the folders are the last place and
    /// authors have no rank): those a box of
    /// ``betterConditions(_:than:among:items:reading:textTierIsScored:estimates:)`` reads from the field words.
    var fieldRanks: Int { search.includeText ? 4 : 3 }

    /// The search, whose tests rank the walk and the page.
    let search: RankedNameSearch
    /// How many of the newest items the walk visits at most: ``walked``, fewer in tests.
    let walking: Int
    /// How many rows that could rank before the walk's page are ranked at most: ``betterAtMost``, fewer in tests.
    let ranking: Int

    /// The page of `search`'s words, or `nil` when this way does not apply: no words, Han or kana, more
    /// than three words (the superset of rows that rank before would be too
    /// many combinations).
    init?(_ search: RankedNameSearch, walking: Int = Self.walked, ranking: Int = Self.betterAtMost) {
        self.search = search
        self.walking = walking
        self.ranking = ranking
        guard (1...3).contains(search.tokens.count),
              !search.tokens.contains(where: TextWords.hasSplitCJK) else { return nil }
    }

    /// The walks a page may take, each with how many of the newest items it visits, how many
    /// matches it keeps for a page of `limit`, and whether it keeps the best (else the newest):
    ///
    /// - The first ranks every item it visits and keeps the best, more than the page, so that its
    ///   tier is the page's and not the worst of a few. Keeping the first matches instead left
    ///   the tier of `note 4` at a prefix (fewer than 20 of the first 100 matches hold `4` whole,
    ///   60 of the 2 000 do): 14 850 rows could then rank before it, 80 ms to read and rank.
    /// - The second, longer, looks only for rows that rank before the first's tier when too many
    ///   could; it stops at the first it needs.
    func walks(limit: Int) -> [(visiting: Int, keeping: Int, bestFirst: Bool)] {
        [(walking, 5 * limit, true), (8 * walking, 2 * limit, false)]
    }

    /// What a walk for the rows that rank before a first walk's tier knows of that walk.
    struct Below {
        /// The first walk's tier.
        var tier: Rank
        /// The first walk's matches.
        var walked: [Walked]
        /// The items of the index, as the planner counts them.
        var items: Int
        /// Whether the text tier is scored.
        var scored: Bool
    }

    /// The columns a walk reads of each item: those its tests and ranks read. Reading every
    /// column (`item.*`) took three times as long: 98 ms for 16 000 notes, against 32.
    static let walkedColumns = ["modification_date", "expiration_date", "domain_id", "name_words", "title_words", "author_words",
                                "keyword_words", "folder_words", "words", "text_words", "text_initials", "field_words",
                                "text_start_words"]
        .map { "item." + $0 }.joined(separator: ", ")

    /// A walk: of the newest `visiting` items, `keeping` matches the search admits (those
    /// ranking before `below` alone, when given), each with its date and rank
    /// (``Walked``): the best, newest first among equals, when `bestFirst`, else the newest.
    ///
    /// The page's argument holds either way: the rows of the tier `T` the walk leaves out are
    /// older than those it keeps, of which there are more than the page.
    ///
    /// A walk for the rows that rank before a first walk's tier (`below`) tests each item first
    /// for being among them as the superset reads them (``betterConditions(_:than:among:items:reading:textTierIsScored:estimates:)``,
    /// from the first walk's matches), on its stored vectors, before ranking it.
    func walk(domain: String?, visiting: Int, keeping: Int, bestFirst: Bool, below: Below?) -> SQLStatement {
        var statement = search.statement
        var conditions = search.matchesEveryWord + RankedNameSearch.admission(&statement, domain: domain)
        if let below {
            if case .these(let better) = betterConditions(&statement, than: below.tier, among: below.walked, items: below.items,
                                                          reading: .max, textTierIsScored: below.scored) {
                // None: only rows dated like the first walk's page could rank before it.
                conditions.append(better.isEmpty ? "false" : "(" + better.joined(separator: " OR ") + ")")
            }
            conditions.append("(rank.prefix_only, rank.fields) < (\(statement.bind(.integer(below.tier.prefixOnly))), \(statement.bind(.integer(below.tier.fields))))")
        }
        // The walk's order is a column of its rows (`recency`): the planner keeps a subquery's
        // order only by its columns. Ordered by the expression, the matches of a walk newest
        // first were sorted again, and the walk visited all its 16 000 items (50 ms) where it
        // can stop at the last match it keeps (`q` among keywords: 4 200 visited, 9 ms).
        let recency = "coalesce(item.modification_date, 0)", visiting = statement.bind(.integer(visiting))
        // Window counts over every match, before the limit keeps the best.
        let metInFields = search.tokens.indices.flatMap { word in
            (0..<fieldRanks).map { "count(*) FILTER (WHERE coalesce(rank.prefix_\(word), 9) <= \($0)) OVER ()" }
        }.joined(separator: ", ")
        let newest = bestFirst
            ? """
              SELECT item.*, count(*) OVER () AS visited FROM
                  (SELECT \(recency) AS recency, \(Self.walkedColumns) FROM item ORDER BY \(recency) DESC LIMIT \(visiting)) AS item
              """
            : """
              SELECT \(recency) AS recency, row_number() OVER (ORDER BY \(recency) DESC) AS visited, \(Self.walkedColumns)
                  FROM item ORDER BY \(recency) DESC LIMIT \(visiting)
              """
        statement.sql = """
            SELECT item.recency::float8, rank.prefix_only::int8, rank.fields::int8,
                ARRAY[\(search.tokens.indices.map { "coalesce(rank.prefix_\($0), 9)" }.joined(separator: ", "))]::int8[], item.visited,
                \(bestFirst ? "count(*) OVER ()" : "0")::int8, ARRAY[\(bestFirst ? metInFields : "")]::int8[]
            FROM (\(newest)) AS item
                JOIN domain ON domain.id = item.domain_id
                \(search.rankJoins(.rows, phrase: "false"))
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY \(bestFirst ? "rank.prefix_only, rank.fields, " : "")item.recency DESC
            LIMIT \(statement.bind(.integer(keeping)))
            """
        return statement
    }

    /// The page: the statement ranking, in one pass, the walk's page `W` (`page`, read by its
    /// dates, which brings every item dated like its last) and a superset of the rows that rank
    /// before `tier` and of the text tier when it is scored, at most `ranking` of them besides
    /// `W` (more, and the statement returns nothing). ``Better/all`` when the superset would be
    /// every match (`tier` is that of a word in the text, after every field).
    ///
    /// A row ranks before `(p, s)` when fewer of its words are whole nowhere (`p' < p`: at
    /// least `n − p + 1` of the `n` words whole somewhere), or as many and its fields sum less,
    /// at most `s − p × places − 1` (each prefix-only word adds `places` to its field's rank).
    ///
    /// Each box is the words' conditions on the field words, each read from the index unless
    /// the walk met it in more than one match in fifty (of every match a first walk met, else
    /// of those kept): then it is tested on the
    /// rows the others give (a word among most keywords, `'2bravo':*`, costs its whole list,
    /// 25 ms on half a million notes). The least common is read when all are common.
    ///
    /// A box whose rarest word the walk met in more rows than `reading` would make of the
    /// index's `items` (its share of the items walked: `november` among keywords, `de…` among
    /// them too) is not read: the superset would be too many (``Better/many``), and reading
    /// it cost seconds (the field words of a quarter of the rows computed one by one). Where
    /// its share of the matches says more and its share of the items fewer, the statistics of
    /// the field words tell (``Better/estimate(_:)``, `estimates`).
    ///
    /// - Parameters:
    ///   - select: The columns the page selects.
    ///   - reading: How many rows a box's index may be expected to give: ``walkOnFrom(limit:items:)`` when a
    ///     longer walk may follow, else `ranking`.
    func page(select: String, domain: String?, limit: Int, tier: Rank, among walked: [Walked], newest page: [Walked], items: Int,
              reading: Int, textTierIsScored scored: Bool, estimates: [String: Int] = [:]) -> Better<SQLStatement> {
        var statement = search.statement
        let dated = "coalesce(item.modification_date, 0) = ANY(\(statement.bind(.textArray(page.map { "\($0.date)" })))::float8[])"
        switch betterConditions(&statement, than: tier, among: walked, items: items, reading: reading, textTierIsScored: scored,
                                estimates: estimates) {
        case .all: return .all
        case .many: return .many
        case .estimate(let queries): return .estimate(queries)
        case .these(let conditions):
            return .these(search.statement(extending: statement, select: select, domain: domain, limit: limit,
                                           amongRowsWhere: ([dated] + conditions).joined(separator: "\n    OR "),
                                           atMost: ranking + page.count, scored: scored))
        }
    }

    /// The conditions of ``page(select:domain:limit:tier:among:newest:items:reading:textTierIsScored:estimates:)``
    /// (any of them: a row that could rank before `tier`), bound into `statement`; the items
    /// dated like the page's last are not among them.
    ///
    /// A box's rows are told by its rarest word's share of the items the walk visited, which
    /// counts only the rows that hold the other words too: when its share of the matches (as if
    /// the other words were wherever it is) tells
    /// more rows than `reading` and that share of the visited fewer, the statistics of the field
    /// words are asked (``Better/estimate(_:)``, ``fieldShare(_:_:)``; `estimates`, rows by
    /// field query, once they answered).
    func betterConditions(_ statement: inout SQLStatement, than tier: Rank, among walked: [Walked], items: Int, reading: Int,
                          textTierIsScored scored: Bool, estimates: [String: Int] = [:]) -> Better<[String]> {
        let tokens = search.tokens, count = tokens.count
        let places = search.includeText ? 5 : 4
        var conditions: [String] = []
        // Each condition's rows are expected to be its share of the items visited, of every item.
        let visited = Double(max(walked.map(\.visited).max() ?? 1, 1)), everyItem = Double(max(items, walked.count))
        if tier.prefixOnly > 0 {
            // More words whole (every such match ranks before the tier: the walk kept them all).
            // A compound's are its parts whole in any order (`note & 7`, 14 850 of half a million
            // notes, which 2 455 hold in order).
            let moreWhole = walked.count { $0.rank.prefixOnly < tier.prefixOnly }
            if Double(moreWhole) / visited * everyItem > Double(reading) { return .many }
            let wholeNeeded = count - tier.prefixOnly + 1
            // A compound is whole where its parts are all whole, in a field or in sequence in the text.
            let whole = tokens.map { token in
                let rich = statement.bind(CompoundWords.parts(of: token).map(PostgresQueryCompiler.tsqueryLexeme).joined(separator: " & "))
                let text = CompoundWords.isCompound(token) ? statement.bind(PostgresIndex.textVectorQuery(token, whole: true)) : rich
                return "(item.words @@ \(rich)::tsquery" + (search.includeText ? " OR item.text_words @@ \(text)::tsquery)" : ")")
            }
            conditions += Self.combinations(of: Array(whole.indices), size: wholeNeeded).map {
                "(" + $0.map { whole[$0] }.joined(separator: " AND ") + ")"
            }
        }
        // As many words whole nowhere, and fields that sum to at most `most`: each row's field
        // ranks lie in a box of ranks summing to `most` (a rank of the last place, the text,
        // says nothing), where each word is in a field of its box's rank or better.
        let most = tier.fields - tier.prefixOnly * places - 1, last = places - 1
        if most >= 0 {
            guard most < count * last else { return .all }
            var queries: [String: String] = [:]
            func query(_ token: String, _ rank: Int) -> String {
                let key = "\(rank) \(token)"
                if let known = queries[key] { return known }
                let bound = statement.bind(fieldQuery(token, rank))
                queries[key] = bound
                return bound
            }
            var unsure: [(token: String, rank: Int, query: String)] = []
            // One condition per word, which the planner may read from its index or test on the
            // rows another word's gives: a prefix in most rows (`'2alpha':*`) costs its whole list.
            // Among every match when the walk counted them (a walk best first), else among those it kept.
            let every = walked.first?.met
            let matches = every?.matches ?? walked.count
            func met(_ word: Int, _ rank: Int) -> Int {
                every.map { $0.inFields[word * fieldRanks + rank] } ?? walked.count { $0.fields[word] <= rank }
            }
            for box in Self.boxes(summingTo: most, words: count, each: last) {
                let words = box.indices.filter { box[$0] < last }
                let rarest = words.min { met($0, box[$0]) < met($1, box[$1]) }
                // The rows its index gives: at least the rarest word's share of the items visited,
                // of every item; about its share of the matches at most (the other words may be
                // rare where it is not; their being where it is, more). Between, the statistics
                // tell (none of the common words matching: the lower bound decides, as before): `oscar hotel` on half a million
                // notes met `oscar` among keywords in 22 of 2 000 visited, 422 matches, which
                // tell 5 500 and 26 000 rows; its index gives 27 567 (the statistics: 27 983),
                // each read from its page (0.2 s), where the longer walk takes 20 ms.
                // `romeo tango`: 5 of 2 000, 397 matches, 1 250 and 6 300; the index 1 474 (the
                // statistics 1 517; the superset, 17 ms).
                // A word the walk never met there is left to its index, which knows it is rare.
                if let rarest, met(rarest, box[rarest]) > 0 {
                    let share = Double(met(rarest, box[rarest])) * everyItem
                    if share / visited > Double(reading) { return .many }
                    if share / Double(max(matches, 1)) > Double(reading), !CompoundWords.isCompound(tokens[rarest]) {
                        let asked = fieldQuery(tokens[rarest], box[rarest])
                        if let rows = estimates[asked] {
                            if rows > reading { return .many }
                        } else {
                            unsure.append((tokens[rarest], box[rarest], asked))
                        }
                    }
                }
                let tests = words.map { word in
                    let test = "\(PostgreSQLFieldWords.vector) @@ \(query(tokens[word], box[word]))::tsquery"
                    // `IS TRUE` keeps the planner from reading the condition's index.
                    return word == rarest || 50 * met(word, box[word]) <= matches ? test : "(\(test)) IS TRUE"
                }
                conditions.append("(" + tests.joined(separator: " AND ") + ")")
            }
            if !unsure.isEmpty { return .estimate(unsure) }
        }
        if scored { conditions.append("(\(search.wholeTexts(.rows)))") }
        return .these(conditions)
    }

    /// The field words' query (`tsquery` text) of `token` in the fields of `rank` or better: a
    /// compound's parts in one field, the last as a prefix (`('0note' & '04':*)`).
    func fieldQuery(_ token: String, _ rank: Int) -> String {
        PostgreSQLFieldWords.query(CompoundWords.parts(of: token), in: tags(rankedAtMost: rank), lastAsPrefix: true)
    }

    /// The field words' tags of the fields of `rank` or better in this search.
    func tags(rankedAtMost rank: Int) -> [PostgreSQLFieldWords.Tag] {
        PostgreSQLFieldWords.Tag.allCases.filter { $0.rank(includingText: search.includeText).map { $0 <= rank } ?? false }
    }

    /// The share of the rows whose field words hold `token` (a word, not a compound) in the
    /// fields of `rank` or better, from the statistics `ANALYZE` keeps of them (`pg_stats`: the
    /// most common tagged words and their shares): the sum of the shares of those starting
    /// with the token behind each field's tag, a row holding it in two fields counted twice.
    /// `NULL` when there are no statistics the reader may see (before the first `ANALYZE`, or
    /// where row security applies to the reader); 0 when none of the common words match (then
    /// the word is rarer than the least common of them).
    ///
    /// The planner's own estimate (`EXPLAIN`) adds a default share for each tag's word it does
    /// not find among them: 4 533 rows for `romeo` among the fields of the notes, which hold it
    /// in 1 474.
    func fieldShare(_ token: String, _ rank: Int) -> SQLStatement {
        let escaped = token.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        var statement = SQLStatement()
        let patterns = statement.bind(.textArray(tags(rankedAtMost: rank).map { $0.rawValue + escaped + "%" }))
        // The statistics of the table `item` names for the reader, whatever its schema.
        statement.sql = """
            SELECT coalesce((SELECT sum(common.share) FILTER (WHERE common.word LIKE ANY(\(patterns)))
                             FROM unnest(stats.most_common_elems::text::text[], stats.most_common_elem_freqs) AS common(word, share)),
                            0)::float8
            FROM pg_class AS item
                JOIN pg_namespace AS namespace ON namespace.oid = item.relnamespace
                JOIN pg_stats AS stats ON stats.schemaname = namespace.nspname AND stats.tablename = item.relname
            WHERE item.oid = to_regclass('item') AND stats.attname = 'field_words' AND NOT stats.inherited
                AND stats.most_common_elems IS NOT NULL
            """
        return statement
    }

    /// What ``page(select:domain:limit:tier:among:newest:items:reading:textTierIsScored:estimates:)`` makes of the rows
    /// that could rank before a tier.
    enum Better<Found> {
        /// Every match could: the page is left to another way.
        case all
        /// Too many, by the walk's shares or the statistics: a longer walk may look for them alone.
        case many
        /// The walk's shares cannot tell: the statistics of these words in these fields must
        /// (``fieldShare(_:_:)``), each answer kept by its field query (``fieldQuery(_:_:)``).
        case estimate([(token: String, rank: Int, query: String)])
        /// The page's statement, or the conditions of its superset.
        case these(Found)
    }

    /// The tier of a page of `limit` from the walk's matches, and the page's rows among them
    /// (`W`): `nil` when the walk met fewer than `limit`.
    static func tier(of walked: [Walked], limit: Int) -> (tier: Rank, page: [Walked])? {
        guard limit > 0, walked.count >= limit else { return nil }
        let tier = walked.map(\.rank).sorted()[limit - 1]
        let newest = walked.sorted { $0.date > $1.date }
        return (tier, Array(newest.filter { $0.rank <= tier }.prefix(limit)))
    }

    /// The ways of giving `words` words ranks from 0 to `each` that sum to `sum`, in order.
    static func boxes(summingTo sum: Int, words: Int, each: Int) -> [[Int]] {
        guard words > 0 else { return sum == 0 ? [[]] : [] }
        return (0...min(sum, each)).flatMap { first in boxes(summingTo: sum - first, words: words - 1, each: each).map { [first] + $0 } }
    }

    /// The subsets of `size` of `items`, in order.
    static func combinations(of items: [Int], size: Int) -> [[Int]] {
        guard size > 0 else { return [[]] }
        guard items.count >= size else { return [] }
        let first = items[0], rest = Array(items.dropFirst())
        return combinations(of: rest, size: size - 1).map { [first] + $0 } + combinations(of: rest, size: size)
    }
}
