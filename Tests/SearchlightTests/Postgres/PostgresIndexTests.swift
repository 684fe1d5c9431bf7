import Foundation
import Searchlight
import SearchlightPostgres
import SearchlightTestSupport
import Testing

@Suite("PostgreSQL index", .needsPostgres, .ownThread)
struct PostgresIndexTests {
    static func item(_ id: [UInt8], domain: String = "docs", name: String? = nil, title: String? = nil,
                     keywords: [String] = [], authors: [String] = [], text: String? = nil, modified: Double = 0,
                     stamp: [UInt8]? = nil, thumbnail: Thumbnail? = nil, failure: String? = nil) -> SearchableItem {
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = name ?? String(decoding: ItemIdentifier(bytes: id).lastComponent, as: UTF8.self)
        attributes.title = title
        attributes.keywords = keywords
        attributes.authors = authors
        attributes.textContent = text
        attributes.size = 42
        attributes.pageCount = 3
        attributes.contentModificationDate = Date(timeIntervalSince1970: modified)
        attributes.thumbnail = thumbnail
        return SearchableItem(uniqueIdentifier: ItemIdentifier(bytes: id), domainIdentifier: domain,
                              attributeSet: attributes, changeStamp: stamp, failure: failure, identifierIsPath: true)
    }

    static func item(_ id: String, domain: String = "docs", title: String? = nil, keywords: [String] = [],
                     authors: [String] = [], text: String? = nil, modified: Double = 0) -> SearchableItem {
        item(Array(id.utf8), domain: domain, title: title, keywords: keywords, authors: authors, text: text,
             modified: modified)
    }

    /// A batch's writes leave nothing in the GIN indexes' pending lists, which every look-up
    /// would read whole: cleaning them again afterwards finds no page to move.
    @Test func aBatchLeavesTheWordIndexesWithNothingPending() async throws {
        let (index, url) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        try await index.indexItems((0..<200).map { Self.item("note \($0).txt", keywords: ["word\($0)"], text: "text \($0) of a note") })
        let database = String(URL(string: url)!.path.dropFirst())
        let left = try await PostgresCluster.shared().psql("""
            SELECT sum(gin_clean_pending_list(i.indexrelid)) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
            JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'item'::regclass AND a.amname = 'gin'
            """, database: database)
        #expect(left.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    /// As on SQLite: a phrase of the words in the text ranks as a title match, above a word
    /// among the keywords; among text-only matches, the words closest together first.
    @Test func aPhraseRanksAsATitleAndCloseWordsBeforeScatteredOnes() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        let filler = String(repeating: "lorem ipsum dolor sit amet ", count: 40)
        try await index.indexItems([
            Self.item("phrase.txt", text: filler + "the net present value of future cash flows " + filler, modified: 1),
            Self.item("keyword.txt", keywords: ["cash"], text: "net present value, then of future", modified: 5),
            Self.item("close.txt", text: filler + "future value of present cash flows and net income " + filler, modified: 3),
            Self.item("scattered.txt", text: "net " + filler + "present of " + filler + "value future " + filler + "cash", modified: 4),
        ])
        let found = try await index.search(words: ["net", "present", "value", "of", "future", "cash"])
        #expect(found.map(\.item.uniqueIdentifier.lossyString) == ["phrase.txt", "keyword.txt", "close.txt", "scattered.txt"])
    }

