import Synchronization

/// Pauses and slows the watchers of a process, from outside their event loop: `searchlight
/// pause` (a signal to the watching process), and the pressure monitor's backoff. One control
/// may serve several watchers.
///
/// While paused, a watcher keeps reading and coalescing events, but processes no window (no
/// inspection, no extraction, no writes) until resumed; then it catches up. While backing
/// off, its windows settle ``backoffFactor`` times longer, so that work comes in fewer,
/// larger batches, and the extraction of content and thumbnails waits until the backoff ends
/// (the files are indexed by name and type meanwhile).
///
/// ```swift
/// let control = WatchControl()
/// options.control = control                   // each watcher's FolderWatcher.Options
/// control.pause()                             // `searchlight pause`
/// control.backoffReason = "cpu pressure 92%"  // the pressure monitor; nil ends the backoff
/// ```
public final class WatchControl: Sendable {
    /// How much longer windows settle while backing off.
    public static let backoffFactor = 10

    private struct State {
        var paused = false
        var backoffReason: String?
        var backoffEnded: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// A control that is neither paused nor backing off.
    public init() {}

    /// Stops processing windows (events are still read and coalesced).
    public func pause() { state.withLock { $0.paused = true } }

    /// Processes windows again, starting with what piled up.
    public func resume() { state.withLock { $0.paused = false } }

    /// Whether ``pause()`` was called more recently than ``resume()``.
    public var isPaused: Bool { state.withLock { $0.paused } }

    /// Why the watchers back off (`"cpu pressure 92%"`, `"on battery"`), or `nil` for not.
    public var backoffReason: String? {
        get { state.withLock { $0.backoffReason } }
        set {
            let ended = state.withLock { state in
                defer { state.backoffReason = newValue }
                return state.backoffReason != nil && newValue == nil ? state.backoffEnded : []
            }
            for call in ended { call() }
        }
    }

    /// Calls `body` each time a backoff ends (a watcher then extracts what it deferred).
    func onBackoffEnd(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.backoffEnded.append(body) }
    }

    /// `interval`, stretched while backing off.
    public func stretched(_ interval: Duration) -> Duration {
        backoffReason == nil ? interval : interval * Self.backoffFactor
    }

    /// Returns once not paused, or once `isStopping` says so; while paused, checks a few
    /// times a second (and costs nothing when not) and calls `tick` each time, so that the
    /// caller can report what piled up.
    public func waitWhilePaused(isStopping: () -> Bool, tick: () async -> Void = {}) async {
        while isPaused && !isStopping() && !Task.isCancelled {
            await tick()
            try? await Task.sleep(for: .milliseconds(200))
        }
    }
}
