import Foundation
import Testing
import Glibc

/// A real temporary folder for a test, removed (permissions restored first) afterwards.
/// Test helpers shared by the test targets: real temporary folders, shell commands, seeded
/// randomness.
public final class TemporaryTree {
    public let path: String

    public init(_ label: String = "tree") {
        path = Self.makeFolder(label)
    }

    deinit { Self.removeFolder(path) }

    /// Makes `$TMPDIR/searchlight-LABEL-XXXXXX` and returns its path.
    static func makeFolder(_ label: String) -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/searchlight-\(label)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "cannot make a temporary folder: errno \(errno)")
        return String(cString: created!)
    }

    /// Removes `path` and what it holds, permissions restored first.
    static func removeFolder(_ path: String) {
        _ = try? ChildProcess.run(["/bin/chmod", "-R", "u+rwx", path], brief: true)
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `contents` to the relative path `name` (raw bytes allowed), creating folders.
    public func write(_ name: [UInt8], _ contents: String = "hello\n") {
        precondition(tryWrite(name, contents), "cannot create \(String(decoding: name, as: UTF8.self)): errno \(errno)")
    }

    /// Like `write`, but says whether it worked instead of stopping the test (for random operations).
    @discardableResult
    public func tryWrite(_ name: [UInt8], _ contents: String = "hello\n") -> Bool {
        let full = Array(path.utf8) + [0x2F] + name
        if let slash = name.lastIndex(of: 0x2F) {
            mkdirs(Array(name[..<slash]))
        }
        // Close-on-exec: a child another test starts meanwhile must not hold the file open, or
        // its last close (`IN_CLOSE_WRITE`) would reach a watch started after this write.
        let fd = (full + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        }
        guard fd >= 0 else { return false }
        _ = Array(contents.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return true
    }

    public func write(_ name: String, _ contents: String = "hello\n") { write(Array(name.utf8), contents) }

    public func mkdirs(_ name: [UInt8]) {
        var prefix: [UInt8] = []
        for component in name.split(separator: 0x2F) {
            prefix += (prefix.isEmpty ? [] : [0x2F]) + component
            let full = Array(path.utf8) + [0x2F] + prefix + [0]
            _ = full.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) } }
        }
    }

    public func mkdirs(_ name: String) { mkdirs(Array(name.utf8)) }

    public func url(_ name: String) -> String { path + "/" + name }

    public func remove(_ name: String) { try? FileManager.default.removeItem(atPath: url(name)) }

    public func rename(_ from: String, _ to: String) {
        precondition(Glibc.rename(url(from), url(to)) == 0, "rename failed: errno \(errno)")
    }
}

/// A folder for files that a helper hands out and no test removes (an index a helper opens and
/// returns): made on first use, removed with what it holds when the test process exits, so
/// that runs leave nothing behind in the temporary folder.
public enum TestScratch {
    /// The folder's path.
    public static let folder: String = {
        let folder = TemporaryTree.makeFolder("scratch")
        atexit { TemporaryTree.removeFolder(TestScratch.folder) }
        return folder
    }()

    /// A new path in the folder: `label`, a unique part, then `suffix`.
    public static func path(_ label: String, suffix: String = ".sqlite") -> String {
        folder + "/" + label + "-" + UUID().uuidString + suffix
    }
}

/// Runs a command (cp, mv, vips…) and stops the test if it fails.
public func shell(_ arguments: String...) {
    shell(arguments)
}

/// Runs a command given as an array.
public func shell(_ arguments: [String]) {
    let result = try? ChildProcess.run(arguments, brief: true)
    precondition(result?.status == 0, "\(arguments) failed: \(String(decoding: result?.stderr ?? [], as: UTF8.self))")
}

/// A small deterministic generator (SplitMix64), so that a seed replays the same choices.
public struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