    /// As on SQLite, texts are scored for relevance only while the items with every word whole
    /// in their text are at most `TextRelevance.maximumScored`; more go newest first (the
    /// statement reads no text vector row by row to rank them). Counted, prefixes and a
    /// limited page agree with the full ranking.
    @Test func aLargeTextTierGoesNewestFirstAndASmallOneByRelevance() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        let filler = String(repeating: "lorem ipsum ", count: 30)
        // The oldest holds `kiwi` most often: the most relevant of a small tier.
        var items = [Self.item("dense.txt", text: "kiwi kiwi kiwi kiwi " + filler, modified: 1),
                     Self.item("sparse.txt", text: filler + "kiwi " + filler, modified: 2)]
        try await index.indexItems(items)
        #expect(try await index.searchIdentifiers(words: ["kiwi"]).map(\.description) == ["dense.txt", "sparse.txt"])
        let count = TextRelevance.maximumScored + 5
        items = (0..<count).map { Self.item("note-\($0).txt", text: filler + "kiwi " + filler, modified: Double(10 + $0)) }
        try await index.indexItems(items)
        let all = try await index.searchIdentifiers(words: ["kiwi"]).map(\.description)
        #expect(all.count == count + 2)
        #expect(Array(all.prefix(3)) == ["note-\(count - 1).txt", "note-\(count - 2).txt", "note-\(count - 3).txt"])
        #expect(Array(all.suffix(2)) == ["sparse.txt", "dense.txt"])
        #expect(try await index.countMatches(words: ["ki"]) == count + 2)
        #expect(try await index.searchIdentifiers(words: ["kiwi"], domain: nil, limit: 7).map(\.description) == Array(all.prefix(7)))
        #expect(try await index.searchIdentifiers(words: ["ki"], domain: nil, limit: 3).map(\.description) == Array(all.prefix(3)))
    }

    /// PostgreSQL's `searchlight_fold`, which the `c` and `d` modifiers use on attributes,
    /// folds as Searchlight's own fold does (its class of removed characters is made from it).
    @Test func theDatabaseFoldsAsSearchlightFolds() async throws {
        let (index, url) = try await PostgresTestDatabase.makeIndex()
        index.close()
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let samples = ["Ενάρετος ΆΝΘΡΩΠΟΣ", "Новогодняя ЁЛКА й", "Їжак", "Ålesund", "Straße", "हिन्दी राजभाषा",
                       "서울입니다", "がっこう ガ", "ﬁle ＰＤＦ", "e\u{301}le\u{300}ve", "שָׁלוֹם", "اللُّغَةُ",
                       "ภาษาไทย ข้าว", "Ge\u{AD}sund\u{200D}heit", "Tiếng Việt"]
        let cluster = try await PostgresCluster.shared()
        for sample in samples {
            let literal = "'" + sample.replacingOccurrences(of: "'", with: "''") + "'"
            let folded = try cluster.psql("SELECT searchlight_fold(\(literal))", database: database)
            #expect(folded.trimmingCharacters(in: .newlines) == WordFolding.fold(sample), "\(sample)")
        }
    }

    /// Rows whose words an older version made (version 7: PostgreSQL's parser and a regular
    /// expression of marks) are made again in Swift when a writer opens the index; until then
    /// they are not found by those words.
    @Test func wordsOfOlderRowsAreMadeAgainByTheNextWriter() async throws {
        let (index, url) = try await PostgresTestDatabase.makeIndex()
        try await index.indexItems([Self.item("Ενάρετος.txt", authors: ["Ζωή"], text: "서울입니다 हिन्दी ภาษาไทย"),
                                    Self.item("b.txt", text: "Ο ενάρετος άνθρωπος")])
        index.close()
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let cluster = try await PostgresCluster.shared()
        try cluster.psql("""
            UPDATE item SET name_words = '', author_words = '{}', text_words = '', words_folded = false
            """, database: database)
        let reader = try await PostgresIndex(url: url, readOnly: true, operationTimeout: PostgresTestDatabase.operationTimeout,
                                             environment: [:])
        #expect(try await reader.search(words: ["서울입니다"]).isEmpty)
        reader.close()
        let writer = try await PostgresIndex(url: url, operationTimeout: PostgresTestDatabase.operationTimeout, environment: [:])
        defer { writer.close() }
        func found(_ word: String) async throws -> [String] {
            try await writer.search(words: [word]).map(\.item.uniqueIdentifier.lossyString).sorted()
        }
        #expect(try await found("εναρετος") == ["b.txt", "Ενάρετος.txt"])
        #expect(try await found("서울입니다") == ["Ενάρετος.txt"])
        #expect(try await found("हिन्दी") == ["Ενάρετος.txt"])
        #expect(try await found("ไทย") == ["Ενάρετος.txt"])
        #expect(try await found("ζωη") == ["Ενάρετος.txt"])
        #expect(try cluster.psql("SELECT count(*) FROM item WHERE NOT words_folded", database: database)
            .trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func itemsRoundTripWithRawIdentifiersAndThumbnails() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        let latin1: [UInt8] = [0x72, 0xE9, 0x73, 0x75, 0x6D, 0xE9, 0x2E, 0x74, 0x78, 0x74] // "résumé.txt" in Latin-1
        let picture = Thumbnail(format: "webp", width: 2, height: 1, bytes: [0, 1, 2, 0xFF])
        var photo = Self.item(Array("photos/a.jpg".utf8), stamp: [1, 2, 3], thumbnail: picture)
        photo.attributeSet.authors = ["Ana Müller", "Bo"]
        photo.attributeSet.latitude = 48.85
        photo.attributeSet.acquisitionMake = "Canon"
        photo.attributeSet.textContent = "nul\0byte"
        try await index.indexItems([Self.item(latin1, failure: "cannot decode"), photo,
                                    Self.item(Array("other".utf8), domain: "notes")])

        let read = try #require(try await index.item(ItemIdentifier(bytes: latin1), domain: "docs"))
        #expect(read.item.uniqueIdentifier.bytes == latin1)
        #expect(read.item.failure == "cannot decode")
        let readPhoto = try #require(try await index.item("photos/a.jpg", domain: "docs"))
        #expect(readPhoto.item.attributeSet.thumbnail == picture)
        #expect(readPhoto.thumbnailInfo == ThumbnailInfo("webp", width: 2, height: 1, byteCount: 4))
        #expect(readPhoto.item.attributeSet.authors == ["Ana Müller", "Bo"])
        #expect(readPhoto.item.attributeSet.latitude == 48.85)
        #expect(readPhoto.item.attributeSet.acquisitionMake == "Canon")
        #expect(readPhoto.item.attributeSet.pageCount == 3)
        #expect(readPhoto.item.attributeSet.textContent == "nulbyte")
        #expect(readPhoto.item.changeStamp == [1, 2, 3])
        #expect(try await index.thumbnail(of: "photos/a.jpg", domain: "docs") == picture)
        #expect(try await index.item("photos/a.jpg", domain: "notes") == nil)

        #expect(try await index.itemCount() == 3)
        #expect(try await index.itemCount(domain: "docs") == 2)
        #expect(try await index.domains() == ["docs", "notes"])
        #expect(try await index.changeStamp(of: "photos/a.jpg", domain: "docs") == .some([1, 2, 3]))
        #expect(try await index.changeStamp(of: ItemIdentifier(bytes: latin1), domain: "docs") == .some(nil))
        #expect(try await index.changeStamp(of: "missing", domain: "docs") == nil)
        let failures = try await index.failures()
        #expect(failures.map(\.reason) == ["cannot decode"])

        // Replacing an item without a thumbnail removes its thumbnail.
        try await index.indexItems([Self.item(Array("photos/a.jpg".utf8))])
        #expect(try await index.thumbnail(of: "photos/a.jpg", domain: "docs") == nil)
        let statistics = try await index.statistics()
        #expect(statistics.domains.map(\.name) == ["docs", "notes"])
        #expect(statistics.domains.map(\.itemCount) == [2, 1])
        #expect(statistics.domains.first?.failureCount == 1)
        #expect(statistics.byteCount > 0)
        #expect(!statistics.path.contains(index.location.password ?? "no password"))
    }

    @Test func deletesByIdentifierTreeDomainAndAll() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        try await index.indexItems(["a/1", "a/2", "a/b/3", "a0", "ab", "c"].map { Self.item($0) }
                                   + [Self.item("x", domain: "other"), Self.item("y", domain: "third")])
        var batch = IndexBatch()
        batch.deleteTree("a", domain: "docs")
        batch.delete("c", domain: "docs")
        try await index.apply(batch, states: ["docs": #"{"bookmark":1}"#])
        var left: [String] = []
        try await index.forEachItem(domain: "docs", pageSize: 1) { item in
            left.append(item.item.uniqueIdentifier.description)
            return true
        }
        #expect(left == ["a0", "ab"])
        #expect(try await index.domainStates() == ["docs": #"{"bookmark":1}"#])
        #expect(try await index.deleteAllItems(inDomains: ["other"]) == 1)
        #expect(try await index.domains() == ["docs", "third"])
        #expect(try await index.deleteAllItems() == 3)
        #expect(try await index.itemCount() == 0)
    }

    @Test func changeStampsPageInByteOrder() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        let ids: [[UInt8]] = [[0x61], [0x61, 0x2F, 0x62], [0x61, 0x30], [0xC3, 0xA9], [0xFF]]
        try await index.indexItems(ids.reversed().map { Self.item($0, stamp: [$0.count == 1 ? 1 : 2]) })
        let first = try await index.changeStamps(domain: "docs", after: nil, limit: 2)
        #expect(first.map(\.identifier.bytes) == Array(ids.prefix(2)))
        let rest = try await index.changeStamps(domain: "docs", after: first.last?.identifier, limit: 10)
        #expect(rest.map(\.identifier.bytes) == Array(ids.dropFirst(2)))
        let bounded = try await index.changeStamps(domain: "docs", after: nil, before: ItemIdentifier(bytes: [0x61, 0x30]),
                                                   limit: 10)
        #expect(bounded.count == 2)
        let some = try await index.changeStamps(of: [ItemIdentifier(bytes: [0xFF]), "nothing"], domain: "docs")
        #expect(some == [ItemIdentifier(bytes: [0xFF]): [1]])
    }

    @Test func moveReKeysAnItemAndEverythingBelowIt() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        let picture = Thumbnail(format: "png", width: 1, height: 1, bytes: [9])
        try await index.indexItems([
            Self.item(Array("Old Folder/sub/report.txt".utf8), thumbnail: picture),
            Self.item("Old Folder/notes.txt"),
            Self.item("Old Folder", title: "Old Folder", keywords: ["old", "folder", "kept"]),
            Self.item("New/stale.txt"),
            Self.item("Old Folderish.txt"),
        ])
        var batch = IndexBatch()
        batch.move("Old Folder", to: "New", domain: "docs",
                   rename: IndexBatch.Rename(displayName: "New", title: .init(old: "Old Folder", new: "New"),
                                             nameKeywordsFollow: true))
        try await index.apply(batch)
        var ids: [String] = []
        try await index.forEachItem { ids.append($0.item.uniqueIdentifier.description); return true }
        #expect(ids == ["New", "New/notes.txt", "New/sub/report.txt", "Old Folderish.txt"])
        #expect(try await index.thumbnail(of: "New/sub/report.txt", domain: "docs") == picture)
        let moved = try #require(try await index.item("New", domain: "docs"))
        #expect(moved.item.attributeSet.displayName == "New")
        #expect(moved.item.attributeSet.title == "New")
        #expect(moved.item.attributeSet.keywords == ["new", "kept"])
        // Folder words follow the move: found by the new folder name, not the old one.
        #expect(try await index.searchIdentifiers(words: ["new"]).map(\.description).sorted()
                == ["New", "New/notes.txt", "New/sub/report.txt"])
        #expect(try await index.searchIdentifiers(words: ["old"]).map(\.description) == ["Old Folderish.txt"])
        #expect(try await index.searchIdentifiers(words: ["sub"]).map(\.description) == ["New/sub/report.txt"])
    }

    @Test func nameSearchRanksWholeWordsThenFieldsThenRecency() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        try await index.indexItems([
            Self.item("Résumé.pdf", modified: 10),
            Self.item("resumes-old.txt", modified: 50),
            Self.item("a.txt", title: "My Resume", modified: 40),
            Self.item("b.txt", keywords: ["resume"], modified: 30),
            Self.item("c.txt", authors: ["Resume Author"], modified: 35),
            Self.item("resume/d.txt", modified: 20),
            Self.item("e.txt", text: "a résumé in the text", modified: 60),
            Self.item("f.txt", modified: 70),
            Self.item("resume.txt", domain: "other", modified: 5),
        ])
        let ranked = try await index.searchIdentifiers(words: ["resume"], domain: "docs").map(\.description)
        #expect(ranked == ["Résumé.pdf", "a.txt", "c.txt", "b.txt", "resume/d.txt", "e.txt", "resumes-old.txt"])
        #expect(try await index.countMatches(words: ["resume"]) == 8)
        // Names alone (`search --names`) leave out authors and text, as SQLite's `.names` does.
        #expect(try await index.countMatches(words: ["resume"], domain: nil, includingText: false) == 6)
        #expect(try await index.searchIdentifiers(words: ["resume"], domain: "docs", limit: nil, includingText: false)
                    .map(\.description) == ["Résumé.pdf", "a.txt", "b.txt", "resume/d.txt", "resumes-old.txt"])
        #expect(try await index.searchIdentifiers(words: ["author"], domain: nil, limit: nil, includingText: false).isEmpty)
        #expect(try await index.searchIdentifiers(words: ["author"]).map(\.description) == ["c.txt"])
        #expect(try await index.search(words: ["RESUME", "pdf"]).map(\.item.uniqueIdentifier.description) == ["Résumé.pdf"])
        #expect(try await index.search(words: ["resume"], limit: 2).count == 2)
        #expect(try await index.searchIdentifiers(words: ["TEXT"]).map(\.description) == ["e.txt"])
        // Words with no letter or digit find nothing.
        #expect(try await index.search(words: ["--"]).isEmpty)
        #expect(try await index.countMatches(words: ["--", "\u{301}"]) == 0)
    }

    /// What `serve` and `query --live` poll: it changes with every batch and every domain
    /// added or deleted, and not with reads.
    @Test func theChangeMarkerMovesWithEveryWrite() async throws {
        let (index, _) = try await PostgresTestDatabase.makeIndex()
        defer { index.close() }
        var seen = try await index.changeMarker()
        func changed() async throws -> Bool {
            let marker = try await index.changeMarker()
            defer { seen = marker }
            return marker != seen
        }
        try await index.indexItems([Self.item("a.txt")])
        #expect(try await changed())
        _ = try await index.search(words: ["a"])
        _ = try await index.statistics()
        #expect(try await !changed())
        try await index.indexItems([Self.item("b.txt", domain: "other")])
        #expect(try await changed())
        try await index.deleteItems(withIdentifiers: ["a.txt"], domain: "docs")
        #expect(try await changed())
        try await index.deleteAllItems(inDomains: ["other"])
        #expect(try await changed())
        #expect(try await !changed())
    }

    @Test func credentialsComeFromTheURLAFileOrTheEnvironmentAndAreNeverPrinted() async throws {
        let cluster = try await PostgresCluster.shared()
        let url = try await PostgresTestDatabase.makeURL()
        let bare = url.replacingOccurrences(of: ":\(cluster.password)@", with: "@")
        #expect(bare != url)

        let missing = await #expect(throws: PostgresIndexError.self) {
            try await PostgresIndex(url: bare, environment: [:])
        }
        #expect(missing?.code == .cannotConnect)
        let wrong = await #expect(throws: PostgresIndexError.self) {
            try await PostgresIndex(url: bare, environment: ["PGPASSWORD": "not-\(cluster.password)"])
        }
        #expect(wrong?.code == .cannotConnect)
        #expect(wrong.map { !"\($0)".contains("not-\(cluster.password)") } == true)

        let fromEnvironment = try await PostgresIndex(url: bare, environment: ["PGPASSWORD": cluster.password])
        #expect(!"\(fromEnvironment.location)".contains(cluster.password))
        fromEnvironment.close()

        let tree = TemporaryTree("pgpass")
        let file = tree.path + "/pgpass"
        try "# comment\nother:*:*:*:nope\n127.0.0.1:\(cluster.port):*:\(cluster.user):\(cluster.password)\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let fromFile = try await PostgresIndex(url: bare, environment: ["PGPASSFILE": file])
        try await fromFile.indexItems([Self.item("x")])
        fromFile.close()
        let withPassword = try await PostgresIndex(url: url, environment: [:])
        #expect(try await withPassword.itemCount() == 1)
        #expect(!"\(withPassword.location)".contains(cluster.password))
        withPassword.close()
        // libpq's default, `prefer`, on loopback: no TLS context is made, and the test
        // cluster (which offers no TLS) is reached as with `disable`.
        let preferred = try await PostgresIndex(url: url.replacingOccurrences(of: "?sslmode=disable", with: ""), environment: [:])
        #expect(preferred.location.tls == .prefer && preferred.location.isLoopback)
        #expect(try await preferred.itemCount() == 1)
        preferred.close()
        // Through the server's socket, where the cluster trusts local connections.
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let viaSocket = try await PostgresIndex(
            url: "postgres://\(cluster.user)@localhost:\(cluster.port)/\(database)?host=\(cluster.directory)/socket",
            environment: [:])
        #expect(try await viaSocket.itemCount() == 1)
        viaSocket.close()
        #expect(PostgresLocation.redacted("postgres://u:secret@h/db") == "postgres://u:***@h/db")
        let invalid = #expect(throws: PostgresIndexError.self) { try PostgresLocation("postgres://u:secret@/db?sslmode=x") }
        #expect(invalid.map { !"\($0)".contains("secret") } == true)
    }

    @Test func aReadOnlyHandleNeedsAnIndex() async throws {
        let url = try await PostgresTestDatabase.makeURL()
        let error = await #expect(throws: PostgresIndexError.self) { try await PostgresIndex(url: url, readOnly: true) }
        #expect(error?.code == .unsupportedDatabase)
        let writer = try await PostgresIndex(url: url)
        try await writer.indexItems([Self.item("x")])
        let reader = try await PostgresIndex(url: url, readOnly: true)
        #expect(try await reader.itemCount() == 1)
        // Opening again migrates nothing and keeps the items.
        let again = try await PostgresIndex(url: url)
        #expect(try await again.itemCount() == 1)
        for index in [writer, reader, again] { index.close() }
    }
}

