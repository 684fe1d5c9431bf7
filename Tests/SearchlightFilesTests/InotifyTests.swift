#if canImport(Glibc)
import Glibc
import Searchlight
#endif
@testable import SearchlightFiles
import SystemPackage
import SearchlightTestSupport
import Testing

@Suite("Inotify on real directories", .ownThread)
struct InotifyTests {
    let directory: TemporaryDirectory
    let inotify: Inotify

    init() throws {
        directory = try TemporaryDirectory()
        inotify = try Inotify()
    }

    // Swift Testing makes a fresh suite value per test; deleting the folder in a deinit is
    // not available to structs, so each test cleans up with `defer`.

    @Test func createdFileReportsCreateThenCloseWrite() throws {
        defer { directory.remove() }
        let watch = try inotify.addWatch(directory.filePath)
        try writeFile(directory("report.txt"), "quarterly")

        let events = try waitUntil(inotify) { $0.contains(.closeWrite, "report.txt") }
        #expect(events.contains(.create, "report.txt", on: watch))
        #expect(events.contains(.closeWrite, "report.txt", on: watch))
        let create = try #require(events.firstIndex { $0.mask.contains(.create) })
        let closeWrite = try #require(events.firstIndex { $0.mask.contains(.closeWrite) })
        #expect(create < closeWrite)
        #expect(events.allSatisfy { !$0.isDirectory && $0.cookie == 0 })
        // `.modify` is not in `.standard`: the write itself is not reported.
        #expect(!events.contains { $0.mask.contains(.modify) })
    }

    /// A file name as raw bytes, shown by what is special about it in the test report.
    struct Name: CustomTestStringConvertible, Sendable {
        var bytes: [UInt8]
        var testDescription: String

        static let all = [
            Name(bytes: [0x66, 0xFF, 0xFE, 0x2E, 0x74, 0x78, 0x74], testDescription: "not UTF-8"),
            Name(bytes: Array("line\nbreak.txt".utf8), testDescription: "a newline"),
            Name(bytes: Array("Résumé — 2024 📄.pdf".utf8), testDescription: "multi-byte UTF-8"),
            Name(bytes: Array(repeating: UInt8(ascii: "n"), count: 250) + Array(".text".utf8),
                 testDescription: "255 bytes (NAME_MAX)"),
            Name(bytes: Array("a".utf8), testDescription: "one byte"),
            Name(bytes: Array("sixteen-bytes-xx".utf8), testDescription: "16 bytes: len is 32"),
        ]
    }

    @Test("names come back byte for byte", arguments: Name.all)
    func namesAreByteExact(name: Name) throws {
        defer { directory.remove() }
        let watch = try inotify.addWatch(directory.filePath)
        try writeFile(directory(name.bytes))

        let events = try waitUntil(inotify) { $0.contains(.closeWrite, name.bytes) }
        #expect(events.contains(.create, name.bytes, on: watch))
        #expect(events.allSatisfy { $0.name == name.bytes })
    }

    @Test func makingADirectoryReportsCreateIsDirectory() throws {
        defer { directory.remove() }
        let watch = try inotify.addWatch(directory.filePath)
        try makeDirectory(directory("photos"))

        let events = try waitUntil(inotify) { $0.contains([.create, .isDirectory], "photos") }
        let event = try #require(events.first(.create, "photos"))
        #expect(event.watch == watch)
        #expect(event.isDirectory)
    }

    @Test func renameWithinADirectoryPairsByCookie() throws {
        defer { directory.remove() }
        try writeFile(directory("draft.md"))
        let watch = try inotify.addWatch(directory.filePath)
        try renameItem(directory("draft.md"), directory("final.md"))

        let events = try waitUntil(inotify) { $0.contains(.movedTo, "final.md") }
        let from = try #require(events.first(.movedFrom, "draft.md"))
        let to = try #require(events.first(.movedTo, "final.md"))
        #expect(from.watch == watch && to.watch == watch)
        #expect(from.cookie != 0)
        #expect(from.cookie == to.cookie)
    }

