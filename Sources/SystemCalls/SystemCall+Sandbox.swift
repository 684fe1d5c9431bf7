internal import CShimFileSystem
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

    /// Attaches to the process `process` as its tracer, which a sandboxed worker must not be able
    /// to do (the sandbox's self-test tries it). The corresponding C function is `ptrace(2)` with
    /// `PTRACE_ATTACH`.
    public static func attachTracer(to process: Int32) throws(Errno) {
        _ = try checked { cfs_ptrace_attach(process) }
    }

    /// Pushes `character` into the input of the terminal open as `descriptor`, as if typed there,
    /// which a sandboxed worker must not be able to do (the sandbox's self-test tries it).
    /// The corresponding C function is `ioctl(2)` with `TIOCSTI`.
    public static func typeIntoTerminal(_ character: UInt8, descriptor: Int32) throws(Errno) {
        var character = CChar(bitPattern: character)
        _ = try checked { cfs_ioctl_type(descriptor, &character) }
    }

    /// A Landlock ruleset being built: what it handles is denied unless a rule allows it.
    /// Glibc has no wrappers: the raw system calls, through CShimFileSystem.
    public struct LandlockRuleset: ~Copyable {
        /// The ruleset's descriptor.
        let descriptor: Int32

        /// A ruleset that handles `filesystem` and `network` rights and the `scoped` IPC scopes
        /// (masks of the kernel's `LANDLOCK_ACCESS_FS_*`, `LANDLOCK_ACCESS_NET_*` and
        /// `LANDLOCK_SCOPE_*` bits; 0 for what an older ABI does not know).
        /// The corresponding C function is `landlock_create_ruleset(2)`.
        public init(filesystem: UInt64, network: UInt64 = 0, scoped: UInt64 = 0) throws(Errno) {
            descriptor = try checked { cfs_landlock_create_ruleset(filesystem, network, scoped) }
        }

        deinit { SystemCall.close(descriptor) }

        /// Allows `rights` beneath the file or folder at `path` (followed if a link). A path that
        /// does not exist is skipped: `ENOENT` is not thrown.
        /// The corresponding C functions are `open(2)` with `O_PATH` and `landlock_add_rule(2)`.
        public func allow(_ rights: UInt64, beneath path: String) throws(Errno) {
            let parent: Int32
            do {
                // O_PATH (0o10000000), which Swift's Glibc module hides behind _GNU_SOURCE.
                parent = try SystemCall.open(Array(path.utf8), .readOnly, options: [.closeOnExec, FileDescriptor.OpenOptions(rawValue: 0o10000000)])
            } catch where error == .noSuchFileOrDirectory {
                return
            }
            defer { SystemCall.close(parent) }
            var status = stat()
            _ = try SystemCall.checked { fstat(parent, &status) }
            // A file takes only the rights of files: executing, reading, writing, truncating, ioctl.
            let fileRights: UInt64 = 1 << 0 | 1 << 1 | 1 << 2 | 1 << 14 | 1 << 15
            let allowed = status.st_mode & S_IFMT == S_IFDIR ? rights : rights & fileRights
            _ = try SystemCall.checked { cfs_landlock_allow_beneath(descriptor, parent, allowed) }
        }

        /// Confines this process (its threads started later, and its children) to the ruleset.
        /// The corresponding C function is `landlock_restrict_self(2)`.
        public consuming func restrictSelf() throws(Errno) {
            _ = try SystemCall.checked { cfs_landlock_restrict_self(descriptor) }
        }
    }
}

/// Which of the extraction workers' protections this kernel offers (issue 32): each worker sets
/// `no_new_privs`, installs its seccomp filter and enters Landlock when they are there, and
/// `searchlight status` shows the same answer.
public struct SandboxSupport: Sendable, Equatable {
    /// `no_new_privs` (Linux 3.5 and later: always).
    public var noNewPrivileges: Bool
    /// Seccomp-BPF filters (`CONFIG_SECCOMP_FILTER`).
    public var seccomp: Bool
    /// The Landlock ABI, nil when the kernel has none or it is not enabled (`lsm=`).
    public var landlockABI: Int?

    /// What a kernel offers, as a probe found it (tests build their own).
    public init(noNewPrivileges: Bool, seccomp: Bool, landlockABI: Int?) {
        self.noNewPrivileges = noNewPrivileges
        self.seccomp = seccomp
        self.landlockABI = landlockABI
    }

    /// This kernel's.
    public static var current: SandboxSupport {
        SandboxSupport(noNewPrivileges: true, seccomp: SystemCall.hasSeccomp, landlockABI: SystemCall.landlockABI)
    }

    /// What a worker lacks on this kernel, in a few words each; empty when all protections hold.
    public var missing: [String] {
        var missing: [String] = []
        if !seccomp { missing.append("no seccomp filter: workers can open sockets, trace processes and make any system call") }
        if landlockABI == nil { missing.append("no Landlock: workers can read and write the user's files by path and run programs") }
        return missing
    }
}
