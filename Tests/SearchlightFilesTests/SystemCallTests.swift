import Foundation
import SearchlightTestSupport
import SystemCalls
import SystemPackage
import Testing

/// The system-call layer on a real temporary folder: what each wrapper returns, and the
/// `Errno` each failure throws.
@Suite("System calls", .ownThread)
struct SystemCallTests {
    @Test("Strings as a C array: each ended by its NUL, the array by a null pointer, none at all too")
    func cStringArrays() {
        for strings in [[], [""], ["a"], ["open", "", "sécurité", "read"]] {
            let read: [String?] = SystemCall.withCStrings(strings) { pointers in
                pointers.map { $0.map { String(cString: $0) } }
            }
            #expect(read == strings.map(Optional.some) + [nil])
        }
        // Bytes that are not UTF-8, as a file name may hold, arrive as they are.
        let bytes: [[UInt8]?] = SystemCall.withCStrings([[0xFF, 0x41], [0x2F]]) { pointers in
            pointers.map { $0.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } }
        }
        #expect(bytes == [[0xFF, 0x41], [0x2F], nil])
    }

    @Test("A path below a root opens one component at a time, never through a link")
    func openBelowARoot() throws {
        let tree = TemporaryTree("syscalls")
        tree.write("a/b/file.txt", "inside\n")
        tree.write("outside.txt", "outside\n")
        try FileManager.default.createSymbolicLink(atPath: tree.url("a/link"), withDestinationPath: tree.path)
        try FileManager.default.createSymbolicLink(atPath: tree.url("a/b/final"), withDestinationPath: tree.url("outside.txt"))
        let root = try SystemCall.open(tree.url("a").utf8, .readOnly, options: [.directory, .closeOnExec])
        defer { SystemCall.close(root) }

        let file = try SystemCall.open(below: root, "b/file.txt".utf8, .readOnly)
        #expect(try SystemCall.readBytes(file, limit: 100) == Array("inside\n".utf8))
        SystemCall.close(file)

        // A link to a folder on the way, a final link, `..`, an absolute path, an empty component.
        #expect(throws: Errno.notDirectory) { try SystemCall.open(below: root, "link/outside.txt".utf8, .readOnly) }
        #expect(throws: Errno.tooManySymbolicLinkLevels) { try SystemCall.open(below: root, "b/final".utf8, .readOnly) }
        #expect(throws: Errno.invalidArgument) { try SystemCall.open(below: root, "../outside.txt".utf8, .readOnly) }
        #expect(throws: Errno.invalidArgument) { try SystemCall.open(below: root, "/etc/passwd".utf8, .readOnly) }
        #expect(throws: Errno.invalidArgument) { try SystemCall.open(below: root, "b//file.txt".utf8, .readOnly) }
        #expect(throws: Errno.noSuchFileOrDirectory) { try SystemCall.open(below: root, "b/none".utf8, .readOnly) }

        // A descent that failed stays where it was.
        var descent = FolderDescent(from: root)
        try descent.enter("b".utf8)
        #expect(throws: Errno.noSuchFileOrDirectory) { try descent.enter("c".utf8) }
        let again = try descent.open("file.txt".utf8, .readOnly)
        SystemCall.close(again)
    }

    @Test("A pipe's two ends are close-on-exec from the start, and carry bytes")
    func pipeEndsAreCloseOnExec() throws {
        let (readEnd, writeEnd) = try SystemCall.pipe()
        defer { SystemCall.close(readEnd); SystemCall.close(writeEnd) }
        #expect(fcntl(readEnd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(writeEnd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(write(writeEnd, "ok", 2) == 2)
        var bytes = [UInt8](repeating: 0, count: 2)
        #expect(read(readEnd, &bytes, 2) == 2)
        #expect(bytes == Array("ok".utf8))
    }

    @Test("A folder's names, statx of an entry and of a descriptor")
    func namesAndStatus() throws {
        let tree = TemporaryTree("syscalls")
        tree.write("one", "1")
        tree.write([0x6E, 0xE9, 0x2E, 0x74, 0x78, 0x74], "not UTF-8")   // "n\xe9.txt"
        tree.mkdirs("folder")
        let folder = try SystemCall.open(tree.path.utf8, .readOnly, options: [.directory, .closeOnExec])
        defer { SystemCall.close(folder) }
        #expect(Set(try SystemCall.entryNames(of: folder)) == [Array("one".utf8), [0x6E, 0xE9, 0x2E, 0x74, 0x78, 0x74], Array("folder".utf8)])
        // The folder's own offset is left alone: a second listing sees the same.
        #expect(try SystemCall.entryNames(of: folder).count == 3)

        let one = try SystemCall.status(ofPath: "one".utf8, in: folder)
        #expect(one.isRegularFile && one.size == 1)
        #expect(try SystemCall.status(ofPath: "folder".utf8, in: folder).isDirectory)
        #expect(throws: Errno.noSuchFileOrDirectory) { try SystemCall.status(ofPath: "none".utf8, in: folder) }
        #expect(try SystemCall.status(of: folder).isDirectory)
    }

    @Test("flock: one exclusive holder; a file replaced at once; a child's exit status")
    func lockReplaceAndSpawn() throws {
        let tree = TemporaryTree("syscalls")
        let path = tree.url("lock")
        let first = try SystemCall.open(path.utf8, .readWrite, options: [.create, .closeOnExec])
        defer { SystemCall.close(first) }
        let second = try SystemCall.open(path.utf8, .readWrite, options: [.closeOnExec])
        defer { SystemCall.close(second) }
        #expect(try SystemCall.lock(first, .exclusive))
        #expect(try !SystemCall.lock(second, .shared))
        SystemCall.unlock(first)
        #expect(try SystemCall.lock(second, .shared))

        try SystemCall.replaceFile(tree.url("state.json"), with: Array("{}".utf8))
        #expect(FileManager.default.contents(atPath: tree.url("state.json")) == Data("{}".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tree.path).sorted() == ["lock", "state.json"])

        var options = SystemCall.SpawnOptions()
        options.searchesPath = true
        let exiting = try SystemCall.spawn("sh", arguments: ["sh", "-c", "exit 3"].map { Array($0.utf8) }, options: options)
        #expect(try SystemCall.waitForExit(of: exiting) == .exited(3))
        let killed = try SystemCall.spawn("sleep", arguments: ["sleep", "30"].map { Array($0.utf8) }, options: options)
        #expect(try SystemCall.waitForExit(of: killed, blocking: false) == nil)
        try SystemCall.send(SIGKILL, to: killed)
        #expect(try SystemCall.waitForExit(of: killed) == .signaled(SIGKILL))
        #expect(!SystemCall.processExists(killed))
    }

    @Test("A child that outlives its deadline fails the test, and is killed and reaped")
    func aStuckChildFailsTheTestInsteadOfHangingIt() throws {
        let sleeper = try ChildProcess(["sleep", "600"])
        withKnownIssue {
            sleeper.waitUntilExit(timeout: 0.5)
        }
        #expect(!sleeper.isRunning)
        #expect(sleeper.wasSignaled)
    }
}
