import ExtractionProtocol
import Foundation
@testable import SearchlightFiles
import SystemCalls
import SystemPackage
import SearchlightTestSupport
import Testing

/// The sandbox of a real `searchlight-extractor` (issue 32): the debug worker's self-test
/// request tries what a decoder under an attacker's control would, and each act must fail; the
/// extraction suites (ExtractorPool*, TextRecognition, ScannedPage) show that decoding still works.
@Suite("Sandboxed extraction workers", .ownThread)
struct ExtractorSandboxTests {
    /// The worker's ExtractorSandbox.probeKindRawValue: a kind only debug workers answer.
    static let probeKind: UInt8 = 0xF0

    /// A worker as the pool starts one (its arguments and environment), standard error kept:
    /// the sandbox's denials show in the test's output.
    static func startWorker() throws -> ExtractorProcess {
        let configuration = ExtractorPool.Configuration(workerCount: 1)
        let worker = ExtractorProcess(
            executable: configuration.resolvedExtractorPath(), arguments: configuration.workerArguments,
            environment: configuration.workerEnvironment.map { "\($0.key)=\($0.value)" }, inheritsStandardError: true)
        try worker.start()
        return worker
    }

    @Test("A sandboxed worker cannot read a key by path, connect, run a shell, write outside its folder or trace its parent")
    func forbiddenActsFail() throws {
        let folder = try TemporaryFolder()
        let ssh = folder.url.appending(path: ".ssh")
        try FileManager.default.createDirectory(at: ssh, withIntermediateDirectories: true)
        let key = ssh.appending(path: "id_rsa")
        try Data("-----BEGIN OPENSSH PRIVATE KEY-----\nnot a real key\n".utf8).write(to: key)
        let outside = folder.url.appending(path: "written-by-the-worker")
        let listener = try LoopbackListener()

        let worker = try Self.startWorker()
        defer { worker.stop(grace: .seconds(2)) }
        let response = try worker.run(kindRawValue: Self.probeKind, path: Array(key.path.utf8), limit: 1 << 16,
                                      contentType: "port=\(listener.port);outside=\(outside.path)", deadline: .seconds(20)).get()
        guard case .document(let document) = response.outcome else {
            Issue.record("the probe answered \(response.outcome)")
            return
        }
        let acts = Dictionary(uniqueKeysWithValues: document.text.split(separator: "\n").map {
            let parts = $0.split(separator: "\t", maxSplits: 1)
            return (String(parts[0]), String(parts.count > 1 ? parts[1] : ""))
        })
        #expect(acts.keys.sorted() == ["connect to loopback TCP", "execve /bin/sh", "ptrace its parent",
                                       "read by path", "type into a terminal", "write outside its folder"])
        // Denied by the sandbox (EPERM), not by the descriptor being no terminal (ENOTTY).
        #expect(acts["type into a terminal"] == "denied: \(Errno.notPermitted)", "\(acts)")
        for (act, outcome) in acts {
            #expect(outcome.hasPrefix("denied"), "\(act): \(outcome)")
        }
        #expect(!listener.hasPendingConnection)
        #expect(!FileManager.default.fileExists(atPath: outside.path))

        // The same worker still reads a file the indexer passes it.
        let text = folder.url.appending(path: "note.txt")
        try Data("lighthouse keeper".utf8).write(to: text)
        let read = try worker.run(kind: .text, path: Array(text.path.utf8), limit: 1 << 16, contentType: "text/plain",
                                  deadline: .seconds(20)).get()
        guard case .document(let note) = read.outcome else {
            Issue.record("the text request answered \(read.outcome)")
            return
        }
        #expect(note.text == "lighthouse keeper")
    }

    @Test("Each worker is confined: no_new_privs, a seccomp filter, and Landlock where the kernel has it")
    func workerStatus() throws {
        let worker = try Self.startWorker()
        defer { worker.stop(grace: .seconds(2)) }
        // A first answer: the worker has confined itself before reading its first request.
        let folder = try TemporaryFolder()
        let text = folder.url.appending(path: "a.txt")
        try Data("a".utf8).write(to: text)
        _ = worker.run(kind: .text, path: Array(text.path.utf8), limit: 16, contentType: "text/plain", deadline: .seconds(20))
        let status = try String(contentsOfFile: "/proc/\(worker.processID)/status", encoding: .utf8)
        #expect(status.contains("NoNewPrivs:\t1"))
        #expect(status.contains("Seccomp:\t2"))
        #expect(SandboxSupport.current.seccomp)
    }
}

/// A TCP socket listening on 127.0.0.1, on a port the kernel chose.
final class LoopbackListener {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && listen(descriptor, 4) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        port = bound ? UInt16(bigEndian: address.sin_port) : 0
        try #require(bound)
    }

    deinit { close(descriptor) }

    /// Whether someone connected (`accept(2)` on the non-blocking socket).
    var hasPendingConnection: Bool {
        let connection = accept(descriptor, nil, nil)
        if connection >= 0 { close(connection) }
        return connection >= 0
    }
}
