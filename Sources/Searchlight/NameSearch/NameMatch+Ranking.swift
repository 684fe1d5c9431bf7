extension Array where Element == NameMatch {
    /// These matches best first, as `sorted()` orders them, at most `limit` of them.
    ///
    /// The matches are grouped by rank (a query has few), then each group is sorted newest
    /// first on small keys that hold no reference: identifiers are compared only between
    /// matches of equal rank and date.
    func ranked(limit: Int? = nil) -> [NameMatch] {
        // Keyed by `Int64`, whose `Hashable` conformance name search looks up anyway (``KindTable``).
        var groups: [Int64: [DateKey]] = [:]
        for index in indices {
            let match = self[index]
            groups[Int64(match.prefixOnlyCount) << 16 | Int64(match.fieldRank), default: []]
                .append(DateKey(date: match.modificationDate, index: index))
        }
        let count = limit.map { Swift.min($0, self.count) } ?? self.count
        var ranked: [NameMatch] = []
        ranked.reserveCapacity(count)
        withUnsafeBufferPointer { matches in
            for rank in groups.keys.sorted() where ranked.count < count {
                var keys = groups[rank] ?? []
                // Stable, as `sorted()` is: matches alike in every respect keep their order.
                keys.sort { lhs, rhs in
                    if lhs.date != rhs.date { return lhs.date > rhs.date }
                    return matches[lhs.index].identifier < matches[rhs.index].identifier
                }
                for key in keys.prefix(count - ranked.count) { ranked.append(matches[key.index]) }
            }
        }
        return ranked
    }
}

/// What orders matches of one rank, and where the match is.
private struct DateKey {
    let date: Double
    let index: Int
}
