import Foundation
import Testing

/// The one way a test waits for something: a deadline, and a condition polled until it holds
/// or the deadline passes. A wait never sleeps a fixed time, and never waits without a
/// deadline: what does not happen in time fails the test instead of hanging the suite.
///
/// ```swift
/// #expect(waitUntil(timeout: 30) { watch.logText.contains("watching") })
/// #expect(await eventually { index.count == 3 })
/// ```
public struct Deadline: Sendable {
    /// When the wait ends.
    public let end: ContinuousClock.Instant

    /// A deadline `timeout` seconds from now.
    public init(timeout: TimeInterval) {
        end = .now + .milliseconds(Int64(timeout * 1000))
    }

    /// Whether the deadline has passed.
    public var hasPassed: Bool { ContinuousClock.now >= end }

    /// The time left, zero once the deadline has passed.
    public var remaining: Duration { max(end - .now, .zero) }
}

/// Polls `condition` every `interval` until it holds (`true`) or `timeout` seconds pass
/// (`false`, after one last look), blocking the calling thread between polls: for tests that
/// run on a thread of their own (`.ownThread`) or wait for another process.
///
/// Called on a thread of Swift's cooperative pool it records an issue: the pool has a thread
/// per core, two here, and two such waits (a test running a reference script while another
/// waited for its result) once stalled every test of the run for two and a half minutes.
@discardableResult
public func waitUntil(
    timeout: TimeInterval = 60, every interval: Duration = .milliseconds(10),
    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () throws -> Bool
) rethrows -> Bool {
    if try condition() { return true }
    if CooperativePool.isCurrent {
        Issue.record("a blocking wait on a thread of Swift's cooperative pool: give the suite .ownThread", sourceLocation: sourceLocation)
    }
    return try waitOnThisThread(timeout: timeout, every: interval, condition)
}

/// ``waitUntil(timeout:every:sourceLocation:_:)`` without the check of the calling thread:
/// for the brief commands a test runs to change a tree (`cp`, `mv`, ``shell(_:)-swift.func``),
/// over in milliseconds, which any test may run.
func waitOnThisThread(timeout: TimeInterval, every interval: Duration, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Deadline(timeout: timeout)
    while !deadline.hasPassed {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: min(interval, deadline.remaining).seconds)
    }
    return try condition()
}

/// Polls `condition` every `interval` until it holds (`true`) or `timeout` seconds pass
/// (`false`, after one last look), suspending between polls so that the tasks the test waits
/// for (a watcher's, a server's) run meanwhile.
@discardableResult
public func eventually(
    timeout: TimeInterval = 60, every interval: Duration = .milliseconds(10), _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = Deadline(timeout: timeout)
    while !deadline.hasPassed {
        if try await condition() { return true }
        try? await Task.sleep(for: min(interval, deadline.remaining))
    }
    return try await condition()
}

extension Duration {
    /// The duration in seconds, for `Thread.sleep(forTimeInterval:)`.
    fileprivate var seconds: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Swift's cooperative pool, where tasks run unless an executor says otherwise.
public enum CooperativePool {
    /// Whether the calling thread is one of the pool's. libdispatch names them after their
    /// root queue (`com.apple.root.default-qos`, kept to its last 15 bytes by Linux); the
    /// threads of serial queues (``OwnThread``) and of `Thread` have other names
    /// (`…qos.overcommit`, none).
    public static var isCurrent: Bool {
        guard let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) else { return false }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasSuffix("-qos") && !trimmed.hasSuffix("overcommit")
    }
}
