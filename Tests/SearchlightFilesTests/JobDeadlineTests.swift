import Foundation
import Glibc
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// A job's deadline counts the time its worker could run: waiting for a CPU does not count,
/// sleeping (a hang) does.
@Suite("Job deadlines", .ownThread)
struct JobDeadlineTests {
    @Test func aSleepingWorkerStillTimesOut() throws {
        let sleeper = try ChildProcess(["/bin/sleep", "30"])
        defer {
            kill(sleeper.processIdentifier, SIGKILL)
            sleeper.waitUntilExit()
        }
        let clock = ContinuousClock()
        var deadline = JobDeadline(.milliseconds(200), processID: sleeper.processIdentifier, clock: clock)
        #expect(deadline.remaining(clock: clock) > .zero)
        // Never more than the stretched limit: ten times the deadline.
        #expect(waitUntil(timeout: 5) { deadline.remaining(clock: clock) <= .zero })
    }

    @Test func waitingForACPUIsCountedPerThread() {
        // This process's threads have run, so the kernel counts their waits; a process that
        // is gone has none.
        #expect(JobDeadline.runQueueWait(of: getpid()) >= .zero)
        #expect(JobDeadline.runQueueWait(of: 0x7fff_fff0) == .zero)
    }
}
