#if SEARCHLIGHT_TEST_HOOKS
import ExtractionProtocol
import SystemCalls
import SystemPackage

extension ExtractorSandbox {
    /// The request kind of the sandbox's self-test, which only debug builds (the tests') answer:
    /// a release worker answers it as any unknown kind, unsupported. Tests/SearchlightFilesTests'
    /// ExtractorSandboxTests sends it.
    static let probeKindRawValue: UInt8 = 0xF0

    /// Tries each act the sandbox forbids, as a decoder under an attacker's control would, and
    /// answers a document whose text has a line per act: its name, a tab, `denied: ERRNO` or
    /// `allowed`. The request's path is a file to read by name (the indexer also passed it
    /// open, as always: the probe ignores that); its content type is `port=N;outside=PATH`: a
    /// loopback TCP port that accepts connections and a file to create outside the worker's folder.
    static func probe(_ request: ExtractionRequest) -> ExtractionResponse {
        var fields: [Substring: Substring] = [:]
        for field in request.contentType.split(separator: ";") {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        var lines: [String] = []
        func record(_ act: String, _ attempt: () throws(Errno) -> Void) {
            do {
                try attempt()
                lines.append("\(act)\tallowed")
            } catch {
                lines.append("\(act)\tdenied: \(error)")
            }
        }
        record("read by path") { () throws(Errno) in
            SystemCall.close(try SystemCall.open(request.path, .readOnly))
        }
        record("connect to loopback TCP") { () throws(Errno) in
            try SystemCall.connectToLoopback(port: fields["port"].flatMap { Int($0) } ?? 0)
        }
        record("execve /bin/sh") { () throws(Errno) in
            let shell = try SystemCall.spawn("/bin/sh", arguments: [Array("sh".utf8), Array("-c".utf8), Array("exit 0".utf8)])
            _ = try SystemCall.waitForExit(of: shell)
        }
        record("write outside its folder") { () throws(Errno) in
            SystemCall.close(try SystemCall.open(Array((fields["outside"] ?? "/tmp/searchlight-probe").utf8), .writeOnly,
                                                 options: [.create, .closeOnExec]))
        }
        record("ptrace its parent") { () throws(Errno) in
            try SystemCall.attachTracer(to: SystemCall.parentProcessID)
        }
        record("type into a terminal") { () throws(Errno) in
            // Standard error is no terminal here: unconfined, this fails with ENOTTY, not EPERM.
            try SystemCall.typeIntoTerminal(0x0A, descriptor: 2)
        }
        return ExtractionResponse(jobID: request.jobID, kindRawValue: request.kindRawValue,
                                  outcome: .document(ExtractedDocument(text: lines.joined(separator: "\n"))))
    }
}
#endif
