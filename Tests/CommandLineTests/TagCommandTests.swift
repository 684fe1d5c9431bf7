import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// Tags, comments, ratings and origins from extended attributes (Docs/Contract.md#desktop), written with
/// `searchlight tag` and `setfattr`, on real files of a real temporary folder (ext4 or tmpfs:
/// both keep `user.*` attributes).
@Suite("searchlight tag and extended attributes", .serialized, .ownThread)
struct TagCommandTests {
    let tree = TemporaryTree("tag-cli")
    let work = TemporaryTree("tag-cli-index")

    func tag(_ arguments: String...) throws -> CommandResult { try Searchlight.run(["tag"] + arguments) }

    /// The value of an attribute as `getfattr` prints it, or `nil` when the file has none.
    func attribute(_ name: String, of file: String) throws -> String? {
        let result = try ChildProcess.run(["/usr/bin/getfattr", "--only-values", "-n", name, file])
        return result.status == 0 ? String(decoding: result.stdout, as: UTF8.self) : nil
    }

    func setAttribute(_ name: String, _ value: String, of file: String) throws {
        let result = try ChildProcess.run(["/usr/bin/setfattr", "-n", name, "-v", value, file])
        #expect(result.status == 0, "setfattr: \(String(decoding: result.stderr, as: UTF8.self))")
    }

