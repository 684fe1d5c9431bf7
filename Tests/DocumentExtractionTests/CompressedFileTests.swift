@testable import DocumentExtraction
import ExtractionProtocol
import Foundation
import SearchlightTestSupport
import Testing

/// A compressed single file is read as the one file inside it, by that file's own type: files
/// made here by the real `gzip`, `bzip2`, `xz`, `zstd` and `lz4`, typed by libmagic as
/// the indexer types them, read through the worker's entry point.
@Suite("Compressed single files", .ownThread)
struct CompressedFileTests {
    let tree = TemporaryTree("compressed")

    /// The worker's answer for the file at `name` in the tree, typed by libmagic as the indexer
    /// types a file (its first mebibyte).
    func extract(_ name: String) throws -> Result<ExtractedDocument, ExtractionFailure> {
        let path = tree.url(name)
        let head = try FileHandle(forReadingFrom: URL(filePath: path)).read(upToCount: MemberType.maximumBytesRead) ?? Data()
        let contentType = MemberType.of(Array(head))
        return DocumentExtractor.extract(ExtractionRequest(jobID: 1, kind: .text, path: Array(path.utf8), limit: 1 << 20,
                                                           contentType: contentType))
    }

    /// The document, or a recorded issue and nil.
    func document(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ExtractedDocument? {
        switch try extract(name) {
        case .success(let document): return document
        case .failure(let failure):
            Issue.record("\(name): \(failure)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Writes `text` to `name` in the tree and compresses it there with `command` (which
    /// writes to its standard output).
    func compress(_ text: String, as name: String, with command: String) {
        tree.write("plain/" + name, text)
        shell("sh", "-c", "\(command) < '\(tree.url("plain/" + name))' > '\(tree.url(name))'")
    }

    /// A compressor, its name's suffix and libmagic's type of what it writes.
    struct Compressor: Sendable, CustomTestStringConvertible {
        var command: String
        var suffix: String
        var type: String
        var testDescription: String { command }
    }

    static let compressors = [
        Compressor(command: "gzip -n", suffix: "gz", type: "application/gzip"),
        Compressor(command: "bzip2", suffix: "bz2", type: "application/x-bzip2"),
        Compressor(command: "xz", suffix: "xz", type: "application/x-xz"),
        Compressor(command: "zstd -q", suffix: "zst", type: "application/zstd"),
        Compressor(command: "lz4 -q", suffix: "lz4", type: "application/x-lz4"),
    ]

    @Test("Compressed text is read as text: its words, no member header", arguments: compressors)
    func compressedText(compressor: Compressor) throws {
        let name = "notes.txt." + compressor.suffix
        compress("The lighthouse keeper fed the marmot at dawn.\n", as: name, with: compressor.command)
        let head = try #require(FileManager.default.contents(atPath: tree.url(name)))
        #expect(MemberType.of(Array(head)) == compressor.type)
        let document = try #require(try document(name))
        #expect(document.text.contains("lighthouse keeper fed the marmot"), "\(document.text)")
        #expect(!document.text.contains("==="), "\(document.text)")
        #expect(ArchiveText.sections(of: document.text).isEmpty)
        #expect(!document.isTextTruncated)
    }

    @Test("Text libarchive's guessing took for an mtree listing (Debian changelogs) is read as text")
    func changelogShapes() throws {
        // Lines without spaces made libarchive bid `mtree`; a curly quote then failed its parse
        // ("damaged archive (Can't parse line 6)"), and a one-word file was a member named by its word.
        compress("Releases\n--------\nv1.2.0\n------\n- Added the marmot whistle\n- The level is 4.1 if the user doesn\u{2019}t set it\n",
                 as: "changelog.gz", with: "gzip -n -9")
        compress("dummy\n", as: "autoconf-changelog.gz", with: "gzip -n")
        let changelog = try #require(try document("changelog.gz"))
        #expect(changelog.text.contains("Added the marmot whistle"), "\(changelog.text)")
        #expect(changelog.text.contains("doesn\u{2019}t set it"), "\(changelog.text)")
        #expect(try document("autoconf-changelog.gz")?.text.trimmingCharacters(in: .whitespacesAndNewlines) == "dummy")
    }

    @Test("A gzip'd man page is read as its text, a gzip'd Markdown file with its title")
    func manPageAndMarkdown() throws {
        compress("""
            .TH MARMOT 1 "December 2026" "marmot 1.0" "User Commands"
            .SH NAME
            marmot \\- whistle at the approaching eagles
            .SH DESCRIPTION
            .B marmot
            warns the \\fBburrow\\fR before the eagles land.
            """ + "\n", as: "marmot.1.gz", with: "gzip -n -9")
        let manual = try #require(try document("marmot.1.gz"))
        #expect(manual.text.contains("whistle at the approaching eagles"), "\(manual.text)")
        #expect(manual.text.contains("before the eagles land"), "\(manual.text)")

        compress("# Harbour notes\n\nThe ferry leaves at noon.\n", as: "harbour.md.xz", with: "xz")
        let notes = try #require(try document("harbour.md.xz"))
        #expect(notes.title == "Harbour notes")
        #expect(notes.text.contains("The ferry leaves at noon."), "\(notes.text)")
    }

    @Test("A compressed tar is still an archive with members, whatever its name")
    func compressedTarballs() throws {
        tree.write("members/drafts/letter.txt", "Dear landlord, the heating failed again.\n")
        tree.write("members/poem.md", "# Spring\n\nThe quokka ate the basil.\n")
        let members = tree.url("members")
        shell("sh", "-c", "cd '\(members)' && tar czf ../bundle.tar.gz drafts poem.md && tar cf - drafts poem.md | zstd -q > ../backup.zst")
        for name in ["bundle.tar.gz", "backup.zst"] {
            let document = try #require(try document(name))
            let sections = ArchiveText.sections(of: document.text)
            #expect(sections.map(\.member).sorted() == ["drafts/letter.txt", "poem.md"], "\(name): \(document.text)")
            #expect(sections.first { $0.member == "drafts/letter.txt" }?.text.contains("heating failed") == true, "\(name)")
            #expect(sections.first { $0.member == "poem.md" }?.text.contains("quokka") == true, "\(name)")
        }
    }

    @Test("A compressed file of no readable type gives no text and no failure")
    func binaryInside() throws {
        shell("sh", "-c", "head -c 4096 /dev/urandom | gzip -n > '\(tree.url("blob.bin.gz"))'")
        #expect(try document("blob.bin.gz")?.text == "")
    }

    @Test("A truncated compressed file is a clear decoding failure, cut in its first block or later")
    func truncated() throws {
        // About 1.3 MB of words that repeat little: 400 KB compressed, many blocks.
        let words = (0..<200_000).map { "word\($0 &* 7919 % 1_000_003)" }.joined(separator: " ")
        compress(words, as: "long.txt.gz", with: "gzip -n")
        let whole = try #require(FileManager.default.contents(atPath: tree.url("long.txt.gz")))
        for (name, length) in [("early.txt.gz", 2000), ("late.txt.gz", whole.count * 9 / 10)] {
            #expect(FileManager.default.createFile(atPath: tree.url(name), contents: whole.prefix(length)))
            DocumentFixtures.expectFailure(try extract(name), .decodeFailed, containing: "damaged compressed file (truncated gzip input)")
        }
        #expect(try document("long.txt.gz")?.text.contains("word7919 ") == true)
    }

    @Test("Gzip bombs (a gigabyte of zeros, of a text line) stay bounded: binary is left after its head, text cut at the cap")
    func gzipBombs() throws {
        // A hundred gzip members of 10 MiB each: one stream of 1 GiB, about 1 MB on disk.
        for (name, source) in [("zeros.gz", "cat /dev/zero"), ("whistles.txt.gz", "yes 'the marmot whistles'")] {
            shell("sh", "-c", "\(source) | head -c 10485760 | gzip -n -9 > '\(tree.url("ten"))' && for i in $(seq 100); do "
                + "cat '\(tree.url("ten"))'; done > '\(tree.url(name))'")
        }
        // Not a type with text: only libmagic's head (1 MiB) is inflated.
        #expect(try document("zeros.gz")?.text == "")
        // Text: read up to the cap of one file and no further, marked cut short.
        let whistles = try #require(try document("whistles.txt.gz"))
        #expect(whistles.text.hasPrefix("the marmot whistles\n") && whistles.isTextTruncated)
        #expect(whistles.text.utf8.count <= 16 << 20)
    }
}
