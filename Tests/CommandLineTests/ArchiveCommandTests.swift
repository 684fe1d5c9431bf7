import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// Archives through the built binaries: `scan` reads what is inside ZIP, tar.gz, tar.xz,
/// tar.zst (names and the text of text and document members) and a gzip'd file, `search`
/// finds an archive by a word of one of its documents, `show --matching` lists the members
/// that hold it; bombs and encrypted archives are indexed by name with a quiet failure.
@Suite("searchlight on archives", .serialized, .ownThread)
struct ArchiveCommandTests {
    static let fixtures = ScannedFolder.fixtures
    let folder = ScannedFolder("archives-cli")
    var tree: TemporaryTree { folder.tree }
    var work: TemporaryTree { folder.work }

    func run(_ arguments: [String]) throws -> CommandResult { try folder.run(arguments) }
    func json(_ id: String) throws -> [String: Any] { try folder.json(id) }

    /// Makes the archives in `tree`/archives from a folder of members made in `work`.
    func makeArchives() throws {
        let members = work.url("members")
        work.write("members/drafts/letter.txt", "Dear landlord, the heating failed again in the zanzibar flat.\n")
        work.write("members/drafts/notes.md", "# Garden\n\nThe quokka ate the basil.\n")
        work.mkdirs("members/papers")
        try FileManager.default.copyItem(atPath: Self.fixtures.appending(path: "report.docx").path,
                                         toPath: members + "/papers/report.docx")
        work.write("members/photo.bin", String(repeating: "\u{1}\u{2}\u{3}", count: 100))
        // An archive inside the archive is listed, not opened.
        work.write("inner/secret-plan.txt", "the nested marmoset\n")
        shell("sh", "-c", "cd '\(work.url("inner"))' && zip -q ../members/inner.zip secret-plan.txt")
        tree.mkdirs("archives")
        let out = tree.url("archives")
        shell("sh", "-c", "cd '\(members)' && zip -q -r '\(out)/bundle.zip' . && tar czf '\(out)/bundle.tar.gz' . "
            + "&& tar cJf '\(out)/bundle.tar.xz' . && tar --zstd -cf '\(out)/bundle.tar.zst' .")
        shell("sh", "-c", "gzip -c '\(members)/drafts/letter.txt' > '\(out)/letter.txt.gz'")
        shell("sh", "-c", "cd '\(members)' && zip -q -r -P secret '\(out)/locked.zip' drafts")
        // A compressed file libarchive refuses when it opens it (a worker once crashed there).
        shell("sh", "-c", "printf '\\037\\235\\220\\377\\377\\377\\377\\377\\377' > '\(out)/damaged.Z'")
        // 40 MB of zeros deflate to about 40 KB: a thousand times, a bomb.
        shell("sh", "-c", "head -c 40000000 /dev/zero > '\(work.url("zeros.txt"))' && cd '\(work.path)' "
            + "&& zip -q '\(out)/bomb.zip' zeros.txt && tar czf '\(out)/bomb.tar.gz' zeros.txt")
    }

    @Test func scanSearchAndShowWhatIsInsideArchives() throws {
        try makeArchives()
        let scan = try run(["scan", tree.path, "--no-thumbnails"])
        #expect(scan.status == 0)
        #expect(scan.stderr.isEmpty, "\(scan.stderr)")
        #expect(scan.output.contains("9 added"))

        let all = ["archives/bundle.tar.gz", "archives/bundle.tar.xz", "archives/bundle.tar.zst", "archives/bundle.zip"]
        func found(_ words: String) throws -> Set<String> {
            let result = try run(["search", words])
            #expect(result.status == 0)
            return Set(result.paths(under: tree.path))
        }
        #expect(try found("zanzibar heating") == Set(all + ["archives/letter.txt.gz"]))
        #expect(try found("quokka") == Set(all))
        // A document member is read by the document's reader.
        #expect(try found("seventeen albatrosses") == Set(all))
        // Names of members are searchable; a nested archive's contents are not read.
        #expect(try found("inner") == Set(all))
        #expect(try found("marmoset").isEmpty)

        let shown = try run(["show", "archives/bundle.tar.xz", "--matching", "Albatrosses"])
        #expect(shown.status == 0)
        #expect(shown.output.contains("matchingMembers         = (\"papers/report.docx\")"), "\(shown.output)")
        let letter = try run(["show", "archives/bundle.zip", "--matching", "heating"])
        #expect(letter.output.contains("matchingMembers         = (\"drafts/letter.txt\")"), "\(letter.output)")
        #expect(letter.output.contains("members                 = 5"), "\(letter.output)")

        // Refused or unreadable: indexed by name, the reason kept quietly.
        for bomb in ["archives/bomb.zip", "archives/bomb.tar.gz"] {
            let failure = try json(bomb)["failure"] as? String
            #expect(failure?.contains("too large") == true && failure?.contains("bomb") == true, "\(bomb): \(failure ?? "nil")")
        }
        let damaged = try json("archives/damaged.Z")["failure"] as? String
        #expect(damaged?.contains("damaged compressed file (Invalid compressed data)") == true, "\(damaged ?? "nil")")
        let locked = try json("archives/locked.zip")
        #expect((locked["failure"] as? String)?.contains("encrypted archive") == true, "\(locked)")
        #expect(try found("locked") == ["archives/locked.zip"])
    }

