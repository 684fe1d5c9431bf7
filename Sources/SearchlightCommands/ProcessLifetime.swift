import Synchronization

/// What a command leaves to the end of the process instead of releasing it: `search` keeps its
/// read-only SQLite index open, since closing it (GRDB's `DatabaseQueue` tears down its connection and
/// its observers) was a cost every search paid before exiting, and the kernel closes the file
/// anyway when the process ends (Benchmarks/README.md, "Start-up"). Only for one-shot commands
/// of a command-line process.
enum ProcessLifetime {
    private static let kept = Mutex<[any AnyObject & Sendable]>([])

    /// Keeps `object` until the process exits.
    static func keep(_ object: any AnyObject & Sendable) {
        kept.withLock { $0.append(object) }
    }
}
