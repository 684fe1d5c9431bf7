/// A retry delay that doubles from `first` up to `longest` each time one more try fails, and
/// starts over once a try succeeds: how the watcher retries an index it cannot write, the
/// pool an extractor it cannot start, and the watcher files it could not extract.
struct Backoff: Sendable, Equatable {
    let first: Duration
    let longest: Duration
    /// The delay last handed out, or nil before the first failure (or since a reset).
    private(set) var current: Duration?

    init(first: Duration, longest: Duration) {
        self.first = first
        self.longest = longest
    }

    /// The delay before the next try: `first`, then twice the last, at most `longest`.
    mutating func next() -> Duration {
        let delay = current.map { min($0 * 2, longest) } ?? first
        current = delay
        return delay
    }

    /// A try succeeded: the next failure waits `first` again.
    mutating func reset() { current = nil }
}