    /// Issue 48: a compressed single file is the file inside it (a Debian changelog was once
    /// taken for an `mtree` listing and failed as a damaged archive), read as text, not listed
    /// as a member. `search` may print paths relative to the root or absolute ones.
    @Test func aCompressedFileIsFoundByTheWordsOfTheFileInsideIt() throws {
        work.write("changelog", "Releases\n--------\nv1.2.0\n------\n- Added the marmot whistle\n"
            + "- The level is 4.1 if the user doesn\u{2019}t set it\n")
        work.write("ls.1", ".TH LS 1\n.SH NAME\nls \\- list the burrow contents\n")
        shell("sh", "-c", "gzip -n -9 -c '\(work.url("changelog"))' > '\(tree.url("changelog.gz"))' "
            + "&& gzip -n -9 -c '\(work.url("ls.1"))' > '\(tree.url("ls.1.gz"))'")
        let scan = try run(["scan", tree.path, "--no-thumbnails"])
        #expect(scan.status == 0)
        #expect(scan.stderr.isEmpty, "\(scan.stderr)")

        func found(_ words: String, _ name: String) throws -> Bool {
            let result = try run(["search", words])
            #expect(result.status == 0)
            return result.lines.contains { $0.hasSuffix("/" + name) || $0 == name }
        }
        #expect(try found("marmot whistle", "changelog.gz"))
        #expect(try found("burrow contents", "ls.1.gz"))
        let changelog = try json("changelog.gz")
        #expect(changelog["failure"] == nil || changelog["failure"] is NSNull, "\(changelog)")
        #expect(changelog["contentType"] as? String == "application/gzip", "\(changelog)")
        // One file, not an archive: no members to list.
        let shown = try run(["show", "changelog.gz", "--matching", "marmot"])
        #expect(shown.status == 0)
        #expect(!shown.output.contains("members"), "\(shown.output)")
    }

    /// A gzip'd man page is indexed by the words it prints, not its roff markup: `show --text`
    /// holds no font escape or request, `search` finds a word once glued to its escapes and the
    /// page by its NAME line, and the title is `name(section)`.
    @Test func aManPageIsIndexedByTheWordsItPrints() throws {
        work.write("tool.1", #"""
            .\" A comment the page's reader never sees.
            .TH TOOL 1 "December 2026" "tool 1.0" "User Commands"
            .SH NAME
            tool \- polish the quartz pebbles gently
            .SH DESCRIPTION
            .B tool
            buffs each \fIgarnet\fR until it gleams; see
            .BR grind (1).
            .TP
            \fB\-s\fR, \fB\-\-shine\fR
            shine harder
            """#)
        shell("sh", "-c", "gzip -n -9 -c '\(work.url("tool.1"))' > '\(tree.url("tool.1.gz"))'")
        let scan = try run(["scan", tree.path, "--no-thumbnails"])
        #expect(scan.status == 0)
        #expect(scan.stderr.isEmpty, "\(scan.stderr)")

        let shown = try run(["show", "tool.1.gz", "--text"])
        #expect(shown.status == 0)
        for markup in [#"\f"#, #"\-"#, ".SH", ".TH", ".TP", ".B", "comment"] {
            #expect(!shown.output.contains(markup), "\(markup): \(shown.output)")
        }
        #expect(shown.output.contains("NAME\ntool - polish the quartz pebbles gently\n"), "\(shown.output)")
        #expect(shown.output.contains("tool buffs each garnet until it gleams; see grind(1)."), "\(shown.output)")
        #expect(shown.output.contains("-s, --shine\nshine harder"), "\(shown.output)")

        func found(_ words: String) throws -> Bool {
            let result = try run(["search", words])
            #expect(result.status == 0)
            return result.lines.contains { $0.hasSuffix("/tool.1.gz") || $0 == "tool.1.gz" }
        }
        #expect(try found("garnet"), "a word once written \\fIgarnet\\fR")
        #expect(try found("shine"))
        #expect(try found("polish quartz pebbles gently"), "the NAME line's description")
        #expect(try json("tool.1.gz")["title"] as? String == "tool(1)")
    }

    @Test func iWorkDocumentsAreFoundByTheirTextAndShowTheirPreview() throws {
        let photo = URL(filePath: #filePath).deletingLastPathComponent()
            .appending(path: "../SearchlightFilesTests/Fixtures/photo.jpg").standardized.path
        work.write("deck/index.apxl", """
            <?xml version="1.0"?>
            <key:presentation xmlns:sfa="http://developer.apple.com/namespaces/sfa" \
            xmlns:sf="http://developer.apple.com/namespaces/sf" xmlns:key="http://developer.apple.com/namespaces/keynote2">
              <key:metadata><key:title><sf:string sfa:string="Pollinator survey"/></key:title></key:metadata>
              <key:slide-list><key:slide><sf:text-body><sf:p>Bumblebees outnumbered hoverflies</sf:p></sf:text-body></key:slide></key:slide-list>
            </key:presentation>
            """)
        work.mkdirs("deck/QuickLook")
        try FileManager.default.copyItem(atPath: photo, toPath: work.url("deck/QuickLook/Thumbnail.jpg"))
        shell("sh", "-c", "cd '\(work.url("deck"))' && zip -q -r '\(tree.url("survey.key"))' .")
        let scan = try run(["scan", tree.path])
        #expect(scan.status == 0)
        #expect(try run(["search", "hoverflies"]).output == tree.path + "/survey.key\n")
        let shown = try json("survey.key")
        #expect(shown["title"] as? String == "Pollinator survey")
        #expect(shown["failure"] == nil || shown["failure"] is NSNull, "\(shown)")
        let thumbnail = try run(["show", "survey.key"]).output
        #expect(thumbnail.contains("thumbnail               = webp"), "\(thumbnail)")
    }
}
