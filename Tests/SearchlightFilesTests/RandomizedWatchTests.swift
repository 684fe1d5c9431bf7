import Foundation
import Glibc
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Random file operations on a live watcher; after each round the index must equal a fresh
/// walk of the disk, names and sizes. `SEARCHLIGHT_RANDOM_SEEDS=1,2,3` and
/// `SEARCHLIGHT_RANDOM_ROUNDS=N` run longer campaigns; a failure prints its seed.
@Suite("Randomized watch", .serialized)
struct RandomizedWatchTests {
    static let seeds: [UInt64] = {
        if let list = ProcessInfo.processInfo.environment["SEARCHLIGHT_RANDOM_SEEDS"] {
            return list.split(separator: ",").compactMap { UInt64($0) }
        }
        return [1, 7, 42, 2024]
    }()

    static let rounds = Int(ProcessInfo.processInfo.environment["SEARCHLIGHT_RANDOM_ROUNDS"] ?? "") ?? 6

    @Test(arguments: seeds)
    func indexConvergesToTheDisk(seed: UInt64) async throws {
        let fixture = try WatchFixture()
        try await fixture.start()
        var random = SeededGenerator(seed: seed)
        var operations: [String] = []
        for round in 0..<Self.rounds {
            for _ in 0..<25 { operations.append(Self.randomOperation(in: fixture, using: &random)) }
            let settled = await fixture.settlesToDisk()
            #expect(settled, """
                seed \(seed), round \(round): the index does not match the disk.
                disk:  \((try? fixture.onDisk())?.sorted { $0.key < $1.key } ?? [])
                index: \((try? fixture.indexedSizes())?.sorted { $0.key < $1.key } ?? [])
                last operations: \(operations.suffix(25))
                watcher log: \(fixture.log.all.suffix(12).joined(separator: "\n"))
                """)
            if !settled { break }
        }
        try await fixture.stop()
    }

    static let names = ["alpha", "Beta report", "gamma_2024", "délta", "ε", "notes", "x"]

    /// Performs one random operation and describes it.
    static func randomOperation(in fixture: WatchFixture, using random: inout SeededGenerator) -> String {
        let root = fixture.tree.path
        let folders = existing(below: root, directories: true)
        let files = existing(below: root, directories: false)
        let folder = folders.randomElement(using: &random) ?? ""
        let name = names.randomElement(using: &random)! + (Bool.random(using: &random) ? ".txt" : "")
        let target = folder.isEmpty ? name : folder + "/" + name
        switch Int.random(in: 0..<11, using: &random) {
        case 0, 1:
            let written = fixture.tree.tryWrite(Array(target.utf8), String(repeating: "w", count: Int.random(in: 0..<64, using: &random)))
            return "write \(target)\(written ? "" : " (failed)")"
        case 2:
            guard let file = files.randomElement(using: &random) else { return "nothing" }
            fixture.tree.tryWrite(Array(file.utf8), String(repeating: "a", count: Int.random(in: 0..<64, using: &random)))
            return "rewrite \(file)"
        case 3:
            guard let file = files.randomElement(using: &random) else { return "nothing" }
            _ = rename(root + "/" + file, root + "/" + target)
            return "rename \(file) \(target)"
        case 4:
            guard let file = files.randomElement(using: &random) else { return "nothing" }
            _ = rename(root + "/" + file, fixture.outside.path + "/out-\(random.next() % 1000)")
            return "move out \(file)"
        case 5:
            shell("rm", "-rf", fixture.outside.path + "/incoming")
            fixture.outside.write("incoming/\(name)/inner.txt", "in")
            _ = rename(fixture.outside.path + "/incoming/\(name)", root + "/" + target)
            return "move in \(target)"
        case 6:
            fixture.tree.mkdirs(target)
            return "mkdir \(target)"
        case 7:
            guard let victim = folders.randomElement(using: &random), !victim.isEmpty else { return "nothing" }
            shell("rm", "-rf", root + "/" + victim)
            return "rm -rf \(victim)"
        case 8:
            guard let moving = folders.randomElement(using: &random), !moving.isEmpty,
                  !(target + "/").hasPrefix(moving + "/") else { return "nothing" }
            _ = rename(root + "/" + moving, root + "/" + target)
            return "rename folder \(moving) \(target)"
        case 9:
            guard let file = files.randomElement(using: &random) else { return "nothing" }
            unlink(root + "/" + file)
            return "delete \(file)"
        default:
            guard let empty = folders.randomElement(using: &random), !empty.isEmpty else { return "nothing" }
            _ = rmdir(root + "/" + empty)
            return "rmdir \(empty)"
        }
    }

    /// Visible folders (with "" for the root) or files below `root`.
    static func existing(below root: String, directories: Bool) -> [String] {
        var result = directories ? [""] : []
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return result }
        while let path = enumerator.nextObject() as? String {
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            if isDirectory.boolValue == directories { result.append(path) }
        }
        return result.sorted()
    }
}
