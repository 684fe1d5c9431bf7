import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Bursts of random file operations (``RandomTreeOperations``) issued as fast as possible
/// against a live watcher, so that windows are processed while the tree keeps changing. After
/// each round the index must equal the operating system's view of the disk (``DiskWalk``):
/// every path, and each file's size, modification time and MIME type.
///
/// Environment, for long campaigns (`Tests/Scripts/random-watch.sh` runs hundreds of seeds):
/// `SEARCHLIGHT_RANDOM_SEEDS=1,2,3` (or `FIRST-LAST`), `SEARCHLIGHT_RANDOM_ROUNDS=N`,
/// `SEARCHLIGHT_RANDOM_OPERATIONS=N` (per round). A failure prints its seed and round.
@Suite("Randomized watch", .serialized, .ownThread)
struct RandomizedWatchTests {
    static let environment = ProcessInfo.processInfo.environment

    static let seeds: [UInt64] = {
        guard let list = environment["SEARCHLIGHT_RANDOM_SEEDS"] else { return [1, 2024] }
        return list.split(separator: ",").flatMap { part -> [UInt64] in
            let bounds = part.split(separator: "-").compactMap { UInt64($0) }
            if bounds.count == 2, bounds[0] <= bounds[1] { return Array(bounds[0]...bounds[1]) }
            return bounds
        }
    }()

    static let rounds = Int(environment["SEARCHLIGHT_RANDOM_ROUNDS"] ?? "") ?? 3
    static let operations = Int(environment["SEARCHLIGHT_RANDOM_OPERATIONS"] ?? "") ?? 250
    /// The longest pause between two operations of a burst, in microseconds, by round: none
    /// (the burst is over in milliseconds) to a few milliseconds (it spans many windows).
    static let paces: [UInt32] = [0, 1000, 3000, 6000]
    /// How long a round may take to settle before the index is declared wrong.
    static let settleTimeout = TimeInterval(environment["SEARCHLIGHT_RANDOM_TIMEOUT"] ?? "") ?? 120

