extension Array where Element == NameMatch {
    /// These matches best first, as `sorted()` orders them, at most `limit` of them.
    ///
    /// The matches are grouped by rank (a query has few), then the places of each group's
    /// matches are sorted newest first (``stablySorted(_:by:)``): identifiers are compared only
    /// between matches of equal rank and date.
    func ranked(limit: Int? = nil) -> [NameMatch] {
        // Keyed by `Int64`, whose `Hashable` conformance name search looks up anyway (``KindTable``).
        var groups: [Int64: [Int]] = [:]
        for index in indices {
            let match = self[index]
            groups[Int64(match.prefixOnlyCount) << 16 | Int64(match.fieldRank), default: []].append(index)
        }
        let count = limit.map { Swift.min($0, self.count) } ?? self.count
        var ranked: [NameMatch] = []
        ranked.reserveCapacity(count)
        withUnsafeBufferPointer { matches in
            for rank in groups.keys.sorted() where ranked.count < count {
                // Newest first; identifiers are compared only between matches of one date.
                let places = Self.stablySorted(groups[rank] ?? []) { lhs, rhs in
                    let left = matches[lhs].modificationDate, right = matches[rhs].modificationDate
                    if left != right { return left > right }
                    return matches[lhs].identifier < matches[rhs].identifier
                }
                for place in places.prefix(count - ranked.count) { ranked.append(matches[place]) }
            }
        }
        return ranked
    }

    /// `places` in the order `precedes` gives, those it does not tell apart in the order they
    /// came (stable, as `sort(by:)` is), by merging runs of doubling width.
    ///
    /// Not the standard library's sort: it keeps its runs in an array of `Range<Int>`, whose
    /// type its code (linked from swift-argument-parser's objects) makes from the type's
    /// mangled name at first use, checking `Int: Comparable` by scanning every conformance
    /// record of the executable: 0.12 ms of every search with more than a few dozen hits.
    static func stablySorted(_ places: [Int], by precedes: (Int, Int) -> Bool) -> [Int] {
        var source = places
        var target = places
        var width = 1
        while width < source.count {
            var start = 0
            while start < source.count {
                let middle = Swift.min(start + width, source.count)
                let end = Swift.min(start + 2 * width, source.count)
                var left = start, right = middle, next = start
                while left < middle && right < end {
                    // The right run's place goes first only when it comes strictly before.
                    if precedes(source[right], source[left]) {
                        target[next] = source[right]
                        right += 1
                    } else {
                        target[next] = source[left]
                        left += 1
                    }
                    next += 1
                }
                while left < middle { target[next] = source[left]; left += 1; next += 1 }
                while right < end { target[next] = source[right]; right += 1; next += 1 }
                start = end
            }
            swap(&source, &target)
            width *= 2
        }
        return source
    }
}
