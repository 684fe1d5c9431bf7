import Foundation
import GRDB
import GRDBSQLite

extension ContentSearch {
    /// A rank of the full ranking: words matched only as a prefix, then the sum of the words'
    /// field ranks (``NameMatch``); every match of one rank is ordered newest first, then by
    /// identifier, except the text tier's (every word whole, in the text only), which
    /// ``TextRelevance`` orders when it is small enough to score.
    struct Tier: Hashable, Comparable {
        /// How many words the items match only as a prefix, nowhere whole.
        var prefixOnly: Int
        /// The sum of the words' field ranks: 0 for the name, 1 the title, 2 keywords and authors,
        /// 3 folders, ``ContentSearch/textRank`` the text.
        var fieldRank: Int

        /// The tier of items that match `prefixOnly` words only as a prefix, their words' field
        /// ranks summing to `fieldRank`.
        init(prefixOnly: Int, fieldRank: Int) {
            self.prefixOnly = prefixOnly
            self.fieldRank = fieldRank
        }

        /// The tier `match` ranks in.
        init(_ match: Match) {
            self.init(prefixOnly: match.rank.prefixOnlyCount, fieldRank: match.rank.fieldRank)
        }

        /// Whether `lhs` ranks before `rhs`: fewer prefix-only words, then the smaller sum of field ranks.
        static func < (lhs: Tier, rhs: Tier) -> Bool {
            (lhs.prefixOnly, lhs.fieldRank) < (rhs.prefixOnly, rhs.fieldRank)
        }
    }

    /// How many text-only items of one tier are looked up and sorted at most; more are met
    /// walking the date index newest first, each checked against the tier's set (a lookup in
    /// the table costs about what six date-index entries do, ``PageStrategy``).
    static let sortedTierLimit = PageStrategy.sampleSize

