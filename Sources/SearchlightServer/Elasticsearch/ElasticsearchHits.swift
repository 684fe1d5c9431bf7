import Searchlight
import Synchronization

/// The hits of recent searches of the Elasticsearch endpoint, so that the pages Samba asks
/// one after the other for one Spotlight search (`from` 0, 50, 100… until its `max results`)
/// cost one read of the index, not one per page.
///
/// A search reads a window of hits (at least ``window``, more when a page lies beyond it)
/// ordered as ``Searchlight/IndexReader/query(_:domain:limit:)`` orders them; the total is counted only
/// when the window did not hold every hit. The hits are kept with the index's change marker
/// read before them and given again only while it is the same, for at most ``maximumAge``;
/// the oldest searches go first beyond ``capacity``.
final class ElasticsearchHits: Sendable {
    /// What one search found so far.
    struct Found: Sendable {
        var total: Int
        /// The first hits, in order.
        var items: [IndexedItem]
        var marker: [Int64]
        var stored: ContinuousClock.Instant
    }

    /// Hits read at least per search: Samba's default `max results` (100) in one read.
    static let window = 500
    let capacity = 32
    let maximumAge: Duration = .seconds(60)
    private let found = Mutex<[(key: String, found: Found)]>([])

    /// The hits of the search `key` up to `needed`, kept while the index's marker is `marker`.
    func hits(for key: String, marker: [Int64], needed: Int) -> Found? {
        let now = ContinuousClock.now
        return found.withLock { entries in
            entries.removeAll { now - $0.found.stored > maximumAge }
            guard let entry = entries.first(where: { $0.key == key })?.found, entry.marker == marker,
                  entry.items.count >= min(needed, entry.total) else { return nil }
            return entry
        }
    }

    /// How many hits to read for a page ending at `needed`, after `kept` were read before.
    static func limit(needed: Int, kept: Int) -> Int {
        max(needed, window, 2 * kept)
    }

    func store(_ hits: Found, for key: String) {
        found.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, hits))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    /// How many hits of `key` were read before (to grow the next window from).
    func keptCount(for key: String) -> Int {
        found.withLock { entries in entries.first(where: { $0.key == key })?.found.items.count ?? 0 }
    }
}