@Suite("PostgreSQL locations", .ownThread)
struct PostgresLocationTests {
    @Test func urlsParseWithDefaultsAndNeverShowTheirPassword() throws {
        let location = try PostgresLocation("postgresql://ana:s%40cret@db.example:6543/shared?sslmode=require",
                                            environment: [:])
        #expect(location.user == "ana")
        #expect(location.password == "s@cret")
        #expect(location.port == 6543)
        #expect(location.database == "shared")
        #expect(location.tls == .require)
        #expect(location.description == "postgres://ana@db.example:6543/shared")
        let socket = try PostgresLocation("postgres://ana@localhost/idx?host=/run/postgresql",
                                          environment: ["PGPASSWORD": "env"])
        #expect(socket.socketDirectory == "/run/postgresql")
        #expect(socket.password == "env")
        #expect(socket.port == 5432)
        #expect(!PostgresLocation.isPostgresURL("/home/ana/index.sqlite"))
        #expect(!location.isLoopback && socket.isLoopback)
        let hosts = ["127.0.0.1", "127.1.2.3", "[::1]", "LOCALHOST", "127.0.0.256", "128.0.0.1", "localhost.example", "10.0.0.1"]
        let loopback = try hosts.map { try PostgresLocation("postgres://ana@\($0)/idx", environment: [:]).isLoopback }
        #expect(loopback == [true, true, true, true, false, false, false, false])
        #expect(throws: PostgresIndexError.self) { try PostgresLocation("mysql://a@b/c", environment: [:]) }
    }

    @Test func aPasswordFileThatOthersCanReadIsIgnored() throws {
        let tree = TemporaryTree("pgpass")
        let file = tree.path + "/pgpass"
        try "db.example:5432:idx:ana:from-file\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        let open = try PostgresLocation("postgres://ana@db.example/idx", environment: ["PGPASSFILE": file])
        #expect(open.password == nil)
        chmod(file, 0o600)
        let closed = try PostgresLocation("postgres://ana@db.example/idx", environment: ["PGPASSFILE": file])
        #expect(closed.password == "from-file")
    }
}
