import GRDB
import GRDBSQLite

extension ContentSearch {
    /// How many items ``severalWordsPage(limit:sampling:candidatesAtMost:)`` ranks one by one at
    /// most, by default: one per thousand items of the index, from 128 to 512.
    ///
    /// Each candidate costs a row and, per word it lacks whole in its fields, two seeks in the
    /// text (0.03 ms each, a prefix sought as its words: ``seekablePrefix(_:)``): 60 ms at worst
    /// for 512 and two words. Giving up reads every long list whole, which costs with the size of
    /// the index: 130 to 240 ms for `alpha zulu` and `alpha b` on half a million notes (`alpha` is a
    /// keyword of 347), where ranking the 347 costs 30; about 20 ms on 10 000 files, where ranking
    /// the 300-odd candidates of `which n` took 30 to 60.
    static func severalWordsCandidates(in db: Database) throws -> Int {
        let items = try db.readStatement("SELECT max(id) FROM item").firstRow { sqlite3_column_int64($0, 0) } ?? 0
        return Swift.min(512, Swift.max(128, Int(items / 1_000)))
    }

    /// How many date-index entries ``severalWordsPage(limit:sampling:candidatesAtMost:)`` visits
    /// at most when each is sought in a list (0.03 ms a seek), and when most are told apart by a
    /// set of rows first.
    static let severalWordsVisits = (sought: 1_500, checked: 200_000)

