import SystemCalls

extension SandboxSupport {
    /// `status`'s line: the protections every extraction worker has on this kernel, or what it lacks.
    var line: String {
        var held = ["no_new_privs"]
        if seccomp { held.append("seccomp filter") }
        if let landlockABI {
            held.append("Landlock ABI \(landlockABI) (files\(landlockABI >= 4 ? ", TCP" : "")\(landlockABI >= 6 ? ", signals" : ""))")
        }
        return "sandbox: " + ([held.joined(separator: ", ")] + missing).joined(separator: "; ") + "\n"
    }

    /// `status --json`'s `"sandbox"` member: `{"noNewPrivileges":true,"seccomp":true,"landlock":7}`
    /// (`"landlock":null` without Landlock).
    var json: String {
        "{\"noNewPrivileges\":\(noNewPrivileges),\"seccomp\":\(seccomp),\"landlock\":\(landlockABI.map(String.init) ?? "null")}"
    }

    /// `object` (a JSON object) with the `"sandbox"` member added.
    func adding(to object: [UInt8]) -> [UInt8] {
        guard object.last == UInt8(ascii: "}") else { return object }
        return object.dropLast() + Array((",\"sandbox\":" + json + "}").utf8)
    }
}
