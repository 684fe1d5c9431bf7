import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// The words of texts on both backends (issue 21, deliverable 6): a folder of texts whose words
/// are hard to split (`file.pdf`, `snake_case_words`, `CamelCase`, `e-mail`, `C++`, `l'été`,
/// dates, URLs, Han and kana…), real documents read by the workers, and long texts near the
/// 1 MiB cap, scanned into an SQLite file and into a PostgreSQL database: every search finds
/// the same items on both.
@Suite("text words on PostgreSQL and SQLite", .serialized, .ownThread, .needsPostgres)
struct PostgresTextWordsTests {
    let tree = TemporaryTree("pg-words")
    let work = TemporaryTree("pg-words-index")
    var sqlite: String { work.path + "/index.sqlite" }

    /// The committed corpus (Tests/Corpora/TextWords) and the documents of the extraction tests.
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = tests.appendingPathComponent("Corpora/TextWords").path
    static let documents = tests.appendingPathComponent("DocumentExtractionTests/Fixtures").path
    static let documentNames = ["report.pdf", "report.docx", "report.odt", "report.rtf", "ledger.xlsx", "ledger.ods",
                                "talk.pptx", "voyage.epub"]

    /// Searches whose items must be the same on both indexes. Each word is there for a
    /// reason: parts of file names, URLs, hosts and e-mail addresses (which PostgreSQL's
    /// parser keeps whole), parts at case changes and digits, hyphens, apostrophes, accents
    /// and letters that `unaccent` changed but SQLite does not (`ß`, `ø`, `ł`, `ﬁ`, full-width
    /// forms), Han and kana inside a run, numbers split at punctuation, words of the documents.
    /// (No Hangul: a search for a Hangul word of a text finds nothing on SQLite, whose query
    /// word is decomposed (NFD) while FTS5 keeps the text's syllables composed. No `e10`: typed as a
    /// compound it is a whole run of a text, which `2.5e10` is not, so only a keyword `5e10` finds
    /// it — and a text's keywords are its words rarest in the index while it is scanned, which
    /// differ between two scans of the same tree.)
    static let searches: [[String]] = [
        ["pdf"], ["word"], ["file"], ["docx"], ["report"], ["final"], ["notes"], ["v2"], ["testpdf"],
        ["snake"], ["case"], ["words"], ["camel"], ["xml"], ["http"], ["request"], ["iphone"], ["phone"], ["15"], ["pro"],
        ["mail"], ["e", "mail"], ["first"], ["last"], ["example"], ["org"], ["mention"], ["hashtag"], ["objective"],
        ["c"], ["don"], ["t"], ["ete"], ["été"], ["paris"], ["isn"],
        ["2024"], ["05"], ["01"], ["12"], ["45z"], ["3"], ["14159"], ["2"], ["5e10"], ["v1"], ["10"], ["000"],
        ["usr"], ["searchlight"], ["documents"], ["taxes"], ["windows"], ["system32"], ["system"],
        ["www"], ["getting"], ["started"], ["index"], ["html"], ["lang"], ["wordperfect"], ["install"], ["csrc"],
        ["nist"], ["gov"], ["fips"], ["140"], ["1402"], ["fips140"], ["ftp"], ["tar"], ["gz"], ["mailto"], ["support"],
        ["openoffice"], ["uk"], ["underscores"],
        ["東京"], ["庁の"], ["写真"], ["都庁の写真"], ["カタカナ"], ["てすと"], ["分词"], ["搜索引擎"],
        ["tower"], ["abc"], ["全角"],
        ["creme"], ["crème"], ["brulee"], ["angstrom"], ["oresund"], ["lodz"], ["istanbul"], ["strasse"], ["straße"],
        ["aeroskobing"], ["naive"], ["cafe"], ["resume"], ["cooperate"], ["fiance"], ["αθηνα"], ["москва"],
        ["well"], ["known"], ["state"], ["art"], ["co"], ["operate"], ["dash"], ["rock"], ["roll"], ["brien"],
        ["guillemets"], ["anfuhrung"], ["single"], ["semi"], ["colon"], ["pipe"], ["slash"], ["tab"], ["under"],
        ["score"], ["plus"], ["tilde"], ["party"], ["time"], ["thumbs"], ["trade"], ["copy"],
        ["0x1f"], ["0b1010"], ["007"], ["1e"], ["42"], ["33"], ["978"], ["192"], ["168"], ["fe80"], ["24"], ["a4"],
        ["b2b"], ["3d"], ["4k"], ["5g"], ["mp3"], ["h264"], ["x86"], ["64"], ["arm64"], ["utf8mb4"], ["mb4"],
        ["parsing"], ["urls"], ["urlcomponents"], ["components"], ["parse"], ["url"], ["input"], ["bold"], ["italic"],
        ["text"], ["fn"], ["http", "response"], ["alpha"], ["beta"], ["gamma"], ["epsilon"], ["zeta"], ["quoted"],
        ["menu"], ["km"], ["nbsp"], ["chef"], ["jane"], ["doe"], ["team"], ["q3"], ["figures"], ["xlsx"], ["server"],
        ["share"], ["reports"], ["finance"], ["irc"], ["raw"], ["scheme"], ["rfc"], ["3986"], ["https"], ["starts"],
        ["migratory"], ["arctic"], ["tern"], ["orchard"], ["harvest"], ["ledger"], ["cartographer"], ["lantern"],
        ["valparaiso"], ["narwhal"], ["sailcloth"], ["wierzbicki"],
        ["longprose"], ["lighthouse", "keeper"], ["zebracorn"], ["pastthecap"], ["hexstart"], ["a0"],
    ]