    /// The first `limit` matches, read tier by tier: exactly the first `limit` of
    /// ``allMatches()``, without looking up every text-only match. `nil` when that cannot be
    /// told without ranking every match (Han and kana words, compounds: checked on the stored
    /// text), or for a limit of 0.
    ///
    /// A prefix that starts a word of nearly every text (`a`, `al`, `z` on half a million
    /// notes holding `alpha` and `zulu`) matches every item; few of them match a name, title,
    /// keywords, author or folder. So:
    ///
    /// 1. The items with some word in those rich fields (``richMatches(among:)``) are ranked
    ///    exactly on their fields, as the full ranking ranks them; phrases in the text promote
    ///    as there. When they are many (a letter that starts a telling keyword of half the
    ///    texts), they are grouped by the rank the full-text columns holding their words tell
    ///    (``claimedTiers(of:)``), and only those a page takes are ranked on their fields, which
    ///    must agree (else every match is ranked).
    /// 2. Every other match has every word in its text only: its rank is the text's,
    ///    `(p, 4 × words)` where `p` counts the words its text holds only as a prefix. Their
    ///    sets, one per `p`, come from the full-text lists alone (one read of each word's
    ///    list, as ``count()`` reads them): nothing is looked up in the item table.
    /// 3. The tiers are taken in rank order until the page is full. A tier's rich items are
    ///    all known; of its text-only items, a few are looked up and sorted, many are met newest
    ///    first walking the date index (``SearchableIndex/pageByDate(filter:limit:in:isMember:)``)
    ///    until the page's remainder is found (items dated like the last are all taken, then
    ///    ordered by identifier, as ``NameMatch`` orders them). The text tier with every word
    ///    whole, when small enough to score (``TextRelevance/maximumScored``), is read whole and
    ///    ordered by relevance, as ``allMatches()`` orders it.
    ///
    /// A page of 20 then costs the full-text lists of the words and about 20 item look-ups
    /// (plus the rich items), where ranking every match looked up every item.
    ///
    /// Each word's lists are read once with their columns (``readLists(of:)``), serving every
    /// later question of them, for one word or when more than ``seekLimit`` items have every
    /// word (``everyWord()``); with fewer (`note 7 42 5`), the candidates are sought one by one
    /// and the text-only items come from the conjunction of the words in the text.
    ///
    /// - Parameters:
    ///   - limit: The size of the page.
    ///   - ranked: How many rich candidates are ranked one by one at most (more are grouped
    ///     by their columns first): for tests.
    ///   - sorted: How many items of a tier are looked up and sorted at most (more are met on
    ///     the date index): for tests.
    /// - Returns: Exactly the first `limit` of ``allMatches()`` (all of them when fewer), or `nil`.
    /// - Throws: A `DatabaseError` when a read fails.
    func tieredMatches(limit: Int, rankingAtMost ranked: Int = Self.sortedTierLimit,
                       sortingAtMost sorted: Int = Self.sortedTierLimit) throws -> [Match]? {
        guard limit > 0, !hasCJK else { return nil }
        // Each word's lists once, where the page reads them whole: one word, or words that
        // many items have together (few are sought one by one instead, `note 7 42 5`).
        let readsWhole = try tokens.count == 1 || everyWord().count > Self.seekLimit
        if readsWhole { for token in tokens { try readLists(of: token) } }
        let textRank = Self.textRank * tokens.count
        let candidates = try richCandidates(whole: false)
        // Many rich candidates (a letter that starts a telling keyword of half the texts) are
        // grouped by the rank their full-text columns tell; only those a page takes are read.
        var explicit: [Int64: Match] = [:]
        var claimed: [Tier: RowSet] = [:]
        if candidates.count <= ranked {
            explicit = try richMatches(among: candidates)
        } else {
            claimed = try claimedTiers(of: candidates)
        }
        // Every other match: each word in the text only, as ``allMatches()`` takes them.
        // Each word's text list read whole, intersected (`text : ("alpha"* AND "zulu"*)` would
        // read them again); else the conjunction, which FTS5 reads skipping what one word lacks.
        var textOnly = try readsWhole
            ? tokens.dropFirst().reduce(try rowIDs("item_content", "text : " + Self.term(tokens[0], whole: false))) {
                $0.intersection(try rowIDs("item_content", "text : " + Self.term($1, whole: false)))
            }
            : rowIDs("item_content", textExpression(whole: false))
        if !claimed.isEmpty { textOnly.subtract(candidates) }
        textOnly.subtract(explicit.keys)
        var byPrefixOnly: [Int: RowSet] = [:]
        let wholeByToken = try tokens.map { try rowIDs("item_content", "text : " + Self.term($0, whole: true)) }
        if let whole = wholeByToken.first, wholeByToken.count == 1 {
            // One word: its whole matches and the rest, two operations on the bits.
            byPrefixOnly = [0: textOnly.intersection(whole), 1: textOnly.subtracting(whole)]
        } else {
            for id in textOnly {
                byPrefixOnly[wholeByToken.reduce(0) { $0 + ($1.contains(id) ? 0 : 1) }, default: []].insert(id)
            }
        }
        // Items whose text holds the words as a phrase rank as a title match would.
        if let holders = try phraseHolders() {
            var moved: [Int64] = []
            for id in holders {
                if let match = explicit[id] {
                    explicit[id] = promoted(match)
                } else if byPrefixOnly[0]?.remove(id) != nil {
                    moved.append(id)
                }
            }
            for match in try admitted(moved, in: Tier(prefixOnly: 0, fieldRank: textRank)) {
                explicit[match.rank.id] = promoted(match)
            }
            let claimedHolders = holders.filter { id in claimed.values.contains { $0.contains(id) } }
            for (id, match) in try richMatches(among: RowSet(claimedHolders)) { explicit[id] = promoted(match) }
            for tier in claimed.keys { claimed[tier]?.subtract(claimedHolders) }
        }
        let richByTier = Dictionary(grouping: explicit.values, by: Tier.init)
        var tiers = Set(richByTier.keys)
        for (tier, ids) in claimed where !ids.isEmpty { tiers.insert(tier) }
        for (prefixOnly, ids) in byPrefixOnly where !ids.isEmpty {
            tiers.insert(Tier(prefixOnly: prefixOnly, fieldRank: textRank))
        }
        var page: [Match] = []
        for tier in tiers.sorted() {
            let needed = limit - page.count
            guard needed > 0 else { break }
            let rich = richByTier[tier] ?? []
            let text = tier.fieldRank == textRank ? byPrefixOnly[tier.prefixOnly] ?? [] : []
            let unranked = claimed[tier] ?? []
            let scored = tier == Tier(prefixOnly: 0, fieldRank: textRank) ? try textTier() : nil
            if let scored, rich.count + text.count + unranked.count > 1 {
                // Few enough to score (`text` is among the scored): the whole tier, by relevance.
                guard let ranked = try exactly(unranked, in: tier) else { return nil }
                let members = try Self.sorted(rich + ranked + admitted(Array(text), in: tier))
                page += TextRelevance.ordered(members, by: scored.scores, id: \.rank.id).prefix(needed)
            } else if text.count + unranked.count > Swift.max(sorted, needed),
                      let newest = try SearchableIndex.pageByDate(filter: filter, limit: needed, in: db, isMember: { id, _ in
                          text.contains(id) || unranked.contains(id)
                      }) {
                let walked = newest.filter { text.contains($0.id) }.map { Match(rank: Self.ranked($0, in: tier), matchedIn: .content) }
                guard let ranked = try exactly(RowSet(newest.lazy.map(\.id).filter(unranked.contains)), in: tier) else { return nil }
                page += Self.sorted(rich + ranked + walked).prefix(needed)
            } else {
                // Few, or the walk met fewer than the page needs (items not admitted, or
                // undated: the date index holds dated items only): every one is looked up.
                guard let ranked = try exactly(unranked, in: tier) else { return nil }
                page += try Self.sorted(rich + ranked + admitted(Array(text), in: tier)).prefix(needed)
            }
        }
        return page
    }

