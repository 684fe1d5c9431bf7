import Searchlight
import Testing

/// FileAccess's rules answer as the kernel's access check (`acl(5)`) for every person.
struct FileAccessTests {
    @Test func modeBitsAloneGiveOwnerGroupAndOthersInThatOrder() {
        let access = FileAccess(owner: 1000, group: 100, mode: 0o640)
        #expect(access.rules(for: .read) == ["u:1000", "g:100"])
        #expect(access.rules(for: .pass) == ["-u:1000", "-g:100"])
        #expect(access.allows(.read, user: 1000, groups: []))
        #expect(access.allows(.read, user: 1001, groups: [100]))
        #expect(!access.allows(.read, user: 1001, groups: [101]))
        #expect(!access.allows(.pass, user: 1000, groups: [100]))
    }

    @Test func theOwnerIsJudgedByTheOwnerBitsEvenWhenOthersMay() {
        // 0o044: everyone but the owner may read (the kernel really says so).
        let access = FileAccess(owner: 1000, group: 100, mode: 0o044)
        #expect(!access.allows(.read, user: 1000, groups: [100]))
        #expect(access.allows(.read, user: 1001, groups: []))
        // A member of the owning group without group bits may not, though others may.
        let noGroup = FileAccess(owner: 1000, group: 100, mode: 0o604)
        #expect(!noGroup.allows(.read, user: 1001, groups: [100]))
        #expect(noGroup.allows(.read, user: 1001, groups: [7]))
    }

    @Test func aNamedUserOrGroupOfTheACLIsUnderItsMask() throws {
        // setfacl -m u:1001:r,g:200:r,m::r on a 0600 file: version 2, then tag, bits, id.
        func entry(_ tag: UInt16, _ bits: UInt16, _ id: UInt32) -> [UInt8] {
            [UInt8(tag & 0xFF), UInt8(tag >> 8), UInt8(bits), 0, UInt8(id & 0xFF), UInt8(id >> 8 & 0xFF), 0, 0]
        }
        let value = [2, 0, 0, 0] + entry(0x01, 6, 0xFFFF_FFFF) + entry(0x02, 4, 1001) + entry(0x04, 0, 0xFFFF_FFFF)
            + entry(0x08, 4, 200) + entry(0x10, 4, 0xFFFF_FFFF) + entry(0x20, 0, 0xFFFF_FFFF)
        let access = try #require(FileAccess(owner: 1000, group: 100, mode: 0o640, posixACL: value))
        #expect(access.allows(.read, user: 1001, groups: []))
        #expect(access.allows(.read, user: 1002, groups: [200]))
        // The owning group's ACL entry gives nothing, whatever the mode's group bits (the mask) say.
        #expect(!access.allows(.read, user: 1003, groups: [100]))
        #expect(!access.allows(.read, user: 1004, groups: []))
        // A mask without read takes it from named entries.
        let masked = try #require(FileAccess(owner: 1000, group: 100, mode: 0o600, posixACL: value))
        #expect(!masked.allows(.read, user: 1001, groups: []))
        #expect(!masked.allows(.read, user: 1002, groups: [200]))
        // A value that is no ACL is refused.
        #expect(FileAccess(owner: 0, group: 0, mode: 0o644, posixACL: [1, 0, 0, 0]) == nil)
        #expect(FileAccess(owner: 0, group: 0, mode: 0o644, posixACL: [2, 0, 0, 0, 1]) == nil)
    }

    @Test func rulesAgreeWithTheKernelsAlgorithmForEveryModeAndPerson() {
        // The kernel's check written out, against the rules' evaluation, over all 512 modes.
        func kernel(_ mode: UInt16, bit: UInt16, owner: UInt32, group: UInt32, user: UInt32, groups: Set<UInt32>) -> Bool {
            if user == owner { return (mode >> 6) & bit != 0 }
            if groups.contains(group) { return (mode >> 3) & bit != 0 }
            return mode & bit != 0
        }
        let people: [(UInt32, Set<UInt32>)] = [(1000, [100]), (1001, [100]), (1002, [101]), (1003, []), (1000, [])]
        for mode in UInt16(0)...0o777 {
            let access = FileAccess(owner: 1000, group: 100, mode: mode)
            for (user, groups) in people {
                for permission in [FileAccess.Permission.read, .pass] {
                    #expect(access.allows(permission, user: user, groups: groups)
                            == kernel(mode, bit: permission.rawValue, owner: 1000, group: 100, user: user, groups: groups),
                            "mode \(String(mode, radix: 8)) user \(user)")
                }
            }
        }
    }
}