    @Test func moveBetweenWatchedDirectoriesPairsByCookie() throws {
        defer { directory.remove() }
        try makeDirectory(directory("inbox"))
        try makeDirectory(directory("archive"))
        try writeFile(directory("inbox/mail.eml"))
        try makeDirectory(directory("inbox/attachments"))
        let inbox = try inotify.addWatch(FilePath(bytes: directory("inbox")))
        let archive = try inotify.addWatch(pathBytes: directory("archive"))
        #expect(inbox != archive)

        try renameItem(directory("inbox/mail.eml"), directory("archive/mail.eml"))
        try renameItem(directory("inbox/attachments"), directory("archive/files"))

        let events = try waitUntil(inotify) { $0.contains(.movedTo, "files") }
        let fileFrom = try #require(events.first(.movedFrom, "mail.eml"))
        let fileTo = try #require(events.first(.movedTo, "mail.eml"))
        #expect(fileFrom.watch == inbox && fileTo.watch == archive)
        #expect(fileFrom.cookie == fileTo.cookie)
        let folderFrom = try #require(events.first([.movedFrom, .isDirectory], "attachments"))
        let folderTo = try #require(events.first([.movedTo, .isDirectory], "files"))
        #expect(folderFrom.watch == inbox && folderTo.watch == archive)
        #expect(folderFrom.cookie == folderTo.cookie)
        #expect(folderFrom.cookie != fileFrom.cookie)
    }

    @Test func deletingAFileReportsDelete() throws {
        defer { directory.remove() }
        try writeFile(directory("old.log"))
        let watch = try inotify.addWatch(directory.filePath)
        try removeFile(directory("old.log"))

        let events = try waitUntil(inotify) { $0.contains(.delete, "old.log") }
        #expect(events.contains(.delete, "old.log", on: watch))
    }

    @Test func removingAWatchReportsIgnored() throws {
        defer { directory.remove() }
        let watch = try inotify.addWatch(directory.filePath)
        try inotify.removeWatch(watch)

        let events = try waitUntil(inotify) { $0.contains { $0.mask.contains(.ignored) } }
        #expect(events.contains { $0.watch == watch && $0.mask.contains(.ignored) && $0.name.isEmpty })

        // The kernel no longer knows the watch.
        let error = try #require(throws: FileSystemError.self) { try inotify.removeWatch(watch) }
        #expect(error.isStaleWatch)
        #expect(error.description.contains("(\(watch))"))
    }

    @Test func deletedDirectoryReportsDeleteSelfThenIgnored() throws {
        defer { directory.remove() }
        try makeDirectory(directory("gone"))
        let parent = try inotify.addWatch(directory.filePath)
        let gone = try inotify.addWatch(pathBytes: directory("gone"))
        try removeDirectory(directory("gone"))

        let events = try waitUntil(inotify) { events in
            events.contains { $0.watch == gone && $0.mask.contains(.ignored) }
        }
        #expect(events.contains([.delete, .isDirectory], "gone", on: parent))
        let deleteSelf = try #require(events.firstIndex { $0.watch == gone && $0.mask.contains(.deleteSelf) })
        let ignored = try #require(events.firstIndex { $0.watch == gone && $0.mask.contains(.ignored) })
        #expect(deleteSelf < ignored)
        #expect(throws: FileSystemError.self) { try inotify.removeWatch(gone) }
    }

    @Test func movedWatchedDirectoryReportsMoveSelfAndKeepsItsWatch() throws {
        defer { directory.remove() }
        try makeDirectory(directory("a"))
        let a = try inotify.addWatch(pathBytes: directory("a"))
        try renameItem(directory("a"), directory("b"))
        try writeFile(directory("b/inside.txt"))

        let events = try waitUntil(inotify) { $0.contains(.closeWrite, "inside.txt") }
        #expect(events.contains { $0.watch == a && $0.mask.contains(.moveSelf) })
        #expect(events.contains(.create, "inside.txt", on: a))
        // Watching the same directory under its new name gives the same descriptor.
        #expect(try inotify.addWatch(pathBytes: directory("b")) == a)
    }