    /// The rank of each of `candidates` told by the full-text columns its words are in, in
    /// groups: for each word, the best of name (0), title (1), keywords and authors (2),
    /// folders (3), text (4), whole before prefix, as ``richMatches(among:)`` ranks them on
    /// the fields' bytes, which the columns hold as words (one tokenizer makes both). Those a
    /// page takes are ranked on their bytes again (``exactly(_:in:)``).
    ///
    /// A word of one term is read once in each full-text table, whole and as a prefix, with
    /// the columns each row holds it in (``PhraseColumns``); another (a word FTS5 reads as
    /// several terms) once for each column.
    ///
    /// The tiers are gathered in a flat array of sets, one slot per pair of prefix-only words
    /// and field-rank sum: only the tiers that hold a candidate are made into ``Tier`` keys.
    ///
    /// - Parameter candidates: The rich candidates (``richCandidates(whole:)``), too many to rank
    ///   one by one.
    /// - Returns: The candidates by tier; a candidate in whose columns some word is missing is in
    ///   none. Domain and expiration are not checked here (``exactly(_:in:)`` checks them).
    /// - Throws: A `DatabaseError` when a read fails.
    private func claimedTiers(of candidates: RowSet) throws -> [Tier: RowSet] {
        let ranks = try tokens.map { try columnRanks(of: $0) }
        // A tier is a slot of a flat array (`prefixOnly × ranks + fieldRank`): hashing a tier
        // for each of half a million candidates cost more than reading their ranks.
        let fieldRanks = Self.textRank * tokens.count + 1
        var slots = [RowSet](repeating: [], count: (tokens.count + 1) * fieldRanks)
        candidates: for id in candidates {
            var prefixOnly = 0, fieldRank = 0
            for word in ranks {
                guard let rank = word[id] else { continue candidates }
                fieldRank += Int(rank.rank)
                if rank.prefixOnly { prefixOnly += 1 }
            }
            slots[prefixOnly * fieldRanks + fieldRank].insert(id)
        }
        var tiers: [Tier: RowSet] = [:]
        for (slot, ids) in slots.enumerated() where !ids.isEmpty {
            tiers[Tier(prefixOnly: slot / fieldRanks, fieldRank: slot % fieldRanks)] = ids
        }
        return tiers
    }

