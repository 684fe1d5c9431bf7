import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// `searchlight status` says which protections the extraction workers have on this kernel (issue 32).
@Suite("searchlight status: the workers' sandbox", .serialized, .ownThread)
struct SandboxStatusTests {
    let tree = TemporaryTree("sandbox-status")
    let work = TemporaryTree("sandbox-status-index")
    var index: String { work.path + "/index.sqlite" }

    @Test("status and status --json name the protections that hold")
    func statusShowsTheSandbox() throws {
        tree.write("notes/a.txt", "lighthouse")
        #expect(try Searchlight.run(["scan", tree.path], index: index).status == 0)
        let text = try Searchlight.run(["status"], index: index)
        let line = try #require(text.lines.first { $0.hasPrefix("sandbox: ") })
        #expect(line.hasPrefix("sandbox: no_new_privs, seccomp filter"))
        let json = try Searchlight.run(["status", "--json"], index: index)
        let status = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any]
        let sandbox = try #require(status?["sandbox"] as? [String: Any])
        #expect(sandbox["noNewPrivileges"] as? Bool == true)
        #expect(sandbox["seccomp"] as? Bool == true)
        // This machine's kernel (6.18) has Landlock; Debian 12's (6.1) has ABI 2 or later.
        if let abi = sandbox["landlock"] as? Int {
            #expect(abi >= 1)
            #expect(line.contains("Landlock ABI \(abi)"))
        } else {
            #expect(line.contains("no Landlock"))
        }
    }

    /// A worker's private folder (the one place it may write), and the folder of its pool's
    /// probe file, outlive an indexer killed with SIGKILL; the next indexer to start workers
    /// removes them.
    @Test func foldersThatAKilledIndexerLeftAreRemovedByTheNext() throws {
        let temporary = work.path + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        func workerFolders() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter { $0.hasPrefix("searchlight-extractor.") }
        }
        tree.write("notes/a.txt", "lighthouse")
        let log = work.path + "/watch.log"
        let watch = try ChildProcess([Searchlight.binary, "watch", tree.path, "--no-thumbnails"] + Searchlight.busyMachine,
                                     environment: Searchlight.environment(index: index, extra: ["TMPDIR": temporary]),
                                     stderr: .file(log))
        #expect(waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("watching") && !workerFolders().isEmpty })
        watch.send(SIGKILL)
        watch.waitUntilExit()
        let left = workerFolders()
        #expect(!left.isEmpty, "the killed watch left no folder: nothing to sweep")
        // Its pool's probe file too, in a folder of the same kind: nothing loose in the folder.
        #expect(left.contains { FileManager.default.fileExists(atPath: temporary + "/" + $0 + "/probe.txt") }, "\(left)")
        let loose = ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter { !$0.hasPrefix("searchlight-extractor.") }
        #expect(loose.isEmpty, "\(loose)")
        // Older than the minute a folder is given before its indexer locks it.
        for name in left {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -120)],
                                                  ofItemAtPath: temporary + "/" + name)
        }
        let scan = try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index, environment: ["TMPDIR": temporary])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(workerFolders().isEmpty, "\(workerFolders())")
    }
}
