import Foundation
import Glibc

/// A real temporary folder for a test, removed (permissions restored first) afterwards.
final class TemporaryTree {
    let path: String

    init(_ label: String = "tree") {
        var template = Array((FileManager.default.temporaryDirectory.path + "/searchlight-\(label)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: created!)
    }

    deinit {
        _ = try? Process.run(URL(fileURLWithPath: "/bin/chmod"), arguments: ["-R", "u+rwx", path]).waitUntilExit()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `contents` to the relative path `name` (raw bytes allowed), creating folders.
    func write(_ name: [UInt8], _ contents: String = "hello\n") {
        precondition(tryWrite(name, contents), "cannot create \(String(decoding: name, as: UTF8.self)): errno \(errno)")
    }

    /// Like `write`, but says whether it worked instead of stopping the test (for random operations).
    @discardableResult
    func tryWrite(_ name: [UInt8], _ contents: String = "hello\n") -> Bool {
        let full = Array(path.utf8) + [0x2F] + name
        if let slash = name.lastIndex(of: 0x2F) {
            mkdirs(Array(name[..<slash]))
        }
        let fd = (full + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        guard fd >= 0 else { return false }
        _ = Array(contents.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return true
    }

    func write(_ name: String, _ contents: String = "hello\n") { write(Array(name.utf8), contents) }

    func mkdirs(_ name: [UInt8]) {
        var prefix: [UInt8] = []
        for component in name.split(separator: 0x2F) {
            prefix += (prefix.isEmpty ? [] : [0x2F]) + component
            let full = Array(path.utf8) + [0x2F] + prefix + [0]
            _ = full.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }
        }
    }

    func mkdirs(_ name: String) { mkdirs(Array(name.utf8)) }

    func url(_ name: String) -> String { path + "/" + name }

    func remove(_ name: String) { try? FileManager.default.removeItem(atPath: url(name)) }

    func rename(_ from: String, _ to: String) {
        precondition(Glibc.rename(url(from), url(to)) == 0, "rename failed: errno \(errno)")
    }
}
