import SearchlightTestSupport
import Testing
@testable import Searchlight

/// ``RowSet`` against `Set<Int64>`: the same random inserts, removals and set operations,
/// rows below and past its dense limit, must leave the same members, in ascending order.
@Suite("Row sets") struct RowSetTests {
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomOperationsAgreeWithASet(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        func row() -> Int64 {
            // Mostly dense rows, some past the dense limit, a few negative.
            switch random.next() % 20 {
            case 0: return RowSet.denseLimit + Int64(random.next() % 1000)
            case 1: return -Int64(random.next() % 10) - 1
            default: return Int64(random.next() % 5000)
            }
        }
        var left = RowSet(), right = RowSet()
        var leftSet = Set<Int64>(), rightSet = Set<Int64>()
        for _ in 0..<3000 {
            let id = row()
            switch random.next() % 4 {
            case 0, 1: #expect(left.insert(id) == leftSet.insert(id).inserted)
            case 2: #expect(left.remove(id) == (leftSet.remove(id) != nil))
            default: right.insert(id); rightSet.insert(id)
            }
        }
        #expect(left.count == leftSet.count)
        #expect(Array(left) == leftSet.filter { $0 >= 0 && $0 < RowSet.denseLimit }.sorted()
                + leftSet.filter { $0 < 0 || $0 >= RowSet.denseLimit }.sorted())
        #expect(Set(left.union(right)) == leftSet.union(rightSet))
        #expect(Set(left.intersection(right)) == leftSet.intersection(rightSet))
        #expect(Set(left.subtracting(right)) == leftSet.subtracting(rightSet))
        #expect(left.union(right).count == leftSet.union(rightSet).count)
        #expect(left.intersection(right).count == leftSet.intersection(rightSet).count)
        #expect(left.subtracting(right).count == leftSet.subtracting(rightSet).count)
        var removed = left
        removed.subtract(Array(rightSet))
        #expect(removed == left.subtracting(right))
        for id in (-12 as Int64)...5010 { #expect(left.contains(id) == leftSet.contains(id)) }
        #expect(RowSet(Array(leftSet)) == left)
    }

    @Test func anEmptySetHasNoRowsAndShorterSetsIntersect() {
        #expect(Array(RowSet()).isEmpty)
        #expect(RowSet().isEmpty)
        let long: RowSet = [1, 70, 200, 5000]
        let short: RowSet = [70, 3]
        #expect(Array(long.intersection(short)) == [70])
        #expect(Array(short.intersection(long)) == [70])
        #expect(Array(short.union(long)) == [1, 3, 70, 200, 5000])
        #expect(Array(short.subtracting(long)) == [3])
    }
}
