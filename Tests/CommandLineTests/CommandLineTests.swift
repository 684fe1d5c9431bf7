import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing

@Suite("searchlight command line", .serialized, .ownThread)
struct CommandLineTests {
    let tree = TemporaryTree("cli")
    let work = TemporaryTree("cli-index")
    var index: String { work.path + "/index.sqlite" }

    @Test func usageErrorsExitWith64() throws {
        for arguments in [[], ["frobnicate"], ["search"], ["remove"], ["remove", "--all", "--domain", "x"],
                          ["search", "x", "--json", "-0"], ["search", "x", "--limit", "many"]] {
            let result = try Searchlight.run(arguments, index: index)
            #expect(result.status == 64, "\(arguments)")
            #expect(!result.stderr.isEmpty)
        }
    }

    @Test func failuresExitWith1AndOneClearLine() throws {
        var result = try Searchlight.run(["search", "anything"], index: index)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no index at"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        result = try Searchlight.run(["scan", tree.path + "/missing"], index: index)
        #expect(result.status == 1)
        // The mistake in plain words, not the call that failed.
        #expect(result.stderr.hasPrefix("searchlight: no folder \(tree.path)/missing"), "\(result.stderr)")
        #expect(!result.stderr.contains("realpath"))
        #expect(!result.stderr.contains("Backtrac"))
        tree.write("file.txt")
        result = try Searchlight.run(["scan", tree.path + "/file.txt"], index: index)
        #expect(result.status == 1)
        #expect(result.stderr.contains("file.txt is a file: scan takes folders"), "\(result.stderr)")
        #expect(try Searchlight.run(["scan", tree.path], index: index).status == 0)
        result = try Searchlight.run(["show", "missing.txt"], index: index)
        #expect(result.status == 1 && result.stderr.contains("no item"))
        // A word with no letter or digit finds nothing: no typed text is an error.
        result = try Searchlight.run(["search", "--", "-*-"], index: index)
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
        // Zero results is success.
        result = try Searchlight.run(["search", "nomatchatall"], index: index)
        #expect(result.status == 0 && result.stdout.isEmpty)
    }

