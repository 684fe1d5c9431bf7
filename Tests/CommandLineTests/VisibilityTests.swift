import Foundation
import Glibc
@testable import SearchlightPostgres
import SearchlightTestSupport
import Testing

/// Docs/Contract.md#shared-index: on a shared PostgreSQL index each person sees only what they
/// could open on the item's machine. Real Unix users (made with `useradd` when missing), real
/// owners, modes and a POSIX ACL on real files, database roles of the same names signing in
/// with their own passwords, and the built `searchlight` asked as each of them.
@Suite("A shared index shows each person what they may read", .serialized, .ownThread, .needsPostgres)
struct VisibilityTests {
    let tree = TemporaryTree("visibility")
    let work = TemporaryTree("visibility-work")
    static let (alice, bob, carol, team) = ("slalice", "slbob", "slcarol", "slteam")

    /// Makes the Unix group and users unless they exist: alice and carol in the team, bob not.
    static func makeUsers() throws {
        if getgrnam(team) == nil {
            let made = try ChildProcess.run(["/usr/sbin/groupadd", team])
            try #require(made.status == 0, "groupadd: \(String(decoding: made.stderr, as: UTF8.self))")
        }
        for (name, groups) in [(alice, [team]), (bob, []), (carol, [team])] {
            if getpwnam(name) == nil {
                let made = try ChildProcess.run(["/usr/sbin/useradd", "--no-create-home", "--shell", "/usr/sbin/nologin"]
                                                + (groups.isEmpty ? [] : ["--groups", groups.joined(separator: ",")]) + [name])
                try #require(made.status == 0, "useradd \(name): \(String(decoding: made.stderr, as: UTF8.self))")
            }
        }
    }

    func own(_ path: String, _ user: String, _ group: String, _ mode: mode_t) {
        let absolute = tree.path + "/" + path
        #expect(chown(absolute, getpwnam(user)!.pointee.pw_uid, getgrnam(group)!.pointee.gr_gid) == 0, "chown \(path)")
        #expect(chmod(absolute, mode) == 0, "chmod \(path)")
    }

    /// The tree: alice's private folder (a world-readable file in a 0700 folder), the team's
    /// folder (group-readable), a public folder with a file only alice may read and one
    /// that an ACL opens to bob alone.
    func makeTree() throws {
        tree.write("alice/diary.txt", "zephyr private thoughts\n")
        // A picture: alice's photo has a thumbnail.
        TextPictures.write(.init("okapi"), to: tree.path + "/alice/photo.png", scratch: work.path)
        tree.write("team/plan.txt", "quokka team plan\n")
        tree.write("public/readme.txt", "wombat for everyone\n")
        tree.write("public/secret-note.txt", "narwhal for alice\n")
        tree.write("public/acl-note.txt", "axolotl for bob\n")
        own("alice", Self.alice, Self.alice, 0o700)
        own("alice/diary.txt", Self.alice, Self.alice, 0o644)
        own("alice/photo.png", Self.alice, Self.alice, 0o644)
        own("team", Self.alice, Self.team, 0o750)
        own("team/plan.txt", Self.alice, Self.team, 0o640)
        own("public", "root", "root", 0o755)
        own("public/readme.txt", "root", "root", 0o644)
        own("public/secret-note.txt", Self.alice, Self.alice, 0o600)
        own("public/acl-note.txt", "root", "root", 0o600)
        let acl = try ChildProcess.run(["/usr/bin/setfacl", "-m", "u:\(Self.bob):r", tree.path + "/public/acl-note.txt"])
        try #require(acl.status == 0, "setfacl: \(String(decoding: acl.stderr, as: UTF8.self))")
        // The tree's own folder and those above it: everyone may pass (TemporaryTree's are 0700).
        #expect(chmod(tree.path, 0o755) == 0)
    }

    /// A database and the roles of the three people and of an administrator; returns the
    /// writer's URL and a function giving each role's.
    func makeDatabase() async throws -> (writer: String, as: (String) -> String) {
        let cluster = try await PostgresCluster.shared()
        let writer = try await cluster.makeDatabase("visibility")
        // Roles are the cluster's: made once, kept for the other tests of this process.
        for role in [Self.alice, Self.bob, Self.carol, "sladmin", "searchlight_admin"] {
            try cluster.psql("""
                DO $$ BEGIN
                    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(role)') THEN
                        CREATE ROLE \(role) \(role == "searchlight_admin" ? "NOLOGIN" : "LOGIN PASSWORD 'pw-\(role)'");
                    END IF;
                END $$;
                """)
        }
        try cluster.psql("GRANT searchlight_admin TO sladmin")
        let database = URL(string: writer)!.path.dropFirst()
        return (writer, { role in "postgres://\(role):pw-\(role)@127.0.0.1:\(cluster.port)/\(database)?sslmode=disable" })
    }

