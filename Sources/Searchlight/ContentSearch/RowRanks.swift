/// Where a word ranks best in each row of the index (``ContentSearch/columnRanks(of:)``):
/// for a word of a search that matches most of the index, an entry per row.
///
/// Rows are numbered from 1 (`item.id`), densely but for the gaps deletions leave: the ranks
/// are a byte per row up to the largest, read and written without hashing, where a dictionary
/// of half a million rows spent more on its hashes and growth than the full-text lists cost
/// to read. Row numbers past ``denseLimit`` are kept in a dictionary.
struct RowRanks {
    /// Where a word ranks best in a row: its field's rank, and whether only as a prefix.
    struct Rank: Equatable, Comparable {
        var rank: UInt8
        var prefixOnly: Bool

        /// A whole word before a prefix, then the field's rank.
        fileprivate var code: UInt8 { (prefixOnly ? 16 : 0) | rank }

        fileprivate init(code: UInt8) {
            rank = code & 15
            prefixOnly = code & 16 != 0
        }

        init(rank: UInt8, prefixOnly: Bool) {
            self.rank = rank
            self.prefixOnly = prefixOnly
        }

        static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.code < rhs.code }
    }

    /// The largest row number kept in a byte per row (4 MiB).
    static let denseLimit: Int64 = 1 << 22

    /// `code + 1` of each row's rank; 0 where the word is not.
    private var dense: [UInt8]
    private var sparse: [Int64: Rank] = [:]

    /// Ranks of rows numbered up to `largest` (a larger one too, kept apart).
    init(largest: Int64) {
        dense = [UInt8](repeating: 0, count: Int(Swift.min(Swift.max(largest, 0), Self.denseLimit)) + 1)
    }

    /// The word's rank in row `id`; `nil` where it is not.
    subscript(id: Int64) -> Rank? {
        if id >= 0, id < dense.count {
            let code = dense[Int(id)]
            return code == 0 ? nil : Rank(code: code - 1)
        }
        return sparse[id]
    }

    /// Takes `rank` for row `id` where it is better than the rank known.
    mutating func offer(_ rank: Rank, for id: Int64) {
        if id >= 0, id < dense.count {
            let code = rank.code + 1, known = dense[Int(id)]
            if known == 0 || code < known { dense[Int(id)] = code }
        } else if sparse[id].map({ rank < $0 }) ?? true {
            sparse[id] = rank
        }
    }

    /// Every row's rank (for tests).
    var all: [Int64: Rank] {
        var all = sparse
        for id in dense.indices where dense[id] != 0 { all[Int64(id)] = Rank(code: dense[id] - 1) }
        return all
    }
}
