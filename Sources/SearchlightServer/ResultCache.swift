import Synchronization

/// The bodies of recent `/api/search` and `/api/query` answers, by request, for as long as
/// the index has not changed: people who type into the search box ask for the same prefixes
/// (`r`, `re`, `rep`…) again and again, and each costs a ranked search and the JSON of its
/// page. An answer is kept with the index's change marker (``Searchlight/IndexReader/changeMarker()``)
/// read before it was computed, and given again only while the marker is the same and for
/// at most ``maximumAge`` (a search may name relative dates: `date:today`, the page's `date`
/// filter). The oldest answers go first when the answers exceed ``capacity`` bytes.
///
/// An answer is given again only to the reader it was computed for (the server's index, or a
/// signed-in person's), which the entry holds: a key made of the reader's address alone gave
/// one person's cached answer to another whose store, made after the first's was closed,
/// had the same address.
final class ResultCache: Sendable {
    private struct Entry {
        var body: [UInt8]
        var marker: [Int64]
        var stored: ContinuousClock.Instant
        /// The reader the answer was computed for, held so that no other can take its address.
        var reader: any AnyObject & Sendable
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Keys, oldest first.
        var order: [String] = []
        var bytes = 0
    }

    /// Bytes of bodies kept at most; 0 keeps none.
    let capacity: Int
    /// How long an answer may be given again, even if the index did not change.
    let maximumAge: Duration
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    init(capacity: Int, maximumAge: Duration = .seconds(10)) {
        self.capacity = capacity
        self.maximumAge = maximumAge
    }

    var isEnabled: Bool { capacity > 0 }

    /// The body kept for `key` and `reader`, if the index's marker is still `marker` and it is recent.
    func body(for key: String, reader: any AnyObject & Sendable, marker: [Int64]) -> [UInt8]? {
        let now = clock.now
        return state.withLock { state in
            guard let entry = state.entries[key], entry.reader === reader, entry.marker == marker,
                  now - entry.stored < maximumAge else { return nil }
            return entry.body
        }
    }

    /// Keeps `body` for `key`, computed by `reader` after the index's marker read `marker`.
    func store(_ body: [UInt8], for key: String, reader: any AnyObject & Sendable, marker: [Int64]) {
        guard body.count <= capacity / 8 else { return }
        let now = clock.now
        state.withLock { state in
            if let old = state.entries.updateValue(Entry(body: body, marker: marker, stored: now, reader: reader), forKey: key) {
                state.bytes -= old.body.count
                state.order.removeAll { $0 == key }
            }
            state.bytes += body.count
            state.order.append(key)
            while state.bytes > capacity, !state.order.isEmpty {
                if let entry = state.entries.removeValue(forKey: state.order.removeFirst()) { state.bytes -= entry.body.count }
            }
        }
    }
}