    /// The first `limit` matches of a search of several words, without reading their lists
    /// whole: exactly the first `limit` of ``allMatches()``. `nil` for one word or more than
    /// eight, Han and kana, compounds, a limit of 0, more candidates than `candidatesAtMost`, a
    /// page the walk cannot fill within its budget, or a prefix longer than the prefix indexes
    /// that more than seven longer words start (it could not be sought row by row).
    ///
    /// Each word's levels (whole before prefix; name, title, keywords and authors, folders, text:
    /// ``ColumnLists``) are read from their start, in rank order, up to the first long one, `L`:
    ///
    /// - The rows of the short lists before it, and the texts that hold every word whole when
    ///   they are few enough to score (``textTier()``), are the candidates, ranked exactly
    ///   (``richMatches(among:lookingInText:seekingAtMost:)``, phrases promoted as
    ///   ``allMatches()`` promotes them).
    /// - Any other match has each word at `L` or past it, so it ranks at the sum of the words'
    ///   `L` at best (the bound), and at the bound only if each word is at its `L`: in its long
    ///   list. The candidates that rank above the bound come first; the page goes on with the
    ///   items at the bound, met newest first on the date index, each sought in the words' long
    ///   lists, the sparsest first (its rows read into a set first when they are few enough).
    ///
    /// `alpha zulu` on half a million notes (every text says `alpha`; `zulu` is a keyword of half
    /// of them) reads each word's first lists from their start and walks about forty items,
    /// where reading both words' lists whole cost 140 ms.
    ///
    /// A word whose every level is short (no long list) is in every match: the candidates are
    /// then kept to its rows, they are every match, and ranked they give the page at once. The
    /// short lists read give up early, before anything is ranked, when their rows pass eight
    /// times `candidatesAtMost`.
    ///
    /// The items the walk meets outside the candidates are ranked on their fields' bytes, as the
    /// candidates are: each must rank at the bound, else the page is left to the next way (`nil`).
    ///
    /// Costs, per word, the first `sampling` + 1 rows of each list up to its first long one; the
    /// item rows of the candidates (at most `candidatesAtMost`) and their text seeks; the scoring
    /// of the text tier when small (``textTier()``); and the walk of ``newestAtBound(_:firsts:candidates:ranked:limit:sampling:)``.
    ///
    /// - Parameters:
    ///   - limit: The size of the page.
    ///   - sampling: How many rows of a list are read before it is taken as long: for tests.
    ///   - candidatesAtMost: How many candidates are ranked one by one at most;
    ///     ``severalWordsCandidates(in:)`` when `nil`.
    /// - Returns: Exactly the first `limit` of ``allMatches()`` (all of them when fewer), or `nil`.
    /// - Throws: A `DatabaseError` when a read fails.
    func severalWordsPage(limit: Int, sampling: Int = PageStrategy.sampleSize,
                          candidatesAtMost given: Int? = nil) throws -> [Match]? {
        guard limit > 0, tokens.count > 1, tokens.count <= 8, !hasCJK else { return nil }
        let candidatesAtMost = try given ?? Self.severalWordsCandidates(in: db)
        var candidates = RowSet()
        // Each word's first long level: its lists, their first rows, the level.
        var firsts: [(lists: ColumnLists, sample: [Int64], level: Tier)] = []
        // The rows of the words whose lists are all short: every match is among each's.
        var everyRowOf: [RowSet] = []
        for token in tokens {
            let whole = SearchableIndex.quoted(token)
            guard SearchableIndex.nameTerm(token, whole: true) == whole, Self.term(token, whole: true) == whole,
                  SearchableIndex.nameTerm(token, whole: false) == whole + "*", Self.term(token, whole: false) == whole + "*"
            else { return nil }
            // A prefix is sought row by row in a prefix index (one to three letters), or as the
            // few words that start with it (`("alph" OR "alpha" OR "alphabet")`): FTS5 merges a
            // longer prefix's lists at every seek. None: its prefix lists are its whole lists.
            let sought = try seekablePrefix(token)
            guard Self.seeksCheaply(sought) else { return nil }
            let prefix: String? = sought == whole ? nil : sought
            var first: (ColumnLists, [Int64], Tier)?
            var rows = RowSet()
            levels: for prefixOnly in 0...(prefix == nil ? 0 : 1) {
                for rank in 0...Self.textRank {
                    let lists = ColumnLists(rank: rank, term: prefixOnly == 0 ? whole : prefix ?? whole)
                    for part in lists.parts {
                        let sample = try firstRows(part.table, part.expression, atMost: sampling)
                        if sample.count > sampling {
                            first = (lists, sample, Tier(prefixOnly: prefixOnly, fieldRank: rank))
                            break levels
                        }
                        rows.formUnion(sample)
                    }
                    // Many rows of short lists: too many candidates, even once intersected.
                    guard candidates.count + rows.count <= 8 * candidatesAtMost else { return nil }
                }
            }
            candidates.formUnion(rows)
            if let first { firsts.append(first) } else { everyRowOf.append(rows) }
        }
        // A word with short lists only: every match holds it, so every match is among its rows.
        for rows in everyRowOf { candidates.formIntersection(rows) }
        // The texts with every word whole, when few: their phrases rank as titles.
        let scored = try textTier()
        if let scored { candidates.formUnion(scored.members) }
        guard candidates.count <= candidatesAtMost else { return nil }
        var ranked = try richMatches(among: candidates, seekingAtMost: Swift.max(candidates.count, Self.seekLimit))
        if let holders = try phraseHolders() {
            for id in holders { if let match = ranked[id] { ranked[id] = promoted(match) } }
        }
        // Then the candidates are every match, and ranked they are the page.
        if !everyRowOf.isEmpty { return try Array(byRelevance(Self.sorted(Array(ranked.values))).prefix(limit)) }
        let bound = firsts.reduce(Tier(prefixOnly: 0, fieldRank: 0)) {
            Tier(prefixOnly: $0.prefixOnly + $1.level.prefixOnly, fieldRank: $0.fieldRank + $1.level.fieldRank)
        }
        let above = Self.sorted(ranked.values.filter { Tier($0) < bound })
        if above.count >= limit { return try Array(byRelevance(above).prefix(limit)) }
        let atBound = ranked.values.filter { Tier($0) == bound }
        // The text's tier, scored: every item of it holds every word whole in its text, a
        // candidate already; ordered by relevance.
        if bound == Tier(prefixOnly: 0, fieldRank: Self.textRank * tokens.count), scored != nil {
            let page = try byRelevance(above + Self.sorted(atBound))
            return page.count >= limit ? Array(page.prefix(limit)) : nil
        }
        guard let walked = try newestAtBound(bound, firsts: firsts, candidates: candidates, ranked: ranked,
                                             limit: limit - above.count, sampling: sampling) else { return nil }
        // The walked items' ranks, read on their fields' bytes, must be the bound's.
        let sought = RowSet(walked.lazy.map(\.id).filter { !candidates.contains($0) })
        let checked = try richMatches(among: sought, seekingAtMost: Swift.max(sought.count, Self.seekLimit))
        guard checked.count == sought.count, checked.values.allSatisfy({ Tier($0) == bound }) else { return nil }
        let tier = walked.compactMap { ranked[$0.id] ?? checked[$0.id] }
        return above + Self.sorted(tier).prefix(limit - above.count)
    }

