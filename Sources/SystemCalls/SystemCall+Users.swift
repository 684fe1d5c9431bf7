#if canImport(Glibc)
import Glibc
#endif

extension SystemCall {
    /// A person of this machine's user database: name, user id, and every group they are in
    /// (their primary group and the groups that list them).
    public struct Person: Sendable, Hashable {
        /// The login name.
        public var name: String
        /// The user id.
        public var user: UInt32
        /// The ids of every group the person is in, the primary one included.
        public var groups: [UInt32]
        /// A person as the user database, or the shared index's copy of it, lists them.
        public init(name: String, user: UInt32, groups: [UInt32]) {
            (self.name, self.user, self.groups) = (name, user, groups)
        }
    }

    /// The name of the user this process acts as (its effective user id) in the user database,
    /// nil when it has none. The corresponding C functions are `geteuid(2)` and `getpwuid(3)`.
    public static var effectiveUserName: String? {
        getpwuid(geteuid()).flatMap { String(validatingCString: $0.pointee.pw_name) }
    }

    /// Everyone in the user database, as `getent passwd` and `getent group` list them (NSS:
    /// local files, LDAP, SSSD…), by name. The corresponding C functions are `getpwent(3)` and
    /// `getgrent(3)`, which are not thread-safe: one caller at a time.
    public static func people() -> [Person] {
        var members: [String: Set<UInt32>] = [:]
        setgrent()
        while let entry = getgrent() {
            var member = entry.pointee.gr_mem
            while let name = member?.pointee {
                members[String(cString: name), default: []].insert(entry.pointee.gr_gid)
                member = member?.advanced(by: 1)
            }
        }
        endgrent()
        var people: [String: Person] = [:]
        setpwent()
        while let entry = getpwent() {
            let name = String(cString: entry.pointee.pw_name)
            guard people[name] == nil else { continue }
            let groups = members[name, default: []].union([entry.pointee.pw_gid])
            people[name] = Person(name: name, user: entry.pointee.pw_uid, groups: groups.sorted())
        }
        endpwent()
        return people.values.sorted { $0.name < $1.name }
    }
}
