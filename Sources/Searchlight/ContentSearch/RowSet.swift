/// A set of row numbers (`item.id`, a full-text table's `rowid`) as a bit per row: what one
/// search reads from its words' full-text lists and intersects (``ContentSearch``).
///
/// Rows are numbered from 1, densely but for the gaps deletions leave, so a bit per row up to
/// the largest is small (500 000 rows: 61 KiB) and is written, tested and intersected without
/// hashing: a `Set<Int64>` of every note matching `a` spent more on its hashes and growth than
/// FTS5 spent reading the list. Row numbers past ``denseLimit`` are kept in a `Set` beside.
/// Iteration is in ascending order, as FTS5 gives its rows.
struct RowSet: Sequence, Equatable, ExpressibleByArrayLiteral {
    /// The largest row number kept as a bit (2 MiB of bits).
    static let denseLimit: Int64 = 1 << 24

    private var words: [UInt64] = []
    private var sparse: Set<Int64> = []
    /// How many rows the set holds.
    private(set) var count = 0

    /// An empty set.
    init() {}

    /// The set of `ids`.
    init(_ ids: some Sequence<Int64>) {
        for id in ids { insert(id) }
    }

    init(arrayLiteral ids: Int64...) {
        self.init(ids)
    }

    /// Whether the set holds no row.
    var isEmpty: Bool { count == 0 }

    /// Whether row `id` is in the set.
    func contains(_ id: Int64) -> Bool {
        guard id >= 0, id < Self.denseLimit else { return sparse.contains(id) }
        let word = Int(id >> 6)
        return word < words.count && words[word] & (1 << UInt64(id & 63)) != 0
    }

    /// Adds row `id`; returns whether it was not in the set.
    @discardableResult
    mutating func insert(_ id: Int64) -> Bool {
        guard id >= 0, id < Self.denseLimit else {
            let inserted = sparse.insert(id).inserted
            if inserted { count += 1 }
            return inserted
        }
        let word = Int(id >> 6), bit: UInt64 = 1 << UInt64(id & 63)
        if word >= words.count {
            // Doubling as an array does, so rows inserted in ascending order cost O(1) each:
            // asking for twice the count at every new word (not only when the capacity is
            // short) copied the whole set each time, 13 % of a search on 500 000 notes.
            if word >= words.capacity { words.reserveCapacity(Swift.max(word + 1, words.capacity * 2)) }
            words.append(contentsOf: repeatElement(0, count: word + 1 - words.count))
        }
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        count += 1
        return true
    }

    /// Removes row `id`; returns whether it was in the set.
    @discardableResult
    mutating func remove(_ id: Int64) -> Bool {
        guard id >= 0, id < Self.denseLimit else {
            let removed = sparse.remove(id) != nil
            if removed { count -= 1 }
            return removed
        }
        let word = Int(id >> 6), bit: UInt64 = 1 << UInt64(id & 63)
        guard word < words.count, words[word] & bit != 0 else { return false }
        words[word] &= ~bit
        count -= 1
        return true
    }

    /// Adds every row of `other`.
    mutating func formUnion(_ other: RowSet) {
        if other.words.count > words.count {
            words.append(contentsOf: repeatElement(0, count: other.words.count - words.count))
        }
        for index in other.words.indices { words[index] |= other.words[index] }
        sparse.formUnion(other.sparse)
        recount()
    }

    /// Adds every row of `ids`.
    mutating func formUnion(_ ids: some Sequence<Int64>) {
        for id in ids { insert(id) }
    }

    /// Keeps only the rows that `other` holds too.
    mutating func formIntersection(_ other: RowSet) {
        if words.count > other.words.count { words.removeLast(words.count - other.words.count) }
        for index in words.indices { words[index] &= other.words[index] }
        sparse.formIntersection(other.sparse)
        recount()
    }

    /// Removes every row of `other`.
    mutating func subtract(_ other: RowSet) {
        for index in 0..<Swift.min(words.count, other.words.count) { words[index] &= ~other.words[index] }
        sparse.subtract(other.sparse)
        recount()
    }

    /// Removes every row of `ids`.
    mutating func subtract(_ ids: some Sequence<Int64>) {
        for id in ids { remove(id) }
    }

    /// The rows of this set or of `other`.
    func union(_ other: RowSet) -> RowSet {
        var union = self
        union.formUnion(other)
        return union
    }

    /// The rows of this set that `other` holds too.
    func intersection(_ other: RowSet) -> RowSet {
        var intersection = self
        intersection.formIntersection(other)
        return intersection
    }

    /// The rows of this set that `other` does not hold.
    func subtracting(_ other: RowSet) -> RowSet {
        var difference = self
        difference.subtract(other)
        return difference
    }

    private mutating func recount() {
        count = sparse.count + words.reduce(0) { $0 + $1.nonzeroBitCount }
    }

    static func == (lhs: RowSet, rhs: RowSet) -> Bool {
        lhs.count == rhs.count && lhs.sparse == rhs.sparse && lhs.allSatisfy(rhs.contains)
    }

    /// The rows in ascending order (those past ``denseLimit`` last, ascending too).
    func makeIterator() -> Iterator {
        Iterator(words: words, sparse: sparse.sorted())
    }

    var underestimatedCount: Int { count }

    /// Walks the bits word by word, each word's set bits lowest first.
    struct Iterator: IteratorProtocol {
        fileprivate let words: [UInt64]
        fileprivate let sparse: [Int64]
        private var index = 0
        private var word: UInt64 = 0
        private var sparseIndex = 0

        fileprivate init(words: [UInt64], sparse: [Int64]) {
            self.words = words
            self.sparse = sparse
            word = words.first ?? 0
        }

        mutating func next() -> Int64? {
            while word == 0 {
                index += 1
                guard index < words.count else {
                    guard sparseIndex < sparse.count else { return nil }
                    sparseIndex += 1
                    return sparse[sparseIndex - 1]
                }
                word = words[index]
            }
            let bit = word.trailingZeroBitCount
            word &= word - 1
            return Int64(index << 6 | bit)
        }
    }
}
