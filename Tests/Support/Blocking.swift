import Foundation

/// Runs blocking work (an extraction worker's answer, a scan, writing a large file) on a
/// thread of its own and awaits it, so that the Swift concurrency pool — as many threads as
/// cores, shared by every test running at once — stays free for the tests that need it (a
/// watcher's task, an `eventually` loop).
public func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
