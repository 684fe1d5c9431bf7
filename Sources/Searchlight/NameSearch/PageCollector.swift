/// The first `limit` results of one rank, offered newest first.
///
/// Items dated like the `limit`-th are all taken, since ties on date are ordered by identifier;
/// the result is then sorted and cut to `limit`.
struct PageCollector {
    let limit: Int
    private var matches: [NameMatch] = []
    private var boundary: Double?

    init(limit: Int) { self.limit = limit }

    /// How many items were offered.
    var count: Int { matches.count }

    /// Whether an item of this date may still belong to the page.
    func wants(_ date: Double) -> Bool { boundary.map { date >= $0 } ?? true }

    mutating func add(_ match: NameMatch) {
        matches.append(match)
        if matches.count == limit { boundary = match.modificationDate }
    }

    /// The page, or `nil` when fewer than `limit` items were offered.
    var result: [NameMatch]? {
        guard boundary != nil else { return nil }
        return Array(matches.sorted().prefix(limit))
    }
}
