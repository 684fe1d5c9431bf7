/// Item row ids for membership tests, kept sorted and searched by halves: the items that have
/// every word whole in their name, which name search asks of each candidate.
///
/// Not a `Set<Int64>`: GRDB's objects hold the same specializations of `Set<Int64>` and the
/// linker keeps theirs, which make the set's storage type from its mangled name and so look
/// `Int64: Hashable` up by scanning the executable's seven thousand conformances, 0.1–0.17 ms
/// of every search with hits (Benchmarks/README.md, "Start-up").
struct RowIDSet: ExpressibleByArrayLiteral {
    private var ids: [Int64]

    init(_ ids: [Int64]) {
        // A full-text query's rows come in row-id order: usually nothing to sort.
        self.ids = ids
        if zip(ids, ids.dropFirst()).contains(where: { $0 > $1 }) { self.ids.sort() }
    }

    init(arrayLiteral ids: Int64...) {
        self.init(ids)
    }

    func contains(_ id: Int64) -> Bool {
        var low = 0, high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id
    }
}
