import Foundation
import GRDB

extension ContentSearch {
    /// A rank of the full ranking: words matched only as a prefix, then the sum of the words'
    /// field ranks (``NameMatch``); every match of one rank is ordered newest first, then by
    /// identifier, except the text tier's (every word whole, in the text only), which
    /// ``TextRelevance`` orders when it is small enough to score.
    struct Tier: Hashable, Comparable {
        var prefixOnly: Int
        var fieldRank: Int

        init(prefixOnly: Int, fieldRank: Int) {
            self.prefixOnly = prefixOnly
            self.fieldRank = fieldRank
        }

        init(_ match: Match) {
            self.init(prefixOnly: match.rank.prefixOnlyCount, fieldRank: match.rank.fieldRank)
        }

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
    ///    as there.
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
    func tieredMatches(limit: Int) throws -> [Match]? {
        guard limit > 0, !hasCJK else { return nil }
        let textRank = Self.textRank * tokens.count
        var explicit = try richMatches()
        // Every other match: each word in the text only, as ``allMatches()`` takes them.
        let textOnly = try rowIDs("item_content", textExpression(whole: false)).filter { explicit[$0] == nil }
        var byPrefixOnly: [Int: Set<Int64>] = [:]
        if tokens.count == 1 {
            let whole = Set(try rowIDs("item_content", textExpression(whole: true)))
            for id in textOnly { byPrefixOnly[whole.contains(id) ? 0 : 1, default: []].insert(id) }
        } else {
            let wholeByToken = try tokens.map { Set(try rowIDs("item_content", "text : " + Self.term($0, whole: true))) }
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
        }
        let richByTier = Dictionary(grouping: explicit.values, by: Tier.init)
        var tiers = Set(richByTier.keys)
        for (prefixOnly, ids) in byPrefixOnly where !ids.isEmpty {
            tiers.insert(Tier(prefixOnly: prefixOnly, fieldRank: textRank))
        }
        var page: [Match] = []
        for tier in tiers.sorted() {
            let needed = limit - page.count
            guard needed > 0 else { break }
            let rich = richByTier[tier] ?? []
            let text = tier.fieldRank == textRank ? byPrefixOnly[tier.prefixOnly] ?? [] : []
            if tier == Tier(prefixOnly: 0, fieldRank: textRank), rich.count + text.count > 1, let scored = try textTier() {
                // Few enough to score (`text` is among the scored): the whole tier, by relevance.
                let members = try Self.sorted(rich + admitted(Array(text), in: tier))
                page += TextRelevance.ordered(members, by: scored.scores, id: \.rank.id).prefix(needed)
            } else if text.count > Swift.max(Self.sortedTierLimit, needed),
                      let newest = try SearchableIndex.pageByDate(filter: filter, limit: needed, in: db, isMember: { id, _ in
                          text.contains(id)
                      }) {
                let walked = newest.map { Match(rank: Self.ranked($0, in: tier), matchedIn: .content) }
                page += Self.sorted(rich + walked).prefix(needed)
            } else {
                // Few, or the walk met fewer than the page needs (items not admitted, or
                // undated: the date index holds dated items only): every one is looked up.
                page += try Self.sorted(rich + admitted(Array(text), in: tier)).prefix(needed)
            }
        }
        return page
    }

    /// The items `ids` that the filter admits, as text matches of `tier`.
    private func admitted(_ ids: [Int64], in tier: Tier) throws -> [Match] {
        var matches: [Match] = []
        try forEachAdmitted(ids) { id, identifier, date in
            matches.append(Match(rank: NameMatch(id: id, identifier: identifier, modificationDate: date,
                                                 prefixOnlyCount: tier.prefixOnly, fieldRank: tier.fieldRank),
                                 matchedIn: .content))
        }
        return matches
    }

    /// `match` (met on the date index) with the rank of `tier`.
    private static func ranked(_ match: NameMatch, in tier: Tier) -> NameMatch {
        NameMatch(id: match.id, identifier: match.identifier, modificationDate: match.modificationDate,
                  prefixOnlyCount: tier.prefixOnly, fieldRank: tier.fieldRank)
    }
}
