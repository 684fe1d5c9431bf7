/// The `limit` best-scored elements seen so far, kept in a min-heap: a scan of every vector
/// keeps no more than the page it returns. Both stores rank their nearest items with it.
///
/// Each offer costs O(log `limit`) at most, and nothing once the heap is full and the
/// similarity does not beat its lowest; memory is `limit` entries whatever the number offered.
/// A value type: one scan, one heap, no sharing between threads.
///
/// ```swift
/// var best = NearestMatches<String>(limit: 2)
/// best.offer("a", similarity: 0.2)
/// best.offer("b", similarity: 0.9)
/// best.offer("c", similarity: 0.5)
/// best.ranked.map(\.element)   // ["b", "c"]
/// ```
public struct NearestMatches<Element> {
    /// How many elements are kept: the page a search asked for.
    public let limit: Int
    /// The kept elements, the lowest-ranked at the root; `order` breaks ties by first offered.
    private var heap: [(element: Element, similarity: Float, order: Int)] = []
    /// How many elements were offered so far: the next one's order.
    private var offered = 0

    /// An empty heap that will keep the `limit` best elements offered.
    ///
    /// A limit of zero or less keeps nothing. Room for at most 4 096 entries is reserved up
    /// front; a larger limit grows as elements come.
    public init(limit: Int) {
        self.limit = limit
        heap.reserveCapacity(Swift.min(limit, 4096))
    }

    /// Keeps `element` if it is among the best so far; of equal similarities, the first offered.
    ///
    /// A NaN similarity never beats another; an element offered before the heap is full is
    /// kept whatever its similarity.
    public mutating func offer(_ element: Element, similarity: Float) {
        defer { offered += 1 }
        guard limit > 0 else { return }
        if heap.count < limit {
            heap.append((element, similarity, offered))
            siftUp(heap.count - 1)
        } else if similarity > heap[0].similarity {
            heap[0] = (element, similarity, offered)
            siftDown(0)
        }
    }

    /// Best first.
    ///
    /// Sorts a copy of the heap each time it is read: read it once, after the scan.
    public var ranked: [(element: Element, similarity: Float)] {
        heap.sorted { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.order < $1.order }
            .map { ($0.element, $0.similarity) }
    }

    /// Whether `a` ranks below `b` (the heap's root is the lowest).
    private func below(_ a: Int, _ b: Int) -> Bool {
        heap[a].similarity != heap[b].similarity ? heap[a].similarity < heap[b].similarity : heap[a].order > heap[b].order
    }

    /// Moves the entry at `start` up while it ranks below its parent.
    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard below(child, parent) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Moves the entry at `start` down while a child ranks below it.
    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var lowest = parent
            if left < heap.count, below(left, lowest) { lowest = left }
            if right < heap.count, below(right, lowest) { lowest = right }
            guard lowest != parent else { return }
            heap.swapAt(parent, lowest)
            parent = lowest
        }
    }
}

extension NearestMatches: Sendable where Element: Sendable {}
