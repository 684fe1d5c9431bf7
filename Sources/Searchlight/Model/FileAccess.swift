/// Who may read a file, or pass through a folder, as its file system says: owner, group,
/// permission bits and the POSIX ACL's named users and groups (`acl(5)`).
///
/// A shared index stores it with each item and each folder (Docs/Contract.md#shared-index), so
/// that a person sees only what they could open on the machine the item lives on. It is
/// stored as ``rules(for:)``: a few tokens that a database can match with one array overlap
/// per kind, in the order the kernel checks (`acl(5)`, "Access check algorithm"):
///
/// | token | means |
/// |-------|-------|
/// | `u:1000` | user 1000 may (the owner, or a named user of the ACL) |
/// | `-u:1000` | user 1000 may not, whatever their groups or others say |
/// | `g:100` | a member of group 100 may (owning group or named group, under the ACL's mask) |
/// | `-g:100` | a member of group 100 whose user matched nothing above and whose groups grant nothing may not |
/// | `*` | anyone else may |
///
/// ```swift
/// let access = FileAccess(owner: 1000, group: 1000, mode: 0o640)
/// access.rules(for: .read)                                  // ["u:1000", "g:1000"]
/// access.allows(.read, user: 1001, groups: [1000])          // true
/// ```
public struct FileAccess: Sendable, Hashable {
    /// A permission that the rules are made for.
    public enum Permission: UInt16, Sendable {
        /// Opening a file (`r`).
        case read = 4
        /// Passing through a folder (`x`).
        case pass = 1
    }

    /// An ACL entry for a named user or group: its id and its `rwx` bits (4, 2, 1).
    public struct Entry: Sendable, Hashable {
        /// The user or group id.
        public var id: UInt32
        /// Its `rwx` bits: 4, 2, 1.
        public var permissions: UInt16
        /// An entry giving `id` the bits `permissions`.
        public init(id: UInt32, permissions: UInt16) { (self.id, self.permissions) = (id, permissions) }
    }

    /// The owner's user id.
    public var owner: UInt32
    /// The owning group's id.
    public var group: UInt32
    /// The permission bits (`0o777`; other bits are ignored). With an ACL, the group bits are
    /// its mask, as `stat(2)` reports them.
    public var mode: UInt16
    /// The owning group's bits from the ACL (`ACL_GROUP_OBJ`); `nil` without an ACL.
    public var groupObject: UInt16?
    /// Named users (`ACL_USER`).
    public var users: [Entry]
    /// Named groups (`ACL_GROUP`).
    public var groups: [Entry]

    /// Who may read a file, as `statx(2)` and its ACL (`system.posix_acl_access`) say; bits of
    /// `mode` above `0o777` are dropped.
    public init(owner: UInt32, group: UInt32, mode: UInt16, groupObject: UInt16? = nil,
                users: [Entry] = [], groups: [Entry] = []) {
        self.owner = owner
        self.group = group
        self.mode = mode & 0o777
        self.groupObject = groupObject
        self.users = users
        self.groups = groups
    }

    /// Whether an ACL extends the permission bits.
    public var hasACL: Bool { groupObject != nil }

    /// The ACL's mask: the group bits of the mode when there is an ACL, all bits otherwise.
    private var mask: UInt16 { hasACL ? (mode >> 3) & 7 : 7 }

    /// The rules of `permission` as tokens (see the type's description), each user and group once.
    public func rules(for permission: Permission) -> [String] {
        let bit = permission.rawValue
        var tokens = [(mode >> 6) & bit != 0 ? "u:\(owner)" : "-u:\(owner)"]
        for entry in users where entry.id != owner {
            tokens.append(entry.permissions & mask & bit != 0 ? "u:\(entry.id)" : "-u:\(entry.id)")
        }
        // Group class: a group any of whose matching entries grants is granted.
        var groupGrants: [UInt32: Bool] = [:]
        let owningGroupBits = groupObject.map { $0 & mask } ?? (mode >> 3) & 7
        groupGrants[group] = owningGroupBits & bit != 0
        for entry in groups {
            groupGrants[entry.id] = (groupGrants[entry.id] ?? false) || entry.permissions & mask & bit != 0
        }
        for (id, grants) in groupGrants.sorted(by: { $0.key < $1.key }) {
            tokens.append(grants ? "g:\(id)" : "-g:\(id)")
        }
        if mode & bit != 0 { tokens.append("*") }
        return tokens
    }

    /// Whether a person with user id `user` in `groups` has `permission`, by the kernel's
    /// algorithm (`acl(5)`), root aside. The database answers the same from ``rules(for:)``.
    public func allows(_ permission: Permission, user: UInt32, groups memberOf: Set<UInt32>) -> Bool {
        Self.evaluate(rules(for: permission), user: user, groups: memberOf)
    }

    /// The answer of `rules` for a person: what the database's policy computes.
    public static func evaluate(_ rules: [String], user: UInt32, groups: Set<UInt32>) -> Bool {
        let tokens = Set(rules)
        if tokens.contains("u:\(user)") { return true }
        if tokens.contains("-u:\(user)") { return false }
        if groups.contains(where: { tokens.contains("g:\($0)") }) { return true }
        if groups.contains(where: { tokens.contains("-g:\($0)") }) { return false }
        return tokens.contains("*")
    }
}

extension FileAccess {
    /// Reads the value of the `system.posix_acl_access` extended attribute (little-endian:
    /// a version, 2, then entries of tag, permissions and id), over the status's owner, group
    /// and mode. `nil` for a value it cannot read.
    public init?(owner: UInt32, group: UInt32, mode: UInt16, posixACL bytes: [UInt8]) {
        func word16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func word32(_ at: Int) -> UInt32 { UInt32(word16(at)) | UInt32(word16(at + 2)) << 16 }
        guard bytes.count >= 4, (bytes.count - 4) % 8 == 0, word32(0) == 2 else { return nil }
        self.init(owner: owner, group: group, mode: mode)
        var hasMask = false
        for offset in stride(from: 4, to: bytes.count, by: 8) {
            let (tag, permissions, id) = (word16(offset), word16(offset + 2) & 7, word32(offset + 4))
            switch tag {
            case 0x02: users.append(Entry(id: id, permissions: permissions))
            case 0x04: groupObject = permissions
            case 0x08: groups.append(Entry(id: id, permissions: permissions))
            case 0x10: hasMask = true  // the mask is the mode's group bits
            case 0x01, 0x20: continue  // owner and other are the mode's bits
            default: return nil
            }
        }
        // An ACL of the three base entries alone says what the mode says.
        if !hasMask { groupObject = nil }
    }
}
