import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Member ids of a full-text match", .ownThread)
struct MemberIDsTests {
    /// Every id of a range answered like a `Set` of the same ids, given in order or not.
    @Test(arguments: [false, true])
    func answersLikeASet(shuffled: Bool) {
        var generator = SystemRandomNumberGenerator()
        let ids = (1...5000).map { _ in Int64.random(in: 1...20_000, using: &generator) }
        let given = shuffled ? ids.shuffled(using: &generator) : Array(Set(ids)).sorted()
        var members = MemberIDs(Array(given.prefix(1024)))
        for id in given.dropFirst(1024) { members.append(id) }
        members.finish()
        let expected = Set(ids)
        for id in Int64(-2)...20_002 {
            #expect(members.contains(id) == expected.contains(id), "id \(id)")
        }
    }

    @Test("Ids read whole hold exactly those ids, given in any order and with repeats")
    func finishedIDsHoldExactlyTheirIDs() {
        var generator = SeededGenerator(seed: 37)
        for _ in 0..<200 {
            let ids = (0..<Int(generator.next() % 40)).map { _ in Int64(generator.next() % 60) - 10 }
            let given = generator.next() % 2 == 0 ? ids.sorted() : ids
            let members = MemberIDs.finished(given)
            for probe in Int64(-12)...Int64(52) {
                #expect(members.contains(probe) == ids.contains(probe), "\(probe) in \(given)")
            }
        }
        let empty: MemberIDs = []
        #expect(!empty.contains(0))
        #expect(([Int64.min, 0, Int64.max] as MemberIDs).contains(Int64.max))
    }

    @Test func noMembersContainNothing() {
        var members = MemberIDs([])
        members.finish()
        #expect(!members.contains(0))
        #expect(!members.contains(1))
    }
}
