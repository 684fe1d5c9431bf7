extension Array where Element == NameMatch {
    /// These matches best first, as `sorted()` orders them, at most `limit` of them.
    ///
    /// Sorting moves small keys that hold no reference, rather than the matches with their
    /// identifiers: identifiers are compared only between matches of equal rank and date.
    func ranked(limit: Int? = nil) -> [NameMatch] {
        var keys = indices.map { RankKey(self[$0], index: $0) }
        withUnsafeBufferPointer { matches in
            keys.sort { lhs, rhs in
                if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
                if lhs.date != rhs.date { return lhs.date > rhs.date }
                return matches[Int(lhs.index)].identifier < matches[Int(rhs.index)].identifier
            }
        }
        return keys.prefix(limit ?? keys.count).map { self[Int($0.index)] }
    }
}

/// What orders a ``NameMatch``, without its identifier: the rank in one number, the date,
/// and where the match is.
private struct RankKey {
    /// The prefix-only words above the field rank: compared as ``NameMatch`` compares them.
    let rank: UInt32
    let date: Double
    let index: Int32

    init(_ match: NameMatch, index: Int) {
        rank = UInt32(match.prefixOnlyCount) << 16 | UInt32(match.fieldRank)
        date = match.modificationDate
        self.index = Int32(index)
    }
}
