#if canImport(Glibc)
import Glibc
#endif
import CSeccomp
import SystemPackage
import SystemCalls

/// What confines a worker before it reads its first request (issue 32; README, "Security"):
/// `no_new_privs`, a seccomp-BPF allow-list of system calls (``allowedSystemCalls``), and on
/// kernels with Landlock a file-system view of the system files its decoders read, a private
/// temporary folder and the converter programs it runs.
///
/// A worker is started by the indexer and reads only descriptors the indexer passes it
/// (`SCM_RIGHTS`): once confined, it opens no file of the user's by name, opens no socket,
/// traces no process and runs no other program than the converters.
enum ExtractorSandbox {
    /// Confines this process; prints one line on standard error for each protection the
    /// kernel does not offer (the indexer says which hold: `searchlight status`).
    static func confine() {
        forbidNewPrivileges()
        confineSystemCalls()
    }

    /// Installs the seccomp filter: the calls of ``allowedSystemCalls`` run, every other one
    /// fails with `EPERM` and is reported once on standard error (see `CSeccomp.h`).
    static func confineSystemCalls() {
        let names = allowedSystemCalls.map { strdup($0) }
        defer { names.forEach { free($0) } }
        let status = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { cseccomp_install($0.baseAddress, $0.count) }
        if status != 0 {
            printError("searchlight-extractor: warning: no seccomp filter: \(Errno(rawValue: -status))\n")
        }
    }

    /// Makes sure that no program this worker runs gains privileges (a set-user-id converter);
    /// required by the seccomp filter and by Landlock. The corresponding C function is `prctl(2)`
    /// with `PR_SET_NO_NEW_PRIVS`.
    static func forbidNewPrivileges() {
        do {
            try SystemCall.forbidNewPrivileges()
        } catch {
            printError("searchlight-extractor: warning: prctl(PR_SET_NO_NEW_PRIVS): \(error)\n")
        }
    }
}
