import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// The rows a person sees in a real GNOME Shell (headless, ``HeadlessShell``) when they press
/// Super and type: a PDF found by its name shows the PDF icon, a photo its thumbnail, and a
/// document found by a word inside it the text around that word, which the shell highlights —
/// in English and in Greek; typed without the accent or misspelt, the row shows the word as the
/// document writes it (the shell highlights only what was typed as typed). A screenshot of each
/// search is kept in `.build/artifacts/gnome-shell/`.
@Suite("GNOME Shell, headless, asking searchlight-desktop", .serialized, .ownThread)
struct GnomeShellTests {
    static let documents = PrivateBus.repository.path + "/Examples/Documents"
    static let artifacts = PrivateBus.repository.path + "/.build/artifacts/gnome-shell"

    let work = TemporaryTree("gnome-shell-index")
    var index: String { work.path + "/index.sqlite" }

    @Test func rowsReadAtAGlance() throws {
        let notes = TemporaryTree("gnome-shell-notes")
        notes.write("σημείωμα.txt", """
            Σημείωμα για τη συνάντηση της Τρίτης.
            Ο προϋπολογισμός του έργου εγκρίθηκε με μικρές αλλαγές. Στείλτε μου τον νέο προϋπολογισμό ως την Παρασκευή.

            """)
        for folder in [Self.documents, notes.path] {
            let scan = try Searchlight.run(["scan", folder], index: index)
            #expect(scan.status == 0, "\(scan.stderr)")
        }
        let bus = try PrivateBus(index: index)
        let shell = try HeadlessShell(bus: bus)
        try FileManager.default.createDirectory(atPath: Self.artifacts, withIntermediateDirectories: true)

        func row(_ query: String, _ name: String) throws -> HeadlessShell.Row {
            let rows = try shell.search(query)
            let shot = Self.artifacts + "/" + query.replacingOccurrences(of: " ", with: "-") + ".png"
            try shell.screenshot(to: shot)
            #expect(FileManager.default.contents(atPath: shot)?.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
            return try #require(rows.first { $0.name == name }, "\(name) for \(query): \(rows), the shell said \(shell.lastAnswer)")
        }

        // Found by its name: the PDF's icon, its folder and kind.
        let report = try row("quarterly report", "Quarterly Report 2024.pdf")
        #expect(report.icon.hasPrefix(". GThemedIcon application-pdf "), "\(report)")
        #expect(report.description.hasPrefix(Self.documents + " — PDF document"), "\(report)")

        // A photo: its thumbnail, from the freedesktop cache.
        let photo = try row("sunset", "beach_sunset.jpg")
        #expect(photo.icon.hasPrefix(bus.cache + "/thumbnails/large/") && photo.icon.hasSuffix(".png"), "\(photo)")

        // A word inside a note: the text around it, highlighted by the shell.
        let note = try row("lighthouse", "saturday-notes.txt")
        #expect(note.markup.contains("to the old <b>lighthouse</b>, whose"), "\(note)")
        #expect(!note.description.contains("["), "\(note)")
        #expect(note.icon.hasPrefix(". GThemedIcon text-plain"), "\(note)")

        // Greek, as the note writes it, without its accent, and misspelt.
        let greek = try row("εγκρίθηκε", "σημείωμα.txt")
        #expect(greek.markup.contains("του έργου <b>εγκρίθηκε</b> με μικρές"), "\(greek)")
        for typed in ["εγκριθηκε", "εγκριθικε"] {
            let found = try row(typed, "σημείωμα.txt")
            #expect(found.description.contains("του έργου εγκρίθηκε με μικρές"), "\(typed): \(found)")
        }
    }
}