    @Test func manyEventsInOneReadAreAllDecoded() throws {
        defer { directory.remove() }
        let watch = try inotify.addWatch(directory.filePath, for: .create)
        let names = (0..<2000).map { Array("file-\($0)".utf8) }
        for name in names { try writeFile(directory(name)) }

        // Short names take 32 bytes a record: one 64 KiB read holds well over 1000.
        let first = try inotify.readEvents()
        #expect(first.count > 1000)
        var events = first
        events += try waitUntil(inotify) { events.count + $0.count >= names.count }
        #expect(events.count == names.count)
        #expect(events.map(\.name) == names)
        #expect(events.allSatisfy { $0.watch == watch && $0.mask == .create })
        #expect(try inotify.readEvents().isEmpty)
    }

    @Test func queueOverflowIsReportedWithWatchMinusOne() throws {
        defer { directory.remove() }
        let limit = try Inotify.maximumQueuedEvents()
        // Skip on machines configured with huge queues: the test would take too long.
        guard limit <= 65536 else { return }
        try inotify.addWatch(directory.filePath, for: .create)
        for index in 0...limit { try writeFile(directory("f\(index)")) }

        let events = try waitUntil(inotify) { $0.contains { $0.isQueueOverflow } }
        let overflow = try #require(events.first { $0.isQueueOverflow })
        #expect(overflow.watch == .none)
        #expect(overflow.name.isEmpty)
        #expect(events.count == limit + 1)
    }

