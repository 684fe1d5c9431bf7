import ExtractionProtocol
import Foundation
import Logging
import Searchlight
@testable import SearchlightFiles
import SearchlightTestSupport
import Testing

/// After an upgrade whose readers read files earlier ones left without text (issue 34:
/// subtitles and other text under `application/x-…` types), the items indexed before are read
/// again once, by the next reconcile — through real workers, libmagic and a real index.
@Suite("Files this version reads as text are read again once", .serialized, .ownThread)
struct RereadNewlyReadableTests {
    let tree = TemporaryTree("reread")
    let scratch = TemporaryTree("reread-index")

    /// The tree scanned by today's readers into a new index, through a real worker, with the
    /// state `scan` and `watch` record of a new domain. The caller shuts the extraction down.
    func scanned() throws -> (SearchableIndex, ItemExtraction, FolderScanner) {
        let index = try SearchableIndex(path: scratch.url("index.sqlite"))
        let extraction = try ItemExtraction(options: .init(thumbnails: false), configuration: .init(workerCount: 1),
                                            logger: Logger(label: "test"))
        let scanner = FolderScanner(index: index, root: try RootFolder(path: tree.path), options: .init(domain: "files", pipeline: .init(extraction: extraction)),
                                    logger: Logger(label: "test"))
        _ = try scanner.reconcile()
        try index.setState(DomainState(root: tree.path), domain: "files")
        return (index, extraction, scanner)
    }

    @Test func olderItemsAreReadAgainOnce() throws {
        let subtitles = "1\n00:00:01,000 --> 00:00:04,000\nL'été dernier, au château du phare.\n"
        FileManager.default.createFile(atPath: tree.url("film.srt"), contents: subtitles.data(using: .isoLatin1))
        tree.write("notes.txt", "a harbour without subtitles\n")
        let (index, extraction, scanner) = try scanned()
        defer { extraction.shutdown() }
        func found(_ word: String) throws -> [String] {
            try index.searchIdentifiers(words: [word], domain: nil, limit: nil, scope: .all).map(\.lossyString)
        }
        #expect(try found("chateau") == ["film.srt"])
        #expect(try index.domainState("files")?.contentReaders == ContentReader.generation, "a new domain starts current")

        // As an older version left them: the subtitles without text, the state without a generation.
        var item = try #require(try index.item("film.srt", domain: "files")).item
        item.attributeSet.textContent = nil
        var state = try #require(try index.domainState("files"))
        state.contentReaders = nil
        var batch = IndexBatch()
        batch.upsert(item)
        try index.apply(batch, states: ["files": state])
        #expect(try found("chateau").isEmpty)
        #expect(try scanner.reconcile().updated == 0, "unchanged on disk: an older version's scan never reads it again")

        extraction.rereadNewlyReadable(in: index, domain: "files")
        #expect(try index.domainState("files")?.contentReaders == ContentReader.generation)
        #expect(try index.changeStamp(of: "film.srt", domain: "files") == .some(nil), "its change stamp forgotten")
        #expect(try index.changeStamp(of: "notes.txt", domain: "files") != .some(nil), "a file with text is left alone")
        let summary = try scanner.reconcile()
        #expect(summary.updated == 1, "\(summary)")
        #expect(try found("chateau") == ["film.srt"])
        #expect(try found("harbour") == ["notes.txt"])

        // Once: the domain is at today's generation.
        extraction.rereadNewlyReadable(in: index, domain: "files")
        #expect(try index.changeStamp(of: "film.srt", domain: "files") != .some(nil))
    }

