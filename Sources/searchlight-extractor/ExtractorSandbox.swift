import CShimSeccomp
import DocumentExtraction
import SystemPackage
import SystemCalls

/// What confines a worker before it reads its first request (issue 32; Docs/Guide/Security.md):
/// `no_new_privs`, a seccomp-BPF allow-list of system calls (``allowedSystemCalls``), and on
/// kernels with Landlock a file-system view of the system files its decoders read, a private
/// temporary folder and the converter programs it runs.
///
/// A worker is started by the indexer and reads only descriptors the indexer passes it
/// (`SCM_RIGHTS`): once confined, it opens no file of the user's by name, opens no socket,
/// traces no process and runs no other program than the converters.
enum ExtractorSandbox {
    /// Sets `no_new_privs` and confines the file system (``confineFileSystem(temporaryFolder:readable:)``)
    /// to what the decoders read, the embedding model's folder (`readable`) and to
    /// `temporaryFolder`, which becomes `TMPDIR`. Called before
    /// any thread starts; prints one line on standard error if the kernel has no Landlock (the
    /// indexer says which protections hold: `searchlight status`).
    static func confineFiles(temporaryFolder: String?, readable: [String] = []) {
        forbidNewPrivileges()
        if let temporaryFolder { SystemCall.setEnvironmentValue("TMPDIR", to: temporaryFolder) }
        do {
            if try confineFileSystem(temporaryFolder: temporaryFolder, readable: readable) != nil {
                WorkerFile.isFileSystemConfined = true
            } else {
                printError("searchlight-extractor: warning: this kernel has no Landlock: the worker's files are not confined\n")
            }
        } catch {
            printError("searchlight-extractor: warning: Landlock: \(error): the worker's files are not confined\n")
        }
    }

    /// Installs the seccomp filter: the calls of ``allowedSystemCalls`` run, every other one
    /// fails with `EPERM` and is reported once on standard error (see `CShimSeccomp.h`).
    static func confineSystemCalls() {
        let status = SystemCall.withCStrings(allowedSystemCalls) { cseccomp_install($0.baseAddress, $0.count - 1) }
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
