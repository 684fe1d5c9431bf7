/// The `limit` best-scored elements seen so far, kept in a min-heap: a scan of every vector
/// keeps no more than the page it returns. Both stores rank their nearest items with it.
public struct NearestMatches<Element> {
    /// How many elements are kept: the page a search asked for.
    public let limit: Int
    private var heap: [(element: Element, similarity: Float, order: Int)] = []
    private var offered = 0

    /// An empty heap that will keep the `limit` best elements offered.
    public init(limit: Int) {
        self.limit = limit
        heap.reserveCapacity(Swift.min(limit, 4096))
    }

    /// Keeps `element` if it is among the best so far; of equal similarities, the first offered.
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
    public var ranked: [(element: Element, similarity: Float)] {
        heap.sorted { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.order < $1.order }
            .map { ($0.element, $0.similarity) }
    }

    /// Whether `a` ranks below `b` (the heap's root is the lowest).
    private func below(_ a: Int, _ b: Int) -> Bool {
        heap[a].similarity != heap[b].similarity ? heap[a].similarity < heap[b].similarity : heap[a].order > heap[b].order
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard below(child, parent) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

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