    /// Generation 3 (issue 32): an item an older version indexed with a private key block in
    /// its text loses the block at once and is read again; a key file an older version indexed
    /// leaves the index at the next reconcile; other items are left alone.
    @Test func olderItemsWithKeysLoseThem() throws {
        shell("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", scratch.url("deploy"))
        let key = try String(contentsOfFile: scratch.url("deploy"), encoding: .utf8)
        tree.write("setup.sh", "#!/bin/sh\n# installs the lighthouse deploy key\ncat > id <<EOF\n\(key)EOF\n")
        tree.write("notes.txt", "the private key of the harbour is kept elsewhere\n")
        let (index, extraction, scanner) = try scanned()
        defer { extraction.shutdown() }
        func text(_ name: String) throws -> String? { try index.item(ItemIdentifier(name), domain: "files")?.item.attributeSet.textContent }
        #expect(try text("setup.sh")?.contains("lighthouse") == true)
        #expect(try text("setup.sh")?.contains("PRIVATE KEY") == false, "today's readers cut the block")

        // As an older version left them: the script's text with its key, the key file an item,
        // the state at generation 2.
        FileManager.default.createFile(atPath: tree.url("deploy.key"), contents: Data(key.utf8))
        var script = try #require(try index.item("setup.sh", domain: "files")).item
        script.attributeSet.textContent = "#!/bin/sh\n# installs the lighthouse deploy key\ncat > id <<EOF\n\(key)EOF\n"
        var keyItem = script
        keyItem.uniqueIdentifier = ItemIdentifier("deploy.key")
        keyItem.attributeSet.displayName = "deploy.key"
        keyItem.attributeSet.textContent = key
        var state = try #require(try index.domainState("files"))
        state.contentReaders = 2
        var batch = IndexBatch()
        batch.upsert(script)
        batch.upsert(keyItem)
        try index.apply(batch, states: ["files": state])
        #expect(try text("setup.sh")?.contains("PRIVATE KEY") == true)

        extraction.rereadNewlyReadable(in: index, domain: "files")
        #expect(try index.domainState("files")?.contentReaders == ContentReader.generation)
        #expect(try text("setup.sh")?.contains("PRIVATE KEY") == false, "cut at once")
        #expect(try text("setup.sh")?.contains("lighthouse") == true)
        #expect(try index.changeStamp(of: "setup.sh", domain: "files") == .some(nil))
        #expect(try index.changeStamp(of: "notes.txt", domain: "files") != .some(nil), "words alone are no key")
        _ = try scanner.reconcile()
        #expect(try index.item("deploy.key", domain: "files") == nil, "key material is no item")
        #expect(try text("setup.sh")?.contains("PRIVATE KEY") == false)
        #expect(try index.searchIdentifiers(words: ["lighthouse"], domain: nil, limit: nil, scope: .all).map(\.lossyString)
                == ["setup.sh"])
    }

    /// Generation 4 (issue 48): a compressed single file an older version failed as a damaged
    /// archive (a changelog libarchive took for an `mtree` listing) is read again, as the text
    /// inside it; a tarball is left alone.
    @Test func olderCompressedFilesAreReadAsTheFileInside() throws {
        tree.write("plain/changelog", "Releases\n--------\nv1.2.0\n------\n- Added the marmot whistle\n"
            + "- The level is 4.1 if the user doesn\u{2019}t set it\n")
        shell("sh", "-c", "cd '\(tree.path)' && gzip -n -c plain/changelog > changelog.gz && tar czf bundle.tar.gz plain && rm -r plain")
        let (index, extraction, scanner) = try scanned()
        defer { extraction.shutdown() }
        func found(_ word: String) throws -> [String] {
            try index.searchIdentifiers(words: [word], domain: nil, limit: nil, scope: .all).map(\.lossyString).sorted()
        }
        #expect(try found("whistle") == ["bundle.tar.gz", "changelog.gz"])

        // As an older version left it: no text, a damaged archive.
        var item = try #require(try index.item("changelog.gz", domain: "files")).item
        item.attributeSet.textContent = nil
        item.failure = ExtractionFailure(.decodeFailed, "content: damaged archive (Can't parse line 6)").stored
        var state = try #require(try index.domainState("files"))
        state.contentReaders = 3
        var batch = IndexBatch()
        batch.upsert(item)
        try index.apply(batch, states: ["files": state])
        #expect(try found("whistle") == ["bundle.tar.gz"])

        extraction.rereadNewlyReadable(in: index, domain: "files")
        #expect(try index.domainState("files")?.contentReaders == ContentReader.generation)
        #expect(try index.changeStamp(of: "changelog.gz", domain: "files") == .some(nil))
        #expect(try index.changeStamp(of: "bundle.tar.gz", domain: "files") != .some(nil), "a tarball is read as before")
        #expect(try scanner.reconcile().updated == 1)
        #expect(try found("whistle") == ["bundle.tar.gz", "changelog.gz"])
        #expect(try index.item("changelog.gz", domain: "files")?.item.failure == nil)
    }

    /// Generation 5: manual pages an older version stored as their roff markup (`ls.1`, and
    /// `ls.1.gz` once read as the text inside it) are read again, as the text they print; other
    /// text is left alone.
    @Test func olderManualPagesAreReadAsTheirText() throws {
        let page = ".TH BURROW 5\n.SH NAME\nburrow \\- the \\fBmarmot\\fR colony file\n"
        tree.write("burrow.5", page)
        tree.write("plain/tool.1", page.replacingOccurrences(of: "BURROW 5", with: "TOOL 1"))
        shell("sh", "-c", "cd '\(tree.path)' && gzip -n -c plain/tool.1 > tool.1.gz && rm -r plain")
        tree.write("notes.txt", "the marmot colony keeps notes\n")
        let (index, extraction, scanner) = try scanned()
        defer { extraction.shutdown() }
        func text(_ name: String) throws -> String? { try index.item(ItemIdentifier(name), domain: "files")?.item.attributeSet.textContent }
        #expect(try text("burrow.5") == "NAME\nburrow - the marmot colony file")

        // As an older version left them: the markup as text, the state at generation 4.
        var batch = IndexBatch()
        for name in ["burrow.5", "tool.1.gz"] {
            var item = try #require(try index.item(ItemIdentifier(name), domain: "files")).item
            item.attributeSet.textContent = page
            batch.upsert(item)
        }
        var state = try #require(try index.domainState("files"))
        state.contentReaders = 4
        try index.apply(batch, states: ["files": state])

        extraction.rereadNewlyReadable(in: index, domain: "files")
        #expect(try index.domainState("files")?.contentReaders == ContentReader.generation)
        #expect(try index.changeStamp(of: "burrow.5", domain: "files") == .some(nil))
        #expect(try index.changeStamp(of: "tool.1.gz", domain: "files") == .some(nil))
        #expect(try index.changeStamp(of: "notes.txt", domain: "files") != .some(nil), "other text is read as before")
        #expect(try scanner.reconcile().updated == 2)
        #expect(try text("burrow.5") == "NAME\nburrow - the marmot colony file")
        #expect(try text("tool.1.gz") == "NAME\nburrow - the marmot colony file")
    }

    /// Generation 6: a file an older version typed by libmagic's weak guess (a Greek `.txt`
    /// called a DOS program) and Korean text in Johab, once decoded as Latin-1, are read again:
    /// typed by their name and bytes, decoded as Johab; plain ASCII text is left alone.
    @Test func weakGuessesAndJohabAreReadAgain() throws {
        let greek = try ChildProcess.run(["/usr/bin/iconv", "-f", "UTF-8", "-t", "ISO-8859-7"],
                                         input: Array("Έλα να δούμε τι γίνεται, καλημέρα κόσμε.\n".utf8))
        FileManager.default.createFile(atPath: tree.url("greek.txt"), contents: Data(greek.stdout))
        let korean = try ChildProcess.run(["/usr/bin/iconv", "-f", "UTF-8", "-t", "JOHAB"],
                                          input: Array(String(repeating: "안녕하세요 조합형 설명서입니다\n", count: 4).utf8))
        FileManager.default.createFile(atPath: tree.url("readme.txt"), contents: Data(korean.stdout))
        tree.write("notes.txt", "the marmot colony keeps notes\n")
        let (index, extraction, scanner) = try scanned()
        defer { extraction.shutdown() }
        func item(_ name: String) throws -> SearchableItem { try #require(try index.item(ItemIdentifier(name), domain: "files")).item }
        #expect(try item("greek.txt").attributeSet.contentType == "text/plain")
        #expect(try item("greek.txt").attributeSet.textContent?.contains("καλημέρα") == true)
        #expect(try item("readme.txt").attributeSet.textContent?.contains("설명서입니다") == true)

        // As an older version left them: libmagic's guess and no text, Johab read as Latin-1.
        var batch = IndexBatch()
        var old = try item("greek.txt")
        old.attributeSet.contentType = "application/x-dosexec"
        old.attributeSet.contentDescription = "DOS executable (COM), start instruction 0xb8ebe120 ede120e4"
        old.attributeSet.textContent = nil
        batch.upsert(old)
        var readme = try item("readme.txt")
        readme.attributeSet.textContent = String(decoding: korean.stdout.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)
        batch.upsert(readme)
        var state = try #require(try index.domainState("files"))
        state.contentReaders = 5
        try index.apply(batch, states: ["files": state])

        extraction.rereadNewlyReadable(in: index, domain: "files")
        #expect(try index.domainState("files")?.contentReaders == ContentReader.generation)
        #expect(try index.changeStamp(of: "greek.txt", domain: "files") == .some(nil))
        #expect(try index.changeStamp(of: "readme.txt", domain: "files") == .some(nil))
        #expect(try index.changeStamp(of: "notes.txt", domain: "files") != .some(nil), "ASCII text is read as before")
        #expect(try scanner.reconcile().updated == 2)
        #expect(try item("greek.txt").attributeSet.contentType == "text/plain")
        #expect(try item("greek.txt").attributeSet.textContent?.contains("καλημέρα") == true)
        #expect(try item("readme.txt").attributeSet.textContent?.contains("설명서입니다") == true)
    }
}