    /// Scans the tree into `writer`'s database as the writers' role.
    func scan(into writer: String, thumbnails: Bool = true) throws {
        let scan = try Searchlight.run(["scan", tree.path, "--domain", "shared"] + (thumbnails ? [] : ["--no-thumbnails"])
                                       + Searchlight.busyMachine, index: writer)
        try #require(scan.status == 0, "\(scan.stderr)")
    }

    /// The people, the tree and a database holding it: the writer's URL and each role's.
    func scannedTree(thumbnails: Bool = true) async throws -> (writer: String, as: (String) -> String) {
        try Self.makeUsers()
        try makeTree()
        let (writer, url) = try await makeDatabase()
        try scan(into: writer, thumbnails: thumbnails)
        return (writer, url)
    }

    /// `psql` as `url`'s role: its status, and what it printed (output, then errors).
    func psql(_ sql: String, as url: String) throws -> (status: Int32, output: String) {
        let psql = (PostgresCluster.serverBinaries.map { $0 + "/psql" }) ?? "psql"
        let result = try ChildProcess.run([psql, "-X", "-A", "-t", "-c", sql, url])
        return (result.status, String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                + String(decoding: result.stderr, as: UTF8.self))
    }

    /// What `search WORD` prints as `url`'s role, relative to the tree (a count as it is).
    func found(_ word: String, as url: String, extra: [String] = []) -> [String] {
        ((try? Searchlight.run(["search", word] + extra, index: url).paths(under: tree.path)) ?? ["(failed)"]).sorted()
    }