    @Test func watchingAFileFailsWithNotADirectory() throws {
        defer { directory.remove() }
        try writeFile(directory("plain.txt"))
        let error = try #require(throws: FileSystemError.self) {
            try inotify.addWatch(pathBytes: directory("plain.txt"))
        }
        #expect(error.code == .addWatch)
        #expect(error.cause == .notDirectory)
        #expect(error.isNoSuchFile)
        #expect(!error.isWatchLimitReached)
        #expect(error.path == ItemIdentifier(bytes: directory("plain.txt")))
    }

    @Test func watchingASymbolicLinkFailsWithNotADirectory() throws {
        defer { directory.remove() }
        try makeDirectory(directory("real"))
        try makeSymbolicLink(directory("real"), at: directory("link"))
        let error = try #require(throws: FileSystemError.self) {
            try inotify.addWatch(FilePath(bytes: directory("link")))
        }
        #expect(error.cause == .notDirectory)
    }

    @Test func watchingAMissingPathFailsWithNoSuchFile() throws {
        defer { directory.remove() }
        let error = try #require(throws: FileSystemError.self) {
            try inotify.addWatch(FilePath(bytes: directory("vanished")))
        }
        #expect(error.cause == .noSuchFileOrDirectory)
        #expect(error.isNoSuchFile)
        #expect(error.path == ItemIdentifier(bytes: directory("vanished")))
        let line = error.description
        #expect(line.hasPrefix("inotify_add_watch failed for " + String(decoding: directory.path, as: UTF8.self) + "/vanished"))
        #expect(line.contains("vanished"))
        #expect(!line.contains("\n"))
    }

    @Test func pathBytesWithANulAreRejected() throws {
        defer { directory.remove() }
        let error = try #require(throws: FileSystemError.self) {
            try inotify.addWatch(pathBytes: directory.path + [0] + Array("x".utf8))
        }
        #expect(error.cause == .invalidArgument)
    }

    @Test func directoryNamedWithInvalidUTF8CanBeWatched() throws {
        defer { directory.remove() }
        let name: [UInt8] = [0x64, 0xE9, 0x6A, 0xE0]   // Latin-1 "déjà"
        try makeDirectory(directory(name))
        let watch = try inotify.addWatch(pathBytes: directory(name))
        try writeFile(directory(name + Array("/x".utf8)))
        try waitUntil(inotify) { $0.contains(.closeWrite, "x", on: watch) }
    }

    @Test func readingWithNothingQueuedReturnsNoEvents() throws {
        defer { directory.remove() }
        try inotify.addWatch(directory.filePath)
        #expect(try inotify.readEvents().isEmpty)
    }

    // MARK: The asynchronous sequence

    @Test func eventSequenceDeliversBatches() async throws {
        defer { directory.remove() }
        let watch = try inotify.addWatch(directory.filePath)
        let inotify = self.inotify
        let consumer = Task {
            var seen: [InotifyEvent] = []
            for try await batch in inotify.events() {
                #expect(!batch.isEmpty)
                seen += batch
                if seen.contains(.closeWrite, "last") { break }
            }
            return seen
        }
        for name in ["first", "second", "last"] { try writeFile(directory(name)) }

        let events = try await withDeadline { try await consumer.value }
        for name in ["first", "second", "last"] {
            #expect(events.contains(.create, name, on: watch))
            #expect(events.contains(.closeWrite, name, on: watch))
        }
    }

    @Test func eventSequenceWaitsForEventsThatComeLater() async throws {
        defer { directory.remove() }
        try inotify.addWatch(directory.filePath)
        let inotify = self.inotify
        let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var iterator = inotify.events().makeAsyncIterator()
            startedContinuation.yield()
            return try await iterator.next()
        }
        // Let the consumer start waiting (or not: either way it must see the event).
        for await _ in started { break }
        try writeFile(directory("late"))

        let batch = try await withDeadline { try await consumer.value }
        #expect(batch?.contains(.create, "late") == true)
    }

    @Test func eventSequenceEndsWhenItsTaskIsCancelledWhileIdle() async throws {
        defer { directory.remove() }
        try inotify.addWatch(directory.filePath)
        let inotify = self.inotify
        let (firstBatch, firstBatchContinuation) = AsyncStream.makeStream(of: Void.self)
        let consumer = Task {
            var batches = 0
            for try await _ in inotify.events() {
                batches += 1
                firstBatchContinuation.yield()
            }
            return batches
        }
        try writeFile(directory("one"))
        for await _ in firstBatch { break }
        // The consumer is now suspended waiting for more: cancelling must end the loop.
        consumer.cancel()

        let batches = try await withDeadline { try await consumer.value }
        #expect(batches >= 1)

        // The sequence closed nothing: the descriptor still works.
        try writeFile(directory("two"))
        try waitUntil(inotify) { $0.contains(.closeWrite, "two") }
        try inotify.addWatch(directory.filePath)
    }

    @Test func eventSequenceEndsWhenCancelledBeforeItStarts() async throws {
        defer { directory.remove() }
        try inotify.addWatch(directory.filePath)
        let inotify = self.inotify
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var batches = 0
            for try await _ in inotify.events() { batches += 1 }
            return batches
        }
        #expect(try await withDeadline { try await consumer.value } == 0)
    }

    @Test func eventSequenceIteratesAcrossManyWaits() async throws {
        defer { directory.remove() }
        try inotify.addWatch(directory.filePath, for: .closeWrite)
        let inotify = self.inotify
        let directory = self.directory
        // One file at a time, each written after the previous one was delivered: every
        // round goes through a new wait for readability.
        let rounds = try await withDeadline {
            var index = 0
            try writeFile(directory("round-0"))
            for try await batch in inotify.events() {
                #expect(batch.contains(.closeWrite, "round-\(index)"))
                index += 1
                if index == 50 { break }
                try writeFile(directory("round-\(index)"))
            }
            return index
        }
        #expect(rounds == 50)
    }

    @Test func eventSequenceLosesNothingWhileAWriterRacesIt() async throws {
        defer { directory.remove() }
        try inotify.addWatch(directory.filePath, for: .closeWrite)
        let inotify = self.inotify
        let directory = self.directory
        let count = 500
        let consumer = Task {
            var names = Set<[UInt8]>()
            for try await batch in inotify.events(maximumBatchSize: 7) {
                for event in batch { names.insert(event.name) }
                if names.count == count { break }
            }
            return names.count
        }
        // Writes from another thread while the consumer alternates between reading and
        // waiting, so that writes land in every phase of the wait.
        let writer = Task.detached {
            for index in 0..<count {
                try writeFile(directory("race-\(index)"))
                if index % 10 == 0 { await Task.yield() }
            }
        }
        try await writer.value
        #expect(try await withDeadline { try await consumer.value } == count)
    }

    // MARK: Limits and errors

    @Test func watchLimitIsReadable() throws {
        #expect(try Inotify.maximumUserWatches() > 0)
        #expect(try Inotify.maximumQueuedEvents() > 0)
        #expect(try Inotify.maximumUserInstances() > 0)
    }

    @Test func watchLimitErrorNamesTheSysctl() {
        let error = FileSystemError(.addWatch, errno: .noSpace, path: "/home/ann/Documents/deep")
        #expect(error.isWatchLimitReached)
        #expect(!error.isNoSuchFile)
        #expect(error.description.contains("fs.inotify.max_user_watches"))
        #expect(error.description.contains("/home/ann/Documents/deep"))
        #expect(!error.description.contains("\n"))
        // ENOSPC from anything but inotify_add_watch is not the watch limit.
        #expect(!FileSystemError(.readEvents, errno: .noSpace).isWatchLimitReached)
    }

    @Test func maskConstantsMatchTheKernel() {
        #expect(InotifyEventMask.create.rawValue == 0x100)
        #expect(InotifyEventMask.closeWrite.rawValue == 0x8)
        #expect(InotifyEventMask.queueOverflow.rawValue == 0x4000)
        #expect(InotifyEventMask.isDirectory.rawValue == 0x4000_0000)
        #expect(InotifyEventMask.oneShot.rawValue == 0x8000_0000)
        #expect(InotifyEventMask.allEvents.rawValue == 0xFFF)
        #expect(!InotifyEventMask.standard.contains(.modify))
        #expect(InotifyEventMask([.create, .isDirectory]).description == "[create, isDirectory]")
    }
}

