import ExtractionProtocol
import Foundation
import Glibc
import Logging
import Searchlight
import SearchlightFiles
import SearchlightTestSupport
import Testing

/// Documents built to hurt a text extractor. Each is read by a real worker under the
/// production bounds (the default 2 GiB address-space limit, a deadline): the worker must
/// answer — a document, or at worst a recorded failure — never hang past its deadline or die,
/// and a scan of them all loses nothing.
@Suite("Hostile documents through the extraction workers", .ownThread)
struct ExtractorPoolHostileDocumentTests: @unchecked Sendable {
    // Each test's body runs on a thread of its own (`blocking`): the worker's answer and the
    // large files take seconds, which must not hold a thread of the shared concurrency pool.
    let tree = TemporaryTree("hostile")

    /// A deadline far above what any of these takes, so that only a real hang reaches it.
    static let deadline: Duration = .seconds(60)

    static func makePool() throws -> ExtractorPool {
        ExtractorPool(configuration: .init(workerCount: 1, deadline: deadline), logger: Logger(label: "test"))
    }

    func read(_ name: String, type: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ExtractedDocument {
        let pool = try Self.makePool()
        defer { pool.shutdown() }
        switch pool.document(ofFileAtPathBytes: Array(tree.url(name).utf8), contentType: type) {
        case .success(let document):
            #expect(document.text.utf8.count <= pool.configuration.textLimit, sourceLocation: sourceLocation)
            return document
        case .failure(let failure):
            Issue.record("\(name): \(failure.message)", sourceLocation: sourceLocation)
            throw failure
        }
    }

    /// Writes `count` copies of `chunk` to `name` without holding them all in memory.
    func writeRepeated(_ name: String, _ chunk: String, count: Int, prefix: String = "", suffix: String = "") throws {
        FileManager.default.createFile(atPath: tree.url(name), contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: tree.url(name)))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(prefix.utf8))
        let block = Data(String(repeating: chunk, count: max(1, (1 << 20) / max(chunk.utf8.count, 1))).utf8)
        let perBlock = max(1, (1 << 20) / max(chunk.utf8.count, 1))
        var written = 0
        while written + perBlock <= count {
            try handle.write(contentsOf: block)
            written += perBlock
        }
        try handle.write(contentsOf: Data(String(repeating: chunk, count: count - written).utf8))
        try handle.write(contentsOf: Data(suffix.utf8))
    }

    /// 3 MiB of text, then a hole up to 2 GB (sparse: no disk space used).
    func writeSparseText(_ name: String) throws {
        try writeRepeated(name, "The lighthouse keeper wrote in his log every night. ", count: 60_000)
        #expect(truncate(tree.url(name), 2_000_000_000) == 0)
    }

    @Test("A 2 GB text file gives its first megabyte, marked truncated")
    func hugeSparseFile() async throws {
        try await blocking { [self] in try hugeSparseFileBody() }
    }

    func hugeSparseFileBody() throws {
        try writeSparseText("huge.txt")
        let document = try read("huge.txt", type: "text/plain")
        #expect(document.isTextTruncated)
        #expect(document.text.hasPrefix("The lighthouse keeper wrote"))
        #expect(document.text.utf8.count > (1 << 20) - 64)
    }

    @Test("A file of one 50 MB line gives its first megabyte")
    func oneLongLine() async throws {
        try await blocking { [self] in try oneLongLineBody() }
    }

    func oneLongLineBody() throws {
        try writeRepeated("line.txt", "word ", count: 10_000_000)
        let document = try read("line.txt", type: "text/plain")
        #expect(document.isTextTruncated)
        #expect(document.text.hasPrefix("word word"))
        #expect(!document.text.contains("\n"))
    }

    @Test("HTML nested 100 000 elements deep")
    func deepHTML() async throws {
        try await blocking { [self] in try deepHTMLBody() }
    }

    func deepHTMLBody() throws {
        try writeRepeated("deep.html", "<div>", count: 100_000, prefix: "<html><head><title>Deep</title></head><body>",
                          suffix: "deep text at the bottom")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: tree.url("deep.html")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((String(repeating: "</div>", count: 100_000) + "after all</body></html>").utf8))
        try handle.close()
        let document = try read("deep.html", type: "text/html")
        #expect(document.title == "Deep")
        #expect(document.text.contains("deep text at the bottom"))
    }

    @Test("XML nested 100 000 elements deep is read as far as libxml2 allows")
    func deepXML() async throws {
        try await blocking { [self] in try deepXMLBody() }
    }

    func deepXMLBody() throws {
        try writeRepeated("deep.xml", "<a>", count: 100_000, prefix: "<?xml version=\"1.0\"?><root>near the top",
                          suffix: "bottom")
        _ = try read("deep.xml", type: "text/xml")
    }

    @Test("Billion laughs: entities are not expanded")
    func billionLaughs() async throws {
        try await blocking { [self] in try billionLaughsBody() }
    }

    func billionLaughsBody() throws {
        var declarations = "<!ENTITY lol \"lol\">\n"
        for level in 1...9 {
            let previous = level == 1 ? "&lol;" : "&lol\(level - 1);"
            declarations += "<!ENTITY lol\(level) \"\(String(repeating: previous, count: 10))\">\n"
        }
        let xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n\(declarations)]>\n<lolz>laughs &lol9; end</lolz>\n"
        FileManager.default.createFile(atPath: tree.url("laughs.xml"), contents: Data(xml.utf8))
        let document = try read("laughs.xml", type: "text/xml")
        #expect(document.text == "laughs end")
    }

    /// A message of `count` text parts.
    static func manyPartsMessage(count: Int) -> String {
        var message = """
            From: Spammer <spam@example.com>
            Subject: Ten thousand parts
            MIME-Version: 1.0
            Content-Type: multipart/mixed; boundary="b"

            """
        for index in 0..<count {
            message += "\n--b\nContent-Type: text/plain\n\npart number \(index)\n"
        }
        return message + "--b--\n"
    }

    @Test("A mail of 10 000 parts is read up to the part limit")
    func manyParts() async throws {
        try await blocking { [self] in try manyPartsBody() }
    }

    func manyPartsBody() throws {
        FileManager.default.createFile(atPath: tree.url("parts.eml"), contents: Data(Self.manyPartsMessage(count: 10_000).utf8))
        let document = try read("parts.eml", type: "message/rfc822")
        #expect(document.title == "Ten thousand parts")
        let (text, truncated) = (document.text, document.isTextTruncated)
        #expect(text.hasPrefix("part number 0\n\npart number 1\n"))
        #expect(text.hasSuffix("part number 998"))
        #expect(truncated)
    }

    @Test("A mail nested 10 000 messages deep stops at the depth limit")
    func deepMail() async throws {
        try await blocking { [self] in try deepMailBody() }
    }

    func deepMailBody() throws {
        var message = "Subject: innermost\n\ninnermost text\n"
        for level in 0..<10_000 {
            message = "Subject: level \(level)\nContent-Type: message/rfc822\n\n" + message
        }
        FileManager.default.createFile(atPath: tree.url("nested.eml"), contents: Data(message.utf8))
        let document = try read("nested.eml", type: "message/rfc822")
        #expect(document.title == "level 9999")
        #expect(!document.text.contains("innermost text"))
    }

    @Test("A scan of hostile documents indexes every one of them, by name at worst")
    func scanLosesNothing() async throws {
        try await blocking { [self] in try scanLosesNothingBody() }
    }

    func scanLosesNothingBody() throws {
        try writeSparseText("huge.txt")
        try writeRepeated("deep.html", "<div>", count: 100_000, prefix: "<html><body>")
        FileManager.default.createFile(atPath: tree.url("parts.eml"), contents: Data(Self.manyPartsMessage(count: 10_000).utf8))
        var noise = SeededGenerator(seed: 3)
        let binary = (0..<8192).map { _ in UInt8.random(in: 0...255, using: &noise) }
        // Random bytes named like text: libmagic calls them data, so no extraction is tried.
        FileManager.default.createFile(atPath: tree.url("noise.txt"), contents: Data(binary))
        // Text with NULs sprinkled in: libmagic may call it text, the worker refuses it.
        FileManager.default.createFile(atPath: tree.url("nuls.txt"), contents: Data(Array(repeating: Array("ab\u{0}".utf8), count: 400).flatMap { $0 }))
        tree.write("trip.md", "# A trip\n\nWe climbed the lighthouse.\n")

        let indexFolder = TemporaryTree("hostile-index")
        let index = try SearchableIndex(path: indexFolder.path + "/index.sqlite")
        let root = try RootFolder(path: tree.path)
        let extraction = try ItemExtraction(options: .init(thumbnails: false),
                                            configuration: .init(workerCount: 2, deadline: Self.deadline),
                                            logger: Logger(label: "test"))
        defer { extraction.shutdown() }
        let options = FolderScanner.Options(domain: "hostile", pipeline: .init(extraction: extraction))
        let summary = try FolderScanner(index: index, root: root, options: options, logger: Logger(label: "test")).reconcile()
        #expect(summary.added == 6)
        #expect(try index.itemCount(domain: "hostile") == 6)
        let trip = try #require(try index.item(ItemIdentifier("trip.md"), domain: "hostile")?.item)
        #expect(trip.attributeSet.title == "A trip")
        #expect(trip.attributeSet.textContent?.contains("lighthouse") == true)
        #expect(trip.failure == nil)
        let huge = try #require(try index.item(ItemIdentifier("huge.txt"), domain: "hostile")?.item)
        #expect(huge.attributeSet.textContent?.hasPrefix("The lighthouse keeper") == true)
    }
}

extension ExtractorPoolHostileDocumentTests {
    @Test("Markdown full of unclosed markup stays linear")
    func unclosedMarkdown() async throws {
        try await blocking { [self] in try unclosedMarkdownBody() }
    }

    func unclosedMarkdownBody() throws {
        try writeRepeated("brackets.md", "[<(", count: 300_000, prefix: "# Brackets\n")
        let markdown = try read("brackets.md", type: "text/plain")
        #expect(markdown.title == "Brackets")
    }

    @Test("A mail header full of broken encoded words stays linear")
    func brokenEncodedWords() async throws {
        try await blocking { [self] in try brokenEncodedWordsBody() }
    }

    func brokenEncodedWordsBody() throws {
        try writeRepeated("words.eml", "=?", count: 300_000, prefix: "From: a@b.c\nDate: Mon, 2 Jan 2023 10:00:00 +0000\nSubject: ",
                          suffix: "\n\nbody text\n")
        let mail = try read("words.eml", type: "message/rfc822")
        #expect(mail.text == "body text")
    }
}