    @Test func eachPersonFindsWhatTheyMayOpenByNameWordCountAndShow() async throws {
        let (writer, url) = try await scannedTree()
        let (alice, bob, carol, admin) = (url(Self.alice), url(Self.bob), url(Self.carol), url("sladmin"))

        // Alice: her folder, the team's, the public files and her note; not bob's ACL note.
        #expect(found("zephyr", as: alice) == ["alice/diary.txt"])
        #expect(found("quokka", as: alice) == ["team/plan.txt"])
        #expect(found("narwhal", as: alice) == ["public/secret-note.txt"])
        #expect(found("axolotl", as: alice) == [])
        // Bob: the public file and the note the ACL gives him; by word and by name alike.
        #expect(found("zephyr", as: bob) == [])
        #expect(found("diary", as: bob) == [])
        #expect(found("quokka", as: bob) == [])
        #expect(found("narwhal", as: bob) == [])
        #expect(found("secret", as: bob) == [])
        #expect(found("wombat", as: bob) == ["public/readme.txt"])
        #expect(found("axolotl", as: bob) == ["public/acl-note.txt"])
        // Carol, in the team: the team's plan, not alice's folder nor her note.
        #expect(found("quokka", as: carol) == ["team/plan.txt"])
        #expect(found("zephyr", as: carol) == [])
        #expect(found("narwhal", as: carol) == [])
        // The administrator and the writer see everything.
        for everything in [admin, writer] {
            let listed = ((try? Searchlight.run(["list"], index: everything).paths(under: tree.path)) ?? []).sorted()
            #expect(listed == ["alice/diary.txt", "alice/photo.png", "public/acl-note.txt", "public/readme.txt", "public/secret-note.txt",
                               "team/plan.txt"], "\(listed)")
        }

        // list, counts, query, show and the spelling pass tell bob nothing of what he may not open.
        let bobList = try Searchlight.run(["list"], index: bob)
        #expect(bobList.status == 0, "\(bobList.stderr)")
        #expect(bobList.paths(under: tree.path).sorted() == ["public/acl-note.txt", "public/readme.txt"])
        #expect(found("note", as: bob, extra: ["--count"]) == ["1"])
        let query = try Searchlight.run(["query", "kMDItemTextContent == \"*\""], index: bob)
        #expect(query.paths(under: tree.path).sorted() == ["public/acl-note.txt", "public/readme.txt"], "\(query.output) \(query.stderr)")
        let show = try Searchlight.run(["show", "public/secret-note.txt", "--domain", "shared"], index: bob)
        #expect(show.status != 0 && !show.output.contains("narwhal"), "\(show.output)")
        let misspelt = try Searchlight.run(["search", "narwhl"], index: bob)
        #expect(misspelt.lines.isEmpty && !misspelt.stderr.contains("narwhal"), "\(misspelt.stderr)")
        #expect(found("narwhl", as: alice) == ["public/secret-note.txt"])

        // Thumbnails go with their items: alice's photo's is hers (asked in SQL as each role).
        func thumbnails(as role: String) throws -> String { try psql("SELECT count(*) FROM thumbnail", as: url(role)).output }
        let (aliceThumbnails, bobThumbnails, all) = (try thumbnails(as: Self.alice), try thumbnails(as: Self.bob),
                                                     try thumbnails(as: "sladmin"))
        #expect(aliceThumbnails == "1" && all == "1", "\(aliceThumbnails) \(all)")
        #expect(bobThumbnails == "0", "\(bobThumbnails)")
        // A role may not read the folders' rules nor the key their names are hashed with.
        for table in ["searchlight_folder", "searchlight_key"] {
            let denied = try psql("SELECT count(*) FROM \(table)", as: bob)
            #expect(denied.status != 0 && denied.output.contains("permission denied"), "\(denied)")
        }

        // Rows written before the index recorded readers (schema 8) are the writers' alone,
        // until the next scan reads their owners and modes, without reading them again.
        try await PostgresCluster.shared().psql("UPDATE item SET readers = NULL, access_pending = identifier_is_path", database: String(URL(string: writer)!.path.dropFirst()))
        #expect(found("wombat", as: bob) == [])
        try scan(into: writer)
        #expect(found("wombat", as: bob) == ["public/readme.txt"])
        #expect(found("zephyr", as: bob) == [])
    }

    /// The ways a large index is searched row by row (a walk of the newest items, few matches
    /// ranked each on its row) find for each person what the ranking by sets finds: every
    /// statement they run sees the person's rows alone.
    @Test func rowByRowSearchesShowEachPersonWhatTheyMayRead() async throws {
        let (_, url) = try await scannedTree(thumbnails: false)
        var found = 0
        for person in [Self.alice, Self.bob, Self.carol] {
            let index = try await PostgresIndex(url: url(person), readOnly: true, environment: [:])
            defer { index.close() }
            for words in [["zephyr"], ["narwhal"], ["axolotl"], ["wombat"], ["note"], ["n"], ["a"], ["plan"], ["for", "bob"]] {
                let sets = try await index.referencesRankedBySets(words: words, domain: nil, includingText: true)
                found += sets.count
                #expect(try await index.referencesRankedRowByRow(words: words, domain: nil, limit: nil, includingText: true) == sets,
                        "\(person) \(words)")
                for limit in [1, 2] {
                    let page = try await index.referencesRankedRowByRow(words: words, domain: nil, limit: limit, includingText: true)
                    #expect(page == Array(sets.prefix(limit)), "\(person) \(words) \(limit)")
                    let walked = try await index.referencesRankedRowByRow(words: words, domain: nil, limit: limit, includingText: true,
                                                                          walking: 2, ranking: 1, few: 0)
                    #expect(walked == nil || walked == Array(sets.prefix(limit)), "\(person) \(words) \(limit)")
                }
            }
        }
        #expect(found > 10)
    }

    @Test func aChmodUnderWatchChangesWhoSeesTheItem() async throws {
        try Self.makeUsers()
        try makeTree()
        let (writer, url) = try await makeDatabase()
        let log = work.path + "/watch.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? handle.close() }
        let watch = try Searchlight.start(["watch", tree.path, "--domain", "shared", "--no-thumbnails",
                                           "--self-check-interval", "0"] + Searchlight.busyMachine,
                                          index: writer, environment: ["SEARCHLIGHT_PRESSURE_ROOT": work.path + "/none"],
                                          stderr: handle)
        defer {
            kill(watch.processIdentifier, SIGTERM)
            watch.waitUntilExit()
        }
        let bob = url(Self.bob)
        #expect(waitUntil { found("wombat", as: bob) == ["public/readme.txt"] },
                "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        #expect(found("zephyr", as: bob) == [])
        #expect(found("narwhal", as: bob) == [])

        // A folder opened to others: what is inside shows; a file opened to others: it shows.
        #expect(chmod(tree.path + "/alice", 0o755) == 0)
        #expect(waitUntil { found("zephyr", as: bob) == ["alice/diary.txt"] }, "\(found("zephyr", as: bob))")
        #expect(chmod(tree.path + "/public/secret-note.txt", 0o644) == 0)
        #expect(waitUntil { found("narwhal", as: bob) == ["public/secret-note.txt"] }, "\(found("narwhal", as: bob))")
        // And closed again.
        #expect(chmod(tree.path + "/alice", 0o700) == 0)
        #expect(waitUntil { found("zephyr", as: bob) == [] }, "\(found("zephyr", as: bob))")
        // A new folder that only alice may pass: its files never show to bob.
        #expect(mkdir(tree.path + "/private-new", 0o700) == 0)
        own("private-new", Self.alice, Self.alice, 0o700)
        tree.write("private-new/plans.txt", "pangolin plans\n")
        #expect(waitUntil { found("pangolin", as: url(Self.alice)) == ["private-new/plans.txt"] })
        #expect(found("pangolin", as: bob) == [])
    }

    static func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// `GET url` with curl, signing in as `user` (when given); the status and the body.
    func get(_ url: String, as user: String? = nil, password: String? = nil) throws -> (status: Int, body: String) {
        let body = work.path + "/body-\(UUID().uuidString.prefix(8))"
        let credentials = user.map { ["-u", "\($0):\(password ?? "pw-\($0)")"] } ?? []
        let result = try ChildProcess.run(["curl", "-s", "-o", body, "-w", "%{http_code}", "--max-time", "60"] + credentials + [url])
        defer { unlink(body) }
        return (Int(String(decoding: result.stdout, as: UTF8.self)) ?? 0, Self.read(body))
    }

    @Test func servesEachPersonWhoSignsInWhatTheyMayRead() async throws {
        let (writer, _) = try await scannedTree()
        let output = work.path + "/serve.out", log = work.path + "/serve.log"
        // Signing in is the default on a shared index.
        let serve = try ChildProcess([Searchlight.binary, "serve", "--port", "0"],
                                     environment: Searchlight.environment(index: writer, extra: [:]),
                                     stdout: .file(output), stderr: .file(log))
        defer {
            kill(serve.processIdentifier, SIGTERM)
            serve.waitUntilExit()
        }
        #expect(waitUntil(timeout: 60) { Self.read(output).contains("\n") }, "\(Self.read(log))")
        let address = try #require(Self.read(output).firstRange(of: /http:\/\/127\.0\.0\.1:[0-9]+\//).map {
            String(Self.read(output)[$0])
        }, "\(Self.read(output)) \(Self.read(log))")

        // No one unsigned, no wrong password: 401 asking for Basic, and nothing of the index.
        let anonymous = try get(address + "api/search?q=wombat")
        #expect(anonymous.status == 401 && !anonymous.body.contains("readme"), "\(anonymous)")
        let wrong = try get(address + "api/search?q=wombat", as: Self.bob, password: "not-his")
        #expect(wrong.status == 401 && !wrong.body.contains("readme"), "\(wrong)")
        let page = try get(address)
        #expect(page.status == 401, "\(page)")

        // Bob and alice, one after the other and again (each answer cached for its person only).
        for _ in 0..<2 {
            let bobs = try get(address + "api/search?q=zephyr", as: Self.bob)
            #expect(bobs.status == 200 && !bobs.body.contains("diary"), "\(bobs)")
            let alices = try get(address + "api/search?q=zephyr", as: Self.alice)
            #expect(alices.status == 200 && alices.body.contains("alice/diary.txt"), "\(alices)")
        }
        let bobQuery = try get(address + "api/query?q=kMDItemFSName%3D%3D%22*note*%22", as: Self.bob)
        #expect(bobQuery.status == 200 && bobQuery.body.contains("acl-note") && !bobQuery.body.contains("secret-note"),
                "\(bobQuery)")
        // An item, its thumbnail and its file by address: not found for bob, there for alice.
        for path in ["api/items/shared/alice%2Fdiary.txt", "api/thumbnails/shared/alice%2Fphoto.png",
                     "api/files/shared/alice%2Fdiary.txt"] {
            #expect(try get(address + path, as: Self.bob).status == 404, "\(path)")
            #expect(try get(address + path, as: Self.alice).status == 200, "\(path)")
        }
        let bobsFile = try get(address + "api/files/shared/public%2Fsecret-note.txt", as: Self.bob)
        #expect(bobsFile.status == 404 && !bobsFile.body.contains("narwhal"), "\(bobsFile)")
    }

    @Test func theDesktopServiceFindsForEachPersonWhatTheyMayRead() async throws {
        let (_, url) = try await scannedTree(thumbnails: false)
        // Each person's session bus starts the service with their own URL (their role).
        let provider = "/org/searchlight/SearchProvider"
        let method = "org.gnome.Shell.SearchProvider2.GetInitialResultSet"
        let bobs = try PrivateBus(index: url(Self.bob)).call(provider, method, "['zephyr']")
        #expect(bobs.status == 0 && !bobs.output.contains("diary"), "\(bobs)")
        let alices = try PrivateBus(index: url(Self.alice)).call(provider, method, "['zephyr']")
        #expect(alices.status == 0 && alices.output.contains("diary"), "\(alices)")
        let bobsNote = try PrivateBus(index: url(Self.bob)).call(provider, method, "['axolotl']")
        #expect(bobsNote.status == 0 && bobsNote.output.contains("acl-note"), "\(bobsNote)")
    }
}