    @Test func addsRemovesAndPrintsTags() throws {
        tree.write("report.txt", "quarterly numbers\n")
        let file = tree.url("report.txt")
        #expect(try tag(file).lines.isEmpty)
        let added = try tag(file, "+work", "+Q3 2024", "+work")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.lines == ["work", "Q3 2024"])
        #expect(try attribute("user.xdg.tags", of: file) == "work,Q3 2024")
        // `-TAG` looks like an option: it is a removal.
        let removed = try tag(file, "-work")
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.lines == ["Q3 2024"])
        #expect(try tag(file).lines == ["Q3 2024"])
        // Tags set by another program are read as they are written: comma-separated.
        try setAttribute("user.xdg.tags", "alpha, beta,,Alpha", of: file)
        #expect(try tag(file).lines == ["alpha", "beta"])
        // After `--`, even `-h` is a tag.
        #expect(try tag(file, "--", "+h").lines == ["alpha", "beta", "h"])
        #expect(try tag(file, "--", "-h").lines == ["alpha", "beta"])
        // Removing the last tag removes the attribute.
        #expect(try tag(file, "-alpha", "-BETA").lines.isEmpty)
        #expect(try attribute("user.xdg.tags", of: file) == nil)
    }

    @Test func badInputGetsOneClearLineAndTheRightStatus() throws {
        tree.write("a.txt")
        let missing = try tag(tree.url("nope.txt"), "+x")
        #expect(missing.status == 1)
        #expect(missing.stderr == "searchlight: \(tree.url("nope.txt")): no such file\n")
        // /proc keeps no user attributes.
        let unsupported = try tag("/proc/version", "+x")
        #expect(unsupported.status == 1)
        #expect(unsupported.stderr.contains("does not support user extended attributes"))
        #expect(unsupported.stderr.split(separator: "\n").count == 1)
        for arguments in [["tag"], ["tag", tree.url("a.txt"), "work"], ["tag", tree.url("a.txt"), "+a,b"], ["tag", tree.url("a.txt"), "+"]] {
            let usage = try Searchlight.run(arguments)
            #expect(usage.status == 64, "\(arguments): \(usage.stderr)")
            #expect(!usage.stderr.contains("Backtrac"))
        }
    }

    /// A folder with tags, a comment, a rating and origins, scanned into `index`.
    func scanTaggedFolder(index: String) throws {
        tree.write("Budget 2024.txt", "the yearly budget\n")
        tree.write("notes/draft-plan.txt", "a plan for next year\n")
        tree.write("notes/download.txt", "saved from the web\n")
        tree.write("other.txt", "budget of another team\n")
        #expect(try tag(tree.url("Budget 2024.txt"), "+work", "+finance").status == 0)
        try setAttribute("user.xdg.comment", "first draft, needs review", of: tree.url("notes/draft-plan.txt"))
        try setAttribute("user.baloo.rating", "8", of: tree.url("notes/draft-plan.txt"))
        try setAttribute("user.xdg.tags", "Work", of: tree.url("notes/draft-plan.txt"))
        try setAttribute("user.xdg.origin.url", "https://example.com/files/download.txt", of: tree.url("notes/download.txt"))
        try setAttribute("user.xdg.referrer.url", "https://example.com/files/", of: tree.url("notes/download.txt"))
        try setAttribute("user.baloo.rating", "3", of: tree.url("notes/download.txt"))
        let scan = try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index)
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    @Test(arguments: IndexBackend.available) func attributesAreFoundBySearchQueryShowAndJSON(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "attributes")
        try scanTaggedFolder(index: index)
        func search(_ words: String...) throws -> [String] {
            try Searchlight.run(["search"] + words, index: index).paths(under: tree.path).sorted()
        }
        func query(_ text: String) throws -> [String] {
            let result = try Searchlight.run(["query", text], index: index)
            #expect(result.status == 0, "\(text): \(result.stderr)")
            return result.paths(under: tree.path).sorted()
        }
        #expect(try search("tag:work") == ["Budget 2024.txt", "notes/draft-plan.txt"])
        #expect(try search("tag:fin") == ["Budget 2024.txt"])
        #expect(try query(#"kMDItemUserTags == "work""#) == ["Budget 2024.txt"])
        #expect(try query(#"userTags == "work"cd"#) == ["Budget 2024.txt", "notes/draft-plan.txt"])
        #expect(try query("starRating >= 3") == ["notes/draft-plan.txt"])
        #expect(try query("kMDItemStarRating == 1.5") == ["notes/download.txt"])
        #expect(try query(#"kMDItemComment == "*draft*"cd"#) == ["notes/draft-plan.txt"])
        #expect(try query(#"kMDItemWhereFroms == "*example.com*""#) == ["notes/download.txt"])
        // Indexed as words, at the rank of keywords.
        #expect(try search("finance") == ["Budget 2024.txt"])
        #expect(try search("review") == ["notes/draft-plan.txt"])
        let json = try Searchlight.run(["search", "finance", "--json"], index: index)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["matchedIn"] as? String == "keywords")
        #expect(object["userTags"] as? [String] == ["work", "finance"])
        let shown = try Searchlight.run(["show", "notes/download.txt", "--json"], index: index)
        let download = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
        #expect(download["whereFroms"] as? [String] == ["https://example.com/files/download.txt", "https://example.com/files/"])
        #expect(download["starRating"] as? Double == 1.5)
        #expect(download["comment"] is NSNull)
        let described = try Searchlight.run(["show", "notes/draft-plan.txt"], index: index).output
        #expect(described.contains(#"comment                 = "first draft, needs review""#), "\(described)")
        #expect(described.contains(#"userTags                = ("Work")"#))
        #expect(described.contains("starRating              = 4"))
    }

    @Test(arguments: IndexBackend.available) func searchWordsNarrowPlainWords(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "words")
        try scanTaggedFolder(index: index)
        var times = [timespec(tv_sec: 946_684_800, tv_nsec: 0), timespec(tv_sec: 946_684_800, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, tree.url("other.txt"), &times, 0) == 0)
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        func search(_ words: String...) throws -> [String] {
            let result = try Searchlight.run(["search"] + words, index: index)
            #expect(result.status == 0, "\(words): \(result.stderr)")
            return result.paths(under: tree.path).sorted()
        }
        #expect(try search("budget") == ["Budget 2024.txt", "other.txt"])
        #expect(try search("budget", "tag:work") == ["Budget 2024.txt"])
        #expect(try search("kind:text", "budget", "tag:work") == ["Budget 2024.txt"])
        #expect(try search("kind:pdf", "budget").isEmpty)
        #expect(try search("budget", "modified:<2001") == ["other.txt"])
        #expect(try search("budget", "date:today") == ["Budget 2024.txt"])
        #expect(try search("date:year", "name:draft") == ["notes/draft-plan.txt"])
        // An unknown key is a plain word: `notes:` is the folder's name, `http:` is nowhere.
        #expect(try search("plan", "notes:") == ["notes/draft-plan.txt"])
        #expect(try search("plan", "http:").isEmpty)
        #expect(try Searchlight.run(["search", "kind:text", "--count"], index: index).lines == ["4"])
        let explained = try Searchlight.run(["search", "budget", "tag:work", "--explain"], index: index)
        #expect(explained.stderr.contains(#"tag:work → userTags == "work*"cd"#), "\(explained.stderr)")
        #expect(explained.paths(under: tree.path) == ["Budget 2024.txt"])
        let malformed = try Searchlight.run(["search", "budget", "modified:>notadate"], index: index)
        #expect(malformed.status == 64)
        #expect(malformed.stderr.hasPrefix(#"searchlight: cannot read the search word "modified:>notadate""#))
        #expect(malformed.stderr.split(separator: "\n").count == 1)
    }

    /// Starts `searchlight watch` on the tree with its stderr in a file, and waits for its "watching" line.
    func startWatch(index: String, log: String) throws -> ChildProcess {
        let process = try ChildProcess([Searchlight.binary, "watch", tree.path, "--no-thumbnails", "-v"] + Searchlight.busyMachine,
                                       environment: Searchlight.environment(index: index, extra: [
                                           // A busy test machine must not make it defer the extraction this test waits for.
                                           "SEARCHLIGHT_PRESSURE_ROOT": work.path + "/no-pressure",
                                       ]), stderr: .file(log))
        let ready = waitUntil { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("watching") }
        #expect(ready, "no 'watching' line: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        return process
    }

    /// Done when: tags set under `watch` with `setfattr` or `searchlight tag` are found by
    /// `search tag:NAME` and by a query on `kMDItemUserTags` (waiting with a deadline), and
    /// the content is not extracted again.
    ///
    /// The proof that it is not: the file's text is replaced by text of the same length and
    /// its modification time put back (only its change time moves, as `setfattr` moves it).
    /// An extraction would index the new text; the index keeps the old one.
    @Test(arguments: IndexBackend.available) func watchUpdatesTagsWithoutExtractingAgain(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "watch")
        tree.write("plan.txt", "alpha original words\n")
        tree.write("other.txt", "nothing to see\n")
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        func search(_ words: String...) throws -> [String] { try Searchlight.run(["search"] + words, index: index).paths(under: tree.path) }
        #expect(try search("alpha") == ["plan.txt"])
        // The same length, the modification time put back: only the change time differs now.
        var status = stat()
        #expect(stat(tree.url("plan.txt"), &status) == 0)
        tree.write("plan.txt", "bravo replaced words\n")
        var times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, tree.url("plan.txt"), &times, 0) == 0)
        let log = work.path + "/watch-\(backend).log"
        let watch = try startWatch(index: index, log: log)
        var stopped = false
        defer {
            if !stopped {
                kill(watch.processIdentifier, SIGTERM)
                watch.waitUntilExit()
            }
        }
        try setAttribute("user.xdg.tags", "projectx", of: tree.url("plan.txt"))
        #expect(waitUntil { (try? search("tag:projectx")) == ["plan.txt"] })
        let query = try Searchlight.run(["query", #"kMDItemUserTags == "projectx""#], index: index)
        #expect(query.paths(under: tree.path) == ["plan.txt"])
        #expect(try search("alpha") == ["plan.txt"])
        #expect(try search("bravo").isEmpty)
        // `searchlight tag` under the watch: the same path.
        #expect(try tag(tree.url("other.txt"), "+later").status == 0)
        #expect(waitUntil { (try? search("tag:later")) == ["other.txt"] })
        #expect(try Searchlight.run(["query", #"kMDItemUserTags == "later""#], index: index).paths(under: tree.path) == ["other.txt"])
        // A real change of content is still extracted.
        tree.write("other.txt", "charlie new content\n")
        #expect(waitUntil { (try? search("charlie")) == ["other.txt"] },
                "\((try? search("charlie")) ?? []) \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        #expect(try search("tag:later") == ["other.txt"])
        kill(watch.processIdentifier, SIGTERM)
        watch.waitUntilExit()
        stopped = true
        #expect(watch.terminationStatus == 0)
    }
}