@Suite("Decoding inotify records")
struct InotifyDecodingTests {
    /// Builds the bytes the kernel would return for `events`, names NUL-padded to
    /// `padding` bytes.
    func records(_ events: [InotifyEvent], padding: Int = 16) -> [UInt8] {
        var bytes: [UInt8] = []
        for event in events {
            let length = event.name.isEmpty ? 0 : (event.name.count / padding + 1) * padding
            withUnsafeBytes(of: event.watch.rawValue.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: event.mask.rawValue.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: event.cookie.littleEndian) { bytes += $0 }
            withUnsafeBytes(of: UInt32(length).littleEndian) { bytes += $0 }
            bytes += event.name + Array(repeating: 0, count: length - event.name.count)
        }
        return bytes
    }

    @Test func packedRecordsWithPaddedNames() throws {
        let events = [
            InotifyEvent(watch: WatchDescriptor(rawValue: 1), mask: .create, name: Array("a".utf8)),
            InotifyEvent(watch: WatchDescriptor(rawValue: 1), mask: [.movedFrom, .isDirectory], cookie: 77, name: [0xFF, 0x0A, 0xC3]),
            InotifyEvent(watch: WatchDescriptor(rawValue: 2), mask: .deleteSelf),
            InotifyEvent(watch: .none, mask: .queueOverflow),
            InotifyEvent(watch: WatchDescriptor(rawValue: 3), mask: .closeWrite, name: Array(repeating: 0x41, count: 255)),
        ]
        let bytes = records(events)
        #expect(InotifyEvent.headerSize == 16)
        let decoded = try bytes.withUnsafeBytes { try InotifyEvent.decode($0) }
        #expect(decoded == events)
    }

    @Test func emptyReadDecodesToNoEvents() throws {
        #expect(try [UInt8]().withUnsafeBytes { try InotifyEvent.decode($0) }.isEmpty)
    }

    @Test func truncatedRecordIsAnError() {
        let bytes = records([InotifyEvent(watch: WatchDescriptor(rawValue: 1), mask: .create, name: Array("name".utf8))])
        for cut in [1, 8, 17, bytes.count - 1] {
            #expect(throws: FileSystemError.self) {
                try bytes[..<cut].withUnsafeBytes { try InotifyEvent.decode($0) }
            }
        }
    }
}
