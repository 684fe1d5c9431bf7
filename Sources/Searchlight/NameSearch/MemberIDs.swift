/// The row ids of a full-text match, read once, for membership tests while the date index is
/// walked.
///
/// FTS5 returns a match's rows in ascending row-id order, so the ids are kept in an array as
/// they come and found by binary search: appending costs nothing per id, where a `Set`
/// hashed and inserted every one (a served search reads thousands of members).
struct MemberIDs {
    private var ids: [Int64]
    private var isSorted = true

    /// Starts with `ids` (the sample already read).
    init(_ ids: [Int64]) {
        self.ids = []
        self.ids.reserveCapacity(Swift.max(ids.count * 4, 4096))
        for id in ids { append(id) }
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