    @Test(arguments: IndexBackend.available) func scanThenSearchListShowStatusRemove(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "basics")
        tree.write("Quarterly Report 2024.txt", "numbers\n")
        tree.write("notes/Résumé.md", "# CV\n")
        tree.write("notes/testWORD_various-2024.txt")
        var result = try Searchlight.run(["scan", tree.path, "--domain", "docs", "--json"], index: index)
        #expect(result.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        #expect(summary?["added"] as? Int == 3)
        #expect(try Searchlight.run(["search", "resume"], index: index).paths(under: tree.path) == ["notes/Résumé.md"])
        #expect(try Searchlight.run(["search", "quart", "rep"], index: index).paths(under: tree.path) == ["Quarterly Report 2024.txt"])
        #expect(try Searchlight.run(["search", "2024", "--count"], index: index).lines == ["2"])
        #expect(try Searchlight.run(["search", "2024", "--limit", "1"], index: index).lines.count == 1)
        #expect(try Searchlight.run(["search", "notes", "--domain", "other"], index: index).lines.isEmpty)
        #expect(try Searchlight.run(["list"], index: index).lines.count == 3)
        // A typo finds the word the index holds, and says so on standard error (and in JSON).
        result = try Searchlight.run(["search", "quartelry", "reprot"], index: index)
        #expect(result.status == 0 && result.paths(under: tree.path) == ["Quarterly Report 2024.txt"])
        #expect(result.stderr == "searching also for \"quarterly report\"\n")
        result = try Searchlight.run(["search", "quartelry", "--json"], index: index)
        #expect(result.output.contains(#""searchingAlsoFor":"quarterly""#))
        #expect(try Searchlight.run(["search", "quarterly"], index: index).stderr.isEmpty)
        result = try Searchlight.run(["show", "notes/Résumé.md"], index: index)
        #expect(result.status == 0)
        #expect(result.output.contains("displayName             = \"Résumé.md\""))
        #expect(result.output.contains("path                    = \"\(tree.path)/notes/Résumé.md\""))
        result = try Searchlight.run(["status", "--json"], index: index)
        let status = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        #expect(status?["items"] as? Int == 3)
        result = try Searchlight.run(["remove", "--domain", "docs"], index: index)
        #expect(result.status == 0)
        #expect(try Searchlight.run(["list", "--count"], index: index).lines == ["0"])
        // Never from disk.
        #expect(FileManager.default.fileExists(atPath: tree.url("notes/Résumé.md")))
    }

    @Test(arguments: IndexBackend.available) func nulOutputIsByteExactAndJSONIsValid(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "nul")
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(" menu.txt".utf8)
        let newline = Array("menu\nsecond line.txt".utf8)
        let quoted = Array("menu \"quoted\" \\ back.txt".utf8)
        for name in [latin1, newline, quoted] { tree.write(name) }
        #expect(try Searchlight.run(["scan", tree.path], index: index).status == 0)
        let nul = try Searchlight.run(["search", "menu", "-0"], index: index)
        let records = nul.stdout.split(separator: 0, omittingEmptySubsequences: false).dropLast().map(Array.init)
        // Each record is the item's absolute path, byte for byte.
        let root = Array(tree.path.utf8) + [0x2F]
        #expect(Set(records) == Set([latin1, newline, quoted].map { root + $0 }))
        #expect(nul.stdout.last == 0)

        let json = try Searchlight.run(["search", "menu", "--json"], index: index)
        let lines = json.stdout.split(separator: 0x0A).map(Array.init)
        #expect(lines.count == 3)
        var recovered: [[UInt8]] = []
        for line in lines {
            // Python's json accepts every line and recovers the exact bytes with surrogateescape.
            let python = try ChildProcess.run(["python3", "-c", """
                import json, sys
                record = json.loads(sys.stdin.buffer.read())
                for key in ("id", "domain", "path", "displayName", "contentType", "contentTypeTree", "keywords",
                            "size", "contentModificationDate", "thumbnail", "title", "contentDescription"):
                    assert key in record, key
                sys.stdout.buffer.write(record["id"].encode("utf-8", "surrogateescape"))
                """], input: line)
            recovered.append(python.stdout)
            #expect(python.status == 0)
            if !line.contains(where: { $0 >= 0x80 }) || String(validating: line, as: UTF8.self) != nil,
               !String(decoding: line, as: UTF8.self).contains("\\udc") {
                #expect((try? JSONSerialization.jsonObject(with: Data(line))) != nil)
            }
        }
        #expect(Set(recovered) == Set([latin1, newline, quoted]))
        // `show` finds a name that is not UTF-8 by its exact bytes.
        // (Process passes Strings, so a shell makes the raw argument.)
        let script = "exec \"$0\" show \"$(printf 'caf\\351 menu.txt')\" --json"
        let show = try Searchlight.run([], index: index, prefix: ["/bin/sh", "-c", script])
        #expect(show.status == 0)
        #expect(show.output.contains("caf\\udce9 menu.txt"))
    }

    @Test(arguments: IndexBackend.available) func searchesRunWhileAScanWrites(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "concurrent")
        for folder in 0..<60 {
            for file in 0..<50 { tree.write("f\(folder)/searchable note \(file).txt", "\(folder)-\(file)\n") }
        }
        #expect(try Searchlight.run(["scan", tree.path], index: index).status == 0)
        // Touch every file so that the second scan re-inspects and rewrites them all.
        for folder in 0..<60 {
            for file in 0..<50 { tree.write("f\(folder)/searchable note \(file).txt", "changed \(folder)-\(file)\n") }
        }
        let scan = try Searchlight.start(["scan", tree.path], index: index)
        var searches = 0, duringScan = 0
        while scan.isRunning || searches < 3 {
            let running = scan.isRunning
            let result = try Searchlight.run(["search", "searchable", "--count"], index: index)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stderr.contains("locked"))
            #expect(result.lines == ["3000"])
            searches += 1
            if running && scan.isRunning { duringScan += 1 }
        }
        scan.waitUntilExit()
        #expect(scan.terminationStatus == 0)
        #expect(duringScan > 0)
    }

    @Test(arguments: IndexBackend.available) func aKilledScanLosesNoCommittedWorkAndConverges(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "killed")
        var expected: [String] = []
        for folder in 0..<80 {
            for file in 0..<100 {
                let name = "d\(folder)/item \(file).txt"
                tree.write(name, "\(folder) \(file)\n")
                expected.append(name)
            }
        }
        let scan = try Searchlight.start(["scan", tree.path], index: index)
        let committed = try waitUntil {
            let count = try Searchlight.run(["list", "--count"], index: index)
            return count.status == 0 && (Int(count.lines.first ?? "") ?? 0) > 0
        }
        #expect(committed)
        kill(scan.processIdentifier, SIGKILL)
        scan.waitUntilExit()
        #expect(try Searchlight.run(["scan", tree.path], index: index).status == 0)
        let listed = try Searchlight.run(["list"], index: index).paths(under: tree.path)
        #expect(listed.count == expected.count)
        #expect(Set(listed) == Set(expected))
        // The file itself is sound (PostgreSQL's transactions need no such check).
        guard backend == .sqlite else { return }
        // The full-text tables' own check needs Searchlight's tokenizer: through the library.
        #expect(throws: Never.self) { try SearchableIndex(path: index).checkFullTextIntegrity() }
        #expect(try ChildProcess.run(["sqlite3", index, "PRAGMA integrity_check"]).stdout == Array("ok\n".utf8))
    }

    @Test(arguments: IndexBackend.available) func unreadableFoldersAreCountedAndTheirItemsKept(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "unreadable")
        // Root reads everything: run the scans as an unprivileged user when we are root.
        let prefix = geteuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        chmod(tree.path, 0o755)
        chmod(work.path, 0o777)
        tree.write("open/readable.txt")
        tree.write("secret/hidden plans.txt")
        tree.write("secret/inner/more.txt")
        tree.write("locked.txt")
        if geteuid() == 0 { _ = chown(tree.path + "/locked.txt", 0, 0) }
        #expect(try Searchlight.run(["scan", tree.path], index: index, prefix: prefix).status == 0)
        #expect(try Searchlight.run(["list"], index: index).lines.count == 4)
        chmod(tree.url("secret"), 0o000)
        chmod(tree.url("locked.txt"), 0o000)
        tree.write("open/new.txt")
        let result = try Searchlight.run(["scan", tree.path, "--json"], index: index, prefix: prefix)
        #expect(result.status == 0)
        #expect(result.stderr.contains("secret"))
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        #expect(summary?["failed"] as? Int == 2)
        #expect(summary?["removed"] as? Int == 0)
        #expect(Set(try Searchlight.run(["list"], index: index).paths(under: tree.path)) ==
                ["locked.txt", "open/new.txt", "open/readable.txt", "secret/hidden plans.txt", "secret/inner/more.txt"])
        let locked = try Searchlight.run(["show", "locked.txt"], index: index)
        #expect(locked.output.contains("Permission denied"))
    }
}
