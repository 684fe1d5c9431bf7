import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Row-id sets")
struct RowIDSetTests {
    @Test("A row-id set holds exactly its ids, given in any order and with repeats")
    func holdsExactlyItsIDs() {
        var generator = SeededGenerator(seed: 37)
        for _ in 0..<200 {
            let ids = (0..<Int(generator.next() % 40)).map { _ in Int64(generator.next() % 60) - 10 }
            let given = generator.next() % 2 == 0 ? ids.sorted() : ids
            let set = RowIDSet(given)
            for probe in Int64(-12)...Int64(52) {
                #expect(set.contains(probe) == ids.contains(probe), "\(probe) in \(given)")
            }
        }
        let empty: RowIDSet = []
        #expect(!empty.contains(0))
        #expect(([Int64.min, 0, Int64.max] as RowIDSet).contains(Int64.max))
    }
}
