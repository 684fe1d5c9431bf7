import Foundation
import SearchlightTestSupport
import Testing

/// Search by meaning through the built binaries and the real model (`.build/models`, put there
/// by `.ci/install-dependencies`): `scan` embeds the texts in the workers, a question in one
/// language finds a document written in another, `--words` and `--meaning` choose a ranking,
/// `status` shows the pass and the model, a rename embeds nothing again, a deleted file's
/// vectors go, and without a model everything still works by words.
@Suite("searchlight search by meaning", .serialized, .ownThread)
struct MeaningCommandTests {
    let tree = TemporaryTree("meaning-cli")
    let work = TemporaryTree("meaning-cli-index")
    var index: String { work.path + "/index.sqlite" }

    /// The model's folder in the package (three folders up from this file: the package root).
    static let modelFolder: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path + "/.build/models/multilingual-e5-small"
    }()

    func run(_ arguments: [String], model: String? = modelFolder) throws -> CommandResult {
        // No model: a data home without one, and none named (the standard places hold none here).
        let environment = model.map { ["SEARCHLIGHT_MODEL_DIR": $0] } ?? ["XDG_DATA_HOME": work.path + "/no-data"]
        return try Searchlight.run(arguments, index: index, environment: environment)
    }

    func search(_ words: [String], model: String? = modelFolder) throws -> [String] {
        let result = try run(["search"] + words, model: model)
        #expect(result.status == 0, "\(result.stderr)")
        return result.paths(under: tree.path)
    }

    func writeDocuments() {
        tree.write("mv.txt", """
            mv - move (rename) files. Rename SOURCE to DEST, or move SOURCE(s) to DIRECTORY. \
            Give a file a new name, or put it in another folder.
            """)
        tree.write("df.txt", """
            df - report file system space usage. Displays the amount of space available on the file \
            system containing each file name argument: how full each disk is.
            """)
        tree.write("mkdir.txt", "mkdir - make directories. Create the DIRECTORY(ies), if they do not already exist.")
        tree.write("kaffee.txt", """
            Kaffee kochen: Die Bohnen frisch mahlen, das Wasser auf 94 Grad erhitzen und langsam über \
            das Pulver gießen. Nach vier Minuten ist der Kaffee fertig.
            """)
        tree.write("tar.txt", "tar - an archiving utility: store many files together in one archive, and extract them.")
    }

    @Test func questionsFindTheirDocumentInAnyLanguage() throws {
        writeDocuments()
        let scan = try run(["scan", tree.path])
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.output.contains("meaning: 5 texts embedded in "), "\(scan.output)")
        #expect(scan.lines.last?.hasPrefix("done in ") == true && scan.lines.last?.contains("meaning") == true, "\(scan.output)")

        // A German question finds the English page, an English one the German text.
        #expect(try search(["wie", "gebe", "ich", "einer", "Datei", "einen", "neuen", "Namen"]).first == "mv.txt")
        #expect(try search(["how", "do", "I", "make", "coffee"]).first == "kaffee.txt")
        #expect(try search(["how", "much", "room", "is", "left", "on", "my", "drives"]).first == "df.txt")
        // A known word still finds its document first; a name search does not ask meaning.
        #expect(try search(["archiving"]) == ["tar.txt"])
        // Two words that find nothing, even respelled, are answered by meaning (the model looked
        // for only then); two that find something are not.
        #expect(try search(["Festplatte", "voll"]).first == "df.txt")
        #expect(try search(["archiving", "utility"]) == ["tar.txt"])
        let explained = try run(["search", "how", "do", "I", "make", "coffee", "--explain"])
        #expect(explained.stderr.contains("meaning: joins"), "\(explained.stderr)")
        #expect(explained.stderr.contains("words: no match · similarity 0."), "\(explained.stderr)")
        #expect(try run(["search", "coffee", "--explain"]).stderr.contains("meaning: not for one or two words"))

        // --words: the words alone (none of the documents holds them all); --meaning: meaning alone.
        let words = try run(["search", "how", "do", "I", "make", "coffee", "--words"])
        #expect(words.status == 0 && words.lines.isEmpty, "\(words.output)")
        #expect(words.stderr.contains("no item matches"))
        #expect(try search(["--meaning", "Verzeichnis", "anlegen"]).first == "mkdir.txt")
        let json = try run(["search", "how", "do", "I", "make", "coffee", "--json", "--limit", "1"])
        #expect(json.output.contains(#""matchedIn":"meaning""#), "\(json.output)")

        // status: the model and the pass.
        let status = try run(["status"])
        #expect(status.output.contains("meaning: model multilingual-e5-small"), "\(status.output)")
        #expect(status.output.contains("embedded:    5 of 5 texts, 5 chunks, 388 bytes a chunk"), "\(status.output)")
        #expect(try run(["status", "--json"]).output.contains(#""embedded":5"#))

        // A rename and a touch embed nothing again; a deleted file's vectors go with it.
        tree.rename("mv.txt", "umbenennen.txt")
        shell("touch", tree.url("df.txt"))
        // (A scan sees the rename as a removal and an addition: the new item finds the vectors by its text.)
        let again = try run(["scan", tree.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.output.contains("meaning: 0 texts embedded in ") && again.output.contains("(0 chunks), 1 known from a copy"),
                "\(again.output)")
        #expect(try search(["wie", "gebe", "ich", "einer", "Datei", "einen", "neuen", "Namen"]).first == "umbenennen.txt")
        tree.remove("tar.txt")
        #expect(try run(["scan", tree.path]).status == 0)
        #expect(try run(["status"]).output.contains("embedded:    4 of 4 texts, 4 chunks"))
        // A changed text is embedded again.
        tree.write("mkdir.txt", "mkdir - make directories, and their parents with -p.")
        #expect(try run(["scan", tree.path]).output.contains("meaning: 1 text embedded in "))
    }

    @Test func withoutAModelEverythingWorksByWords() throws {
        writeDocuments()
        let scan = try run(["scan", tree.path], model: nil)
        #expect(scan.status == 0 && !scan.output.contains("meaning:"), "\(scan.output)")
        let status = try run(["status"], model: nil)
        #expect(status.output.contains("meaning: no model installed: search is by words; install one with `make model`"),
                "\(status.output)")
        #expect(try search(["archiving"], model: nil) == ["tar.txt"])
        #expect(try search(["move", "rename", "files"], model: nil) == ["mv.txt"])
        let meaning = try run(["search", "--meaning", "coffee"], model: nil)
        #expect(meaning.status == 1 && meaning.stderr.contains("search by meaning needs a model"), "\(meaning.stderr)")
        // The model installed later: the next scan embeds what is there.
        let later = try run(["scan", tree.path])
        #expect(later.output.contains("meaning: 5 texts embedded in "), "\(later.output)")
    }
}