    /// The newest `limit` items (and those dated like the last) that rank at `bound`: the
    /// candidates ranked there, and the other items in every word's first long list; `nil`
    /// when the walk would visit more than ``severalWordsVisits`` allows, or met fewer.
    ///
    /// The walk is weighed before it starts. Each long list's density is guessed from its first
    /// rows (their count over the row ids they span, from the smallest row id of `item`), and an
    /// item is taken to be in all of them at the product of their densities: the walk visits
    /// about `limit` over that product. The sparsest list, when it would hold at most
    /// 32 × ``PageStrategy/sampleSize`` rows, or fewer than 250 for each seek the walk would make
    /// (what one costs), or the walk would need more than `sought` visits,
    /// is read whole into a set that turns most visits away without a seek, and the walk may
    /// then visit `severalWordsVisits.checked` entries; else each visit seeks the lists
    /// (``ListProbe``), and past `sought` visits the set is read and the walk goes on with it.
    /// (`quebec hote`, a page of 50 on the notes: the keyword lists' first rows said one item in
    /// six holds both, and one in fifty did; the walk gave up at 1 500 visits, and the tiers
    /// read every list whole: 150 ms.)
    ///
    /// - Parameters:
    ///   - bound: The best rank an item outside the candidates can have.
    ///   - firsts: Each word's first long level: its lists, their first rows, the level.
    ///   - candidates: The items ranked already; one is taken only if ranked at `bound`.
    ///   - ranked: The candidates' matches, by row id.
    ///   - limit: How many items the page still needs.
    ///   - sampling: How many first rows of a list were read (``PageStrategy/sampleSize``, fewer
    ///     in tests): the lists read whole into a set, and a seek's cost in rows, scale with it.
    /// - Returns: The items met, newest first, as matches of the best rank (the caller ranks
    ///   them); `nil` as said above.
    /// - Throws: A `DatabaseError` when a read fails.
    private func newestAtBound(_ bound: Tier, firsts: [(lists: ColumnLists, sample: [Int64], level: Tier)], candidates: RowSet,
                               ranked: [Int64: Match], limit: Int, sampling: Int) throws -> [NameMatch]? {
        guard let lowest = try db.readStatement("SELECT min(id) FROM item").firstRow(read: { sqlite3_column_int64($0, 0) }),
              let highest = try db.readStatement("SELECT max(id) FROM item").firstRow(read: { sqlite3_column_int64($0, 0) })
        else { return nil }
        let span = Double(Swift.max(1, highest - lowest + 1))
        // Each list's share of the rows, from how far into them its first rows reached.
        let lists = firsts.map { first in
            (first.lists, density: Swift.min(1, Double(first.sample.count) / Double(Swift.max(1, (first.sample.last ?? lowest) - lowest + 1))))
        }.sorted { $0.density < $1.density }
        let visits = Double(limit) / Swift.max(lists.reduce(1) { $0 * $1.density }, 1e-12)
        // The sparsest list read into a set that tells most visits apart: when its rows are few,
        // or when seeking every visit would cost more than reading it (a seek costs about what
        // reading 250 rows of a list does: 0.02 ms, where the 92 679 rows of `keywords :
        // "quebec"` on the notes are read in 8 ms).
        var set: RowSet?
        var probes = try lists.map { try ListProbe($0.0, in: db) }
        func readSparsest() throws {
            guard set == nil, let sparsest = lists.first else { return }
            set = try sparsest.0.parts.reduce(into: RowSet()) { $0.formUnion(try rowIDs($1.table, $1.expression)) }
            probes.removeFirst()
        }
        // Both in proportion to `sampling`, smaller in tests, so that their small indexes take
        // each way.
        let rowsPerSeek = Double(250 * sampling / PageStrategy.sampleSize)
        if let sparsest = lists.first, sparsest.density * span <= Swift.max(Double(32 * sampling), visits * rowsPerSeek * Double(lists.count))
            || visits > Double(Self.severalWordsVisits.sought) {
            try readSparsest()
        }
        guard visits <= Double(Self.severalWordsVisits.checked) else { return nil }
        var budget = set == nil ? Self.severalWordsVisits.sought : Self.severalWordsVisits.checked
        let sparsestRows = (lists.first?.density ?? 1) * span
        var visited = 0, met = 0
        do {
            return try SearchableIndex.pageByDate(filter: filter, limit: limit, in: db) { id, _ in
                visited += 1
                // Fewer items in every list than their densities said (lists denser at their
                // start, words that go together less often than apart): the set, from here on,
                // once the visits still to come, at the rate met so far, would cost more seeks
                // than reading it does.
                if set == nil, visited > budget || visited % 64 == 0
                    && Double(limit - met) * Double(visited) / Double(Swift.max(met, 1)) * rowsPerSeek * Double(probes.count) > sparsestRows {
                    try readSparsest()
                    budget = Self.severalWordsVisits.checked
                }
                if visited > budget { throw BudgetExceeded() }
                let isMember: Bool
                if candidates.contains(id) {
                    isMember = ranked[id].map { Tier($0) == bound } ?? false
                } else if let set, !set.contains(id) {
                    isMember = false
                } else {
                    isMember = try probes.allSatisfy { try $0.contains(id) }
                }
                if isMember { met += 1 }
                return isMember
            }
        } catch is BudgetExceeded {
            return nil
        }
    }
}
