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

    @Test func noMembersContainNothing() {
        var members = MemberIDs([])
        members.finish()
        #expect(!members.contains(0))
        #expect(!members.contains(1))
    }
}