    /// Queries on the text whose items must be the same on both.
    static let queries = [
        "kMDItemTextContent == \"e-mail\"cdw", "kMDItemTextContent == \"file.pdf\"cdw",
        "kMDItemTextContent == \"snake case\"cdt", "kMDItemTextContent == \"東京\"cdw",
        "kMDItemTextContent == \"l'été\"cdw", "kMDItemTextContent == \"2024 05 01\"w",
        // One word, as Finder asks: answered by the full-text index alone, a run whole (`iPhone`).
        "kMDItemTextContent == \"iphone\"cdw", "kMDItemTextContent == \"camelcase\"cdw",
        "kMDItemTextContent == \"testpdf\"cdw", "kMDItemTextContent == \"STRASSE\"cdw",
        "kMDItemTextContent == \"lighthouse\"cdw", "kMDItemTextContent != \"pdf\"cdw",
    ]

    /// Copies the corpus and documents, and adds long texts near the cap: prose whose last
    /// words come just before the 1 MiB cap, and a text of as many distinct words as fit (hexadecimal).
    func makeTree() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.corpus) {
            try FileManager.default.copyItem(atPath: Self.corpus + "/" + name, toPath: tree.url(name))
        }
        tree.mkdirs("documents")
        for name in Self.documentNames {
            try FileManager.default.copyItem(atPath: Self.documents + "/" + name, toPath: tree.url("documents/" + name))
        }
        let sentence = "The lighthouse keeper wrote longprose entries in the log-book at 06:00, every day of 1894. "
        var prose = String(repeating: sentence, count: (1 << 20) / sentence.utf8.count - 2)
        prose += "A zebracorn was seen. "
        prose += String(repeating: "filler ", count: ((1 << 20) - prose.utf8.count) / 7 + 2)
        prose += "pastthecap\n"
        tree.write("long/prose.txt", prose)
        var hex = "hexstart "
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while hex.utf8.count < (1 << 20) - 40 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            hex += String(state, radix: 16) + " "
        }
        tree.write("long/hex.txt", hex + "\n")
    }

    /// The items a command prints (`-0`: absolute paths), relative to the tree, as a set. `long/hex.txt` holds more
    /// distinct words than a PostgreSQL `tsvector` can (1 MiB): past its first ones, only those
    /// that fit are kept there, all of them in SQLite; it is compared on `hexstart` alone.
    func items(_ command: [String], index: String) throws -> (status: Int32, items: Set<String>, stderr: String) {
        let result = try Searchlight.run(command + ["-0"], index: index)
        let root = tree.path + "/"
        let absolute = result.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(absolute.allSatisfy { $0.hasPrefix(root) }, "\(command): \(absolute)")
        let paths = absolute.map { String($0.dropFirst(root.count)) }
            .filter { $0 != "long/hex.txt" || command.last == "hexstart" }
        return (result.status, Set(paths), result.stderr)
    }

    @Test func searchesFindTheSameItemsOnBothBackends() async throws {
        try makeTree()
        let url = try await PostgresCluster.shared().makeDatabase("words")
        for index in [sqlite, url] {
            let scan = try Searchlight.run(["scan", tree.path, "--domain", "words", "--no-thumbnails", "--json"], index: index)
            #expect(scan.status == 0, "\(index): \(scan.stderr)")
            let summary = try JSONSerialization.jsonObject(with: Data(scan.stdout)) as? [String: Any]
            #expect(summary?["failed"] as? Int == 0, "\(scan.output)")
        }
        #expect(try Searchlight.run(["list", "--count"], index: url).lines
                == Searchlight.run(["list", "--count"], index: sqlite).lines)
        var found = 0
        for words in Self.searches {
            let expected = try items(["search"] + words, index: sqlite)
            let actual = try items(["search"] + words, index: url)
            #expect(actual.status == expected.status, "\(words): \(actual.stderr) \(expected.stderr)")
            #expect(actual.items == expected.items, """
                search \(words.joined(separator: " ")): only SQLite \(expected.items.subtracting(actual.items).sorted()), \
                only PostgreSQL \(actual.items.subtracting(expected.items).sorted())
                """)
            found += expected.items.count
        }
        // The corpus is found at all: the words of its texts are in the index.
        for (words, item) in [(["pdf"], "tokens.txt"), (["pdf"], "urls.txt"), (["pdf"], "page.html"), (["word"], "punctuation.txt"),
                              (["庁の"], "cjk.txt"), (["zebracorn"], "long/prose.txt"), (["hexstart"], "long/hex.txt"),
                              (["tern"], "documents/report.pdf"), (["fips"], "urls.txt"), (["snake"], "tokens.txt")] {
            #expect(try items(["search"] + words, index: sqlite).items.contains(item), "\(words) \(item)")
        }
        #expect(try items(["search", "pastthecap"], index: sqlite).items.isEmpty)
        #expect(try items(["search", "hexstart"], index: url).items == ["long/hex.txt"])
        #expect(found > 200, "\(found)")
        for query in Self.queries {
            let expected = try items(["query", query], index: sqlite)
            let actual = try items(["query", query], index: url)
            #expect(expected.status == 0 && actual.status == 0, "\(query): \(actual.stderr) \(expected.stderr)")
            #expect(actual.items == expected.items, "query \(query): SQLite \(expected.items.sorted()), PostgreSQL \(actual.items.sorted())")
        }
    }
}
