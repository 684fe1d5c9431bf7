/// Candidate spellings (``SpellingNeighbors``) written one after another as UTF-8 bytes, each
/// once, and found again by their bytes: a search with no hit makes a few hundred of them at
/// every start and looks the vocabulary's terms up among them as SQLite hands them over, so
/// neither a string for each candidate nor a set of strings (whose hashing and whose type,
/// made at first use, cost more than the look-ups) is needed.
package struct SpellingList {
    /// The candidates' bytes, one after another.
    private var bytes: [UInt8] = []
    /// Where each candidate ends in ``bytes``.
    private var ends: [Int] = []
    /// An open-addressing table of candidate numbers by the hash of their bytes, `-1` where
    /// empty; its size a power of two, at most half full.
    private var slots = [Int32](repeating: -1, count: 64)

    package var count: Int { ends.count }
    package var isEmpty: Bool { ends.isEmpty }

    /// The bytes of candidate `index`.
    package func bytes(_ index: Int) -> ArraySlice<UInt8> {
        bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Candidate `index` as a string.
    package func string(_ index: Int) -> String {
        String(decoding: bytes(index), as: UTF8.self)
    }

    /// The candidates as strings, in the order they were added.
    package var strings: [String] { ends.indices.map(string) }

    /// The number of the candidate spelled `spelling`, `nil` when there is none.
    package func index(of spelling: UnsafeBufferPointer<UInt8>) -> Int? {
        var slot = Self.hash(spelling) & (slots.count - 1)
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if bytes(index).elementsEqual(spelling) { return index }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Adds what `write` appends to the bytes as a candidate, unless it is one already or
    /// is `excluded` (the word itself).
    mutating func add(except excluded: [UInt8], _ write: (inout [UInt8]) -> Void) {
        let start = ends.last ?? 0
        write(&bytes)
        let isNew = bytes.withUnsafeBufferPointer { written in
            let spelling = UnsafeBufferPointer(rebasing: written[start...])
            return !spelling.elementsEqual(excluded) && index(of: spelling) == nil
        }
        guard isNew else {
            bytes.removeSubrange(start...)
            return
        }
        ends.append(bytes.count)
        if ends.count * 2 > slots.count { rehash(slots.count * 2) } else { insert(ends.count - 1) }
    }

    private mutating func insert(_ index: Int) {
        let hash = bytes.withUnsafeBufferPointer { Self.hash(UnsafeBufferPointer(rebasing: $0[(index == 0 ? 0 : ends[index - 1])..<ends[index]])) }
        var slot = hash & (slots.count - 1)
        while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = Int32(index)
    }

    private mutating func rehash(_ size: Int) {
        slots = [Int32](repeating: -1, count: size)
        for index in ends.indices { insert(index) }
    }

    /// ``FNV1a`` of the bytes: candidates differ by a letter or two, which it spreads well
    /// enough for a table at most half full.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let hash = FNV1a.hash(bytes)
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