    /// ``columnRanks(of:)`` for a word FTS5 reads as several terms: column by column.
    ///
    /// Costs two reads (whole, then as a prefix) of six lists: name, title, keywords and folders in
    /// `item_words`, authors and text in `item_content`; each kept for the search (``rowIDs(_:_:)``).
    ///
    /// - Parameter token: One folded query word (a compound, or Han and kana).
    /// - Returns: Each row that holds the word in some column, with its best rank there: name 0,
    ///   title 1, keywords and authors 2, folders 3, text ``textRank``; a whole match before a prefix.
    /// - Throws: A `DatabaseError` when a read fails.
    func columnRanksByColumn(of token: String) throws -> RowRanks {
        let columns = ["name", "title", "keywords", "folders"]
        var ranks = try newRowRanks()
        for whole in [true, false] {
            var found = try columns.indices.map { (UInt8($0), try rowIDs("item_words", columns[$0] + " : " + SearchableIndex.nameTerm(token, whole: whole))) }
            found.append((2, try rowIDs("item_content", "authors : " + SearchableIndex.nameTerm(token, whole: whole))))
            found.append((UInt8(Self.textRank), try rowIDs("item_content", "text : " + Self.term(token, whole: whole))))
            for (rank, ids) in found {
                for id in ids { ranks.offer(RowRanks.Rank(rank: rank, prefixOnly: !whole), for: id) }
            }
        }
        return ranks
    }

    /// Ranks for every row of the index.
    ///
    /// Sized for the largest row id of `item` (one seek to the end of the table), so that the ranks
    /// of rows up to ``RowRanks/denseLimit`` are kept by row id without hashing.
    func newRowRanks() throws -> RowRanks {
        RowRanks(largest: try db.readStatement("SELECT coalesce(max(id), 0) FROM item").firstRow { sqlite3_column_int64($0, 0) } ?? 0)
    }

    /// `ids`, rich candidates grouped in `tier` by their columns, ranked on their fields'
    /// bytes (those the filter admits); `nil` when one ranks otherwise, and the page is then
    /// left to the full ranking.
    ///
    /// Costs what ``richMatches(among:lookingInText:seekingAtMost:)`` costs for `ids`; nothing
    /// for none.
    ///
    /// - Returns: The matches of `ids` the filter admits, in no order; empty for no `ids`.
    private func exactly(_ ids: RowSet, in tier: Tier) throws -> [Match]? {
        guard !ids.isEmpty else { return [] }
        let ranked = try richMatches(among: ids)
        return ranked.values.allSatisfy { Tier($0) == tier } ? Array(ranked.values) : nil
    }

    /// The items `ids` that the filter admits, as text matches of `tier`.
    ///
    /// One statement over their item rows (``forEachAdmitted(_:_:)``), in SQLite's order; each
    /// match says it matched in the text (`.content`).
    ///
    /// - Parameters:
    ///   - ids: Row ids of items known to be of `tier`, by the full-text lists alone.
    ///   - tier: The rank every match is given, unchecked.
    /// - Returns: A match for each admitted item; ids without an item row are left out.
    func admitted(_ ids: [Int64], in tier: Tier) throws -> [Match] {
        var matches: [Match] = []
        try forEachAdmitted(ids) { id, identifier, date in
            matches.append(Match(rank: NameMatch(id: id, identifier: identifier, modificationDate: date,
                                                 prefixOnlyCount: tier.prefixOnly, fieldRank: tier.fieldRank),
                                 matchedIn: .content))
        }
        return matches
    }

    /// `match` (met on the date index) with the rank of `tier`.
    ///
    /// ``SearchableIndex/pageByDate(filter:limit:in:isMember:)`` gives its items the best rank;
    /// this gives them the rank of the tier their lists told.
    private static func ranked(_ match: NameMatch, in tier: Tier) -> NameMatch {
        NameMatch(id: match.id, identifier: match.identifier, modificationDate: match.modificationDate,
                  prefixOnlyCount: tier.prefixOnly, fieldRank: tier.fieldRank)
    }
}
