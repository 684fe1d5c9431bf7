import Foundation

/// A bounded first-in first-out queue between threads: `put` waits while it is full, `take`
/// waits while it is empty. Once closed, `put` refuses and `take` drains what is left, then
/// returns `nil`. For blocking C work on threads of its own, off the Swift cooperative pool.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Appends `element`, waiting for room. Returns `false` if the queue is closed.
    @discardableResult
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while elements.count - head >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// Removes the oldest element, waiting for one until `deadline`. Returns `nil` when the
    /// queue is closed and empty, or when the deadline passes (then `timedOut` is true).
    func take(until deadline: Date = .distantFuture) -> (element: Element?, timedOut: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while head == elements.count && !closed {
            if deadline == .distantFuture {
                condition.wait()
            } else if !condition.wait(until: deadline) {
                return (nil, true)
            }
        }
        guard head < elements.count else { return (nil, false) }
        let element = elements[head]
        head += 1
        if head > 1024 && head * 2 > elements.count {
            elements.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return (element, false)
    }

    /// Whether no element waits to be taken at this moment.
    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return head == elements.count
    }

    /// Closes the queue: no more puts; takers drain, then get `nil`.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
