/// The row ids of a full-text match, read once, for membership tests: while the date index is
/// walked, and for the items that have every word whole in their name, which name search asks
/// of each candidate.
///
/// FTS5 returns a match's rows in ascending row-id order, so the ids are kept in an array as
/// they come and found by binary search: appending costs nothing per id, where a `Set`
/// hashed and inserted every one (a served search reads thousands of members). Nor does a
/// search make a `Set<Int64>` at all: GRDB's objects hold the same specializations of its code
/// and the linker keeps theirs, which make the set's storage type from its mangled name and so
/// look `Int64: Hashable` up by scanning the executable's seven thousand conformances, 0.1–0.17
/// ms of every search with hits (Benchmarks/README.md, "Start-up").
struct MemberIDs: ExpressibleByArrayLiteral {
    private var ids: [Int64]
    private var isSorted = true

    /// Starts with `ids` (the sample already read).
    init(_ ids: [Int64]) {
        self.init(reserving: Swift.max(ids.count * 4, 4096))
        for id in ids { append(id) }
    }

    /// All the ids at once, finished (no room kept for more).
    static func finished(_ ids: [Int64]) -> MemberIDs {
        var members = MemberIDs(reserving: 0)
        for id in ids { members.append(id) }
        members.finish()
        return members
    }

    init(arrayLiteral ids: Int64...) {
        self = .finished(ids)
    }

    private init(reserving capacity: Int) {
        ids = []
        ids.reserveCapacity(capacity)
    }

    mutating func append(_ id: Int64) {
        if let last = ids.last, id <= last { isSorted = false }
        ids.append(id)
    }

    /// Sorts the ids if they did not come in order (never, from FTS5: a safety net).
    mutating func finish() {
        if !isSorted {
            ids.sort()
            isSorted = true
        }
    }

    /// Whether `id` is a member; ``finish()`` first.
    func contains(_ id: Int64) -> Bool {
        precondition(isSorted, "MemberIDs.finish() was not called")
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id
    }
}
