import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// Finder's Spotlight on a Samba share, answered by Searchlight (Docs/Guide/Finder.md),
/// with Samba's own programs and nothing of Samba mocked: a folder indexed by `searchlight
/// scan`, `searchlight serve --elasticsearch` answering Samba's Elasticsearch backend, a real
/// `smbd` sharing the folder, and Samba's `mdsearch` client asking Spotlight queries as two
/// people, one of whom may not open a subfolder.
@Suite("Finder's Spotlight through Samba", .serialized, .ownThread,
       .enabled(if: SambaServer.isAvailable, Comment(rawValue: SambaServer.unavailableReason ?? "")))
struct SambaSpotlightTests {
    static let share = "docs"
    static let owner = (name: "slspot1", password: "lighthouse-1")
    static let other = (name: "slspot2", password: "lighthouse-2")

    let tree = TemporaryTree("samba-share")
    let work = TemporaryTree("samba-index")
    var index: String { work.path + "/index.sqlite" }

    /// The share: a report, notes, a picture, a file last changed in 2015, and a folder only
    /// its owner may open.
    func makeShare() throws {
        tree.write("Quarterly report 2025.txt", "The lighthouse budget grew in every region.\n")
        tree.write("notes/minutes.md", "# Minutes\n\nWe met at the harbour to talk about the lighthouse keeper.\n")
        tree.mkdirs("photos")
        shell("vips", "black", tree.url("photos/sunset.png"), "64", "48")
        tree.write("old/archive.txt", "Tide tables from long ago.\n")
        shell("touch", "-d", "2015-06-15T12:00:00Z", tree.url("old/archive.txt"))
        tree.write("private/salaries report.txt", "Confidential: the lighthouse keepers' salaries.\n")
        let owner = try #require(getpwnam(Self.owner.name)?.pointee)
        chmod(tree.path, 0o755)
        for folder in ["notes", "photos", "old"] { chmod(tree.url(folder), 0o755) }
        chown(tree.url("private"), owner.pw_uid, owner.pw_gid)
        chown(tree.url("private/salaries report.txt"), owner.pw_uid, owner.pw_gid)
        chmod(tree.url("private"), 0o700)
    }

    /// `searchlight serve --elasticsearch 0` on the index, and the port it printed.
    func startServer() throws -> (ChildProcess, Int) {
        let output = Pipe()
        let process = try Searchlight.start(["serve", "--port", "0", "--elasticsearch", "0"], index: index,
                                            stdout: output.fileHandleForWriting)
        try output.fileHandleForWriting.close()
        nonisolated(unsafe) var printed = ""
        let lock = NSLock()
        let reader = Thread {
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                lock.withLock { printed += String(decoding: chunk, as: UTF8.self) }
            }
        }
        reader.start()
        let pattern = /Elasticsearch's search API for Samba at http:\/\/127\.0\.0\.1:([0-9]+)\//
        let announced = waitUntil(timeout: 60) { lock.withLock { printed.contains(pattern) } || !process.isRunning }
        let text = lock.withLock { printed }
        try #require(announced, "serve printed: \(text)")
        let port = try #require(text.firstMatch(of: pattern).flatMap { Int($0.1) }, "serve printed: \(text)")
        return (process, port)
    }

    @Test func finderSearchesFindFilesByNameWordsKindAndDateAndOnlyThoseThePersonMayOpen() throws {
        var created: [String] = []
        defer { for name in created { _ = try? ChildProcess.run(["/usr/sbin/userdel", name]) } }
        for person in [Self.owner, Self.other] where try SambaServer.makeUnixUser(person.name) { created.append(person.name) }
        try makeShare()
        let scan = try Searchlight.run(["scan", tree.path], index: index)
        try #require(scan.status == 0, "scan: \(scan.stderr)")
        // Serve first: Samba connects to the endpoint when a search opens, and waits 10 s to retry.
        let (server, port) = try startServer()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let samba = SambaServer(share: Self.share, path: tree.path, elasticsearchPort: port)
        for person in [Self.owner, Self.other] { try samba.addUser(person.name, password: person.password) }
        try samba.start()
        defer { samba.stop() }

        func search(_ query: String, as person: (name: String, password: String) = Self.owner) throws -> [String]? {
            try samba.mdsearch(query, share: Self.share, user: person.name, password: person.password)
        }
        let everything = ["Quarterly report 2025.txt", "notes/minutes.md", "old/archive.txt", "photos/sunset.png",
                          "private/salaries report.txt"]
        // By name, as Finder's search field asks ("Name contains").
        #expect(try search(#"kMDItemDisplayName=="*report*""#) == ["Quarterly report 2025.txt", "private/salaries report.txt"])
        #expect(try search(#"kMDItemDisplayName=="*REPORT*"cd"#) == ["Quarterly report 2025.txt", "private/salaries report.txt"])
        // By the words inside.
        #expect(try search(#"kMDItemTextContent=="lighthouse""#)
                == ["Quarterly report 2025.txt", "notes/minutes.md", "private/salaries report.txt"])
        #expect(try search(#"kMDItemTextContent=="harbour""#) == ["notes/minutes.md"])
        // By kind: Spotlight's types, which Samba's mappings turn into MIME types.
        #expect(try search(#"kMDItemContentType=="public.png""#) == ["photos/sunset.png"])
        #expect(try search(#"kMDItemContentTypeTree=="public.plain-text""#)
                == ["Quarterly report 2025.txt", "notes/minutes.md", "old/archive.txt", "private/salaries report.txt"])
        // By date: a range in ISO dates, and in Spotlight's seconds since 2001 (all of 2015).
        #expect(try search(#"kMDItemFSContentChangeDate>$time.iso(2015-01-01T00:00:00Z) && kMDItemFSContentChangeDate<$time.iso(2016-01-01T00:00:00Z)"#)
                == ["old/archive.txt"])
        #expect(try search("InRange(kMDItemContentModificationDate,441763200,473299200)") == ["old/archive.txt"])
        #expect(try search(#"kMDItemFSContentChangeDate>$time.iso(2020-01-01T00:00:00Z)"#)?.contains("old/archive.txt") == false)
        // Any attribute (name or words), as typing in Finder's search field does.
        #expect(try search(#"*=="harbour""#) == ["notes/minutes.md"])
        #expect(try search(#"*=="tide""#) == ["old/archive.txt"])
        #expect(try search(#"(kMDItemDisplayName=="minutes*"cdw || kMDItemTextContent=="minutes*"cdw)"#) == ["notes/minutes.md"])
        #expect(try search(#"kMDItemFSSize>"0" && kMDItemDisplayName!="*report*""#)
                == ["notes/minutes.md", "old/archive.txt", "photos/sunset.png"])
        #expect(try search(#"kMDItemFSName=="*""#) == everything)
        // Another person: nothing from the folder they may not open.
        #expect(try search(#"kMDItemDisplayName=="*report*""#, as: Self.other) == ["Quarterly report 2025.txt"])
        #expect(try search(#"kMDItemTextContent=="lighthouse""#, as: Self.other) == ["Quarterly report 2025.txt", "notes/minutes.md"])
        #expect(try search(#"kMDItemFSName=="*""#, as: Self.other) == everything.filter { !$0.hasPrefix("private/") })
        // An attribute Searchlight does not keep (Samba maps it to attributes.group): the
        // search fails, as it does on Elasticsearch, rather than finding the wrong files.
        #expect(try search(#"kMDItemFSOwnerUserID=="0""#) == nil)
        #expect(server.isRunning)
    }
}
