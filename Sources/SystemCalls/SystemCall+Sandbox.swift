import CFileSystem
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// Makes sure that neither this process nor any program it runs gains privileges
    /// (set-user-id bits, file capabilities); required before a seccomp filter or Landlock.
    /// The corresponding C function is `prctl(2)` with `PR_SET_NO_NEW_PRIVS`.
    public static func forbidNewPrivileges() throws(Errno) {
        _ = try checked { cfs_set_no_new_privileges() }
    }

    /// Whether this process can no longer gain privileges (``forbidNewPrivileges()``).
    /// The corresponding C function is `prctl(2)` with `PR_GET_NO_NEW_PRIVS`.
    public static var hasNoNewPrivileges: Bool { cfs_no_new_privileges() == 1 }

    /// Whether a seccomp filter confines this process. The corresponding C function is
    /// `prctl(2)` with `PR_GET_SECCOMP`.
    public static var isSeccompFiltered: Bool { cfs_seccomp_mode() == 2 }

    /// Whether this kernel has seccomp filters at all. The corresponding C function is
    /// `prctl(2)` with `PR_GET_SECCOMP` (`EINVAL` without `CONFIG_SECCOMP`).
    public static var hasSeccomp: Bool { cfs_seccomp_mode() >= 0 }

    /// The highest Landlock ABI this kernel offers; `nil` when it has no Landlock (not built,
    /// or not enabled by the `lsm=` boot parameter). The corresponding C function is
    /// `landlock_create_ruleset(2)` with `LANDLOCK_CREATE_RULESET_VERSION`.
    public static var landlockABI: Int? {
        let version = cfs_landlock_abi()
        return version > 0 ? Int(version) : nil
    }
}