    /// The watcher in this process: rounds alternate between a free consumer and one held
    /// for part of the burst (events pile up, then come in one go).
    @Test(arguments: seeds)
    func liveWatcherMatchesTheDiskAfterEachBurst(seed: UInt64) async throws {
        let fixture = try WatchFixture()
        try await fixture.start()
        var operations = RandomTreeOperations(root: fixture.tree.path, outside: fixture.outside.path, seed: seed)
        var repairedBefore = 0
        for round in 0..<Self.rounds {
            let held = round % 2 == 1
            let holdAt = held ? Int.random(in: 0..<Self.operations / 2, using: &operations.random) : -1
            let pace = Self.paces.randomElement(using: &operations.random)!
            operations.burst(Self.operations, building: round == 0, pace: pace) { step in
                if step == holdAt { fixture.watcher.holdsWindows.store(true, ordering: .relaxed) }
                if step == Self.operations - holdAt - 1 { fixture.watcher.holdsWindows.store(false, ordering: .relaxed) }
            }
            fixture.watcher.holdsWindows.store(false, ordering: .relaxed)
            let difference = await Self.settle(index: fixture.index, domain: fixture.domain, root: fixture.tree.path)
            #expect(difference == nil, """
                seed \(seed), round \(round)\(held ? " (consumer held)" : ""): the index does not match the disk.
                \(difference ?? "")
                last operations: \(operations.log.suffix(40).joined(separator: "\n"))
                """)
            if difference != nil { break }
            // A self-check of a settled index repairs nothing; neither did any that ran during
            // the burst (after uncertain moves): a repair is a bug.
            #expect(await fixture.watcher.checkNow(), "seed \(seed), round \(round): no self-check ran")
            if fixture.watcher.selfCheckRepairs != repairedBefore, let dump = Self.environment["SEARCHLIGHT_RANDOM_DUMP"] {
                try? (fixture.log.all + ["--- operations"] + operations.log).joined(separator: "\n")
                    .write(toFile: dump + "-\(seed).log", atomically: true, encoding: .utf8)
            }
            // Save one kind: a file written through a name that was gone before the watcher
            // looked, which no directory watch can see (its other names are repaired).
            let unseen = operations.takeWritesThroughVanishedNames()
            let repairs = fixture.watcher.recentRepairs.suffix(fixture.watcher.selfCheckRepairs - repairedBefore)
            repairedBefore = fixture.watcher.selfCheckRepairs
            let unexplained = repairs.filter { repair in
                repair.change != .updated || !unseen.contains(DiskWalk.inode(fixture.tree.path + "/" + repair.identifier.lossyString) ?? 0)
            }
            #expect(unexplained.isEmpty, """
                seed \(seed), round \(round): the self-check repaired the index: \(unexplained.prefix(10)) \
                \(fixture.log.all.filter { $0.contains("self-check") }.suffix(3))
                """)
            operations.clearOutside()
        }
        try await fixture.stop()
    }

    /// The watcher out of inotify watches (a small cap, as when other programs use the user's
    /// `fs.inotify.max_user_watches`): folders it cannot watch are rescanned periodically, and
    /// the index must still come to equal the disk.
    @Test(arguments: seeds)
    func watcherOutOfWatchesMatchesTheDiskAfterEachBurst(seed: UInt64) async throws {
        let fixture = try WatchFixture { options in
            options.maximumWatches = 25
            options.rescanInterval = .milliseconds(500)
        }
        try await fixture.start()
        var operations = RandomTreeOperations(root: fixture.tree.path, outside: fixture.outside.path, seed: seed)
        for round in 0..<Self.rounds {
            let pace = Self.paces.randomElement(using: &operations.random)!
            operations.burst(Self.operations, building: round == 0, pace: pace)
            let difference = await Self.settle(index: fixture.index, domain: fixture.domain, root: fixture.tree.path)
            #expect(difference == nil, """
                seed \(seed), round \(round) (at most 25 watches): the index does not match the disk.
                \(difference ?? "")
                degraded: \(fixture.watcher.degradedSubtrees.map(\.lossyString).prefix(20))
                last operations: \(operations.log.suffix(40).joined(separator: "\n"))
                """)
            if difference != nil { break }
            operations.clearOutside()
        }
        try await fixture.stop()
    }

    /// `searchlight watch` as a process: some bursts while it is stopped (SIGSTOP, then
    /// SIGCONT), some while it is dead after a SIGKILL (then it is started again).
    @Test(arguments: seeds)
    func watchProcessMatchesTheDiskAcrossPausesAndKills(seed: UInt64) async throws {
        let tree = TemporaryTree("random-watch")
        let outside = TemporaryTree("random-outside")
        let work = TemporaryTree("random-index")
        let indexPath = work.path + "/index.sqlite"
        var watch = try WatchProcess(root: tree.path, index: indexPath, log: work.path + "/watch.log")
        defer { watch.kill() }
        #expect(watch.waitUntilReady(), "the watch did not start: \(watch.logText)")
        let index = try SearchableIndex(path: indexPath, readOnly: true)
        let domain = try RootFolder(path: tree.path).path
        var operations = RandomTreeOperations(root: tree.path, outside: outside.path, seed: seed)
        for round in 0..<Self.rounds {
            let mode = round == 0 ? 0 : Int.random(in: 0..<3, using: &operations.random)
            let interruptAt = Int.random(in: 0..<Self.operations, using: &operations.random)
            var description = ["live", "paused", "killed"][mode]
            let pace = Self.paces.randomElement(using: &operations.random)!
            // Some pauses overflow the kernel's queue: the watcher reconciles, and what the lost
            // events did (moves out of the root among them) must not confuse it later.
            let flood = mode == 1 && Int.random(in: 0..<3, using: &operations.random) == 0
            if flood { description += " with an overflow" }
            operations.burst(interruptAt, building: round == 0, pace: pace)
            if mode == 1 { watch.pause() }
            if mode == 2 { watch.kill() }
            if flood { operations.flood(6000) }
            operations.burst(Self.operations - interruptAt, building: round == 0, pace: pace)
            if mode == 1 { watch.resume() }
            if mode == 2 {
                watch = try WatchProcess(root: tree.path, index: indexPath, log: work.path + "/watch-\(round).log")
                if !watch.waitUntilReady() { description += " (restart failed: \(watch.logText))" }
            }
            let difference = await Self.settle(index: index, domain: domain, root: tree.path)
            #expect(difference == nil, """
                seed \(seed), round \(round) (\(description) at operation \(interruptAt)): the index does not match the disk.
                \(difference ?? "")
                last operations: \(operations.log.suffix(40).joined(separator: "\n"))
                watch log: \(watch.logText.suffix(3000))
                """)
            if difference != nil { break }
            operations.clearOutside()
        }
        watch.terminate()
    }

    /// Waits until the index equals the disk; `nil` when it does, else what differs.
    static func settle(index: SearchableIndex, domain: String, root: String,
                       timeout: TimeInterval = settleTimeout) async -> String? {
        let disk = DiskWalk.files(below: root)
        var last: [String: DiskWalk.File] = [:]
        let matched = await eventually(timeout: timeout) {
            last = (try? indexedFiles(index, domain: domain)) ?? [:]
            return last.count == disk.count && disk.allSatisfy { last[$0.key].map($0.value.matches) ?? false }
        }
        guard !matched else { return nil }
        let missing = disk.keys.filter { last[$0] == nil }.sorted()
        let stale = last.keys.filter { disk[$0] == nil }.sorted()
        let different = disk.compactMap { path, file -> String? in
            guard let indexed = last[path], !indexed.matches(file) else { return nil }
            return "\(path): disk \(file), index \(indexed)"
        }.sorted()
        return """
            \(disk.count) files on disk, \(last.count) indexed; \(missing.count) missing, \(stale.count) stale, \
            \(different.count) different.
            missing: \(missing.prefix(20))
            stale: \(stale.prefix(20))
            different: \(different.prefix(20))
            """
    }

    /// The index's items of `domain` as ``DiskWalk/File`` values.
    static func indexedFiles(_ index: SearchableIndex, domain: String) throws -> [String: DiskWalk.File] {
        var files: [String: DiskWalk.File] = [:]
        try index.forEachItem(domain: domain) { indexed in
            let attributes = indexed.item.attributeSet
            files[indexed.item.uniqueIdentifier.lossyString] = DiskWalk.File(
                size: attributes.size ?? -1,
                modified: attributes.contentModificationDate?.timeIntervalSince1970 ?? 0,
                contentType: attributes.contentType)
            return true
        }
        return files
    }
}

/// A `searchlight watch` process writing its log to a file.
struct WatchProcess {
    let process: ChildProcess
    let log: String

    init(root: String, index: String, log: String, environment extra: [String: String] = [:]) throws {
        self.log = log
        // No pressure files: the watch never backs off because other tests load the machine (its
        // back-off has tests of its own); convergence, not patience, is what this measures.
        let folder = String(log[..<(log.lastIndex(of: "/") ?? log.startIndex)])
        var environment: [String: String?] = ["SEARCHLIGHT_INDEX": index, "SEARCHLIGHT_PRESSURE_ROOT": folder + "/no-pressure"]
        for (key, value) in extra { environment[key] = value }
        // Names, types, sizes and dates are compared, not content: no extraction workers to wait for.
        // Normal priority: at idle, a machine crowded with other tests starves it for minutes.
        process = try ChildProcess([Self.binary, "watch", root, "--no-thumbnails", "--no-content", "--priority", "normal"],
                                   environment: environment,
                                   stderr: .file(log))
    }

    var logText: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    func waitUntilReady(timeout: TimeInterval = 60) -> Bool {
        waitUntil(timeout: timeout) { !process.isRunning || logText.contains("watching") }
        return logText.contains("watching")
    }

    func pause() { Glibc.kill(process.processIdentifier, SIGSTOP) }
    func resume() { Glibc.kill(process.processIdentifier, SIGCONT) }

    func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    func terminate() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }

    /// The `searchlight` executable built next to the tests, or `$SEARCHLIGHT_BINARY`.
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["SEARCHLIGHT_BINARY"] { return path }
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("searchlight").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return "searchlight"
    }()
}
