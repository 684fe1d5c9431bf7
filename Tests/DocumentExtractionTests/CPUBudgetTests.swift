import Foundation
import Testing
@testable import DocumentExtraction

/// An archive's reading is bounded in CPU time, not wall time: a worker that waits for a core
/// on a crowded machine reads as many members as on a quiet one.
@Suite("CPU budget")
struct CPUBudgetTests {
    @Test func waitingSpendsNoBudgetWorkingDoes() {
        let budget = CPUBudget(.milliseconds(30))
        // Asleep (as a thread waiting for a core is not running): 200 ms of wall time.
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!budget.isSpent)
        var spins = 0
        while !budget.isSpent { spins &+= 1 }
        #expect(spins > 0)
    }
}
