import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// A new user's first hour (issue 48), with the built binary run from other current folders:
/// paths that work in a pipe, items named by their path, folders remembered, mistakes named in
/// plain words.
@Suite("a new user's first hour", .serialized, .ownThread)
struct FirstHourTests {
    let photos = TemporaryTree("first-photos")
    let notes = TemporaryTree("first-notes")
    let elsewhere = TemporaryTree("first-elsewhere")
    let work = TemporaryTree("first-index")
    var index: String { work.path + "/index.sqlite" }

    func run(_ arguments: [String], in folder: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        try Searchlight.run(arguments, index: index, environment: environment, currentFolder: folder ?? elsewhere.path)
    }

    /// Two roots, each with a `Nikon D70.txt`.
    func scanTwoRoots() throws {
        photos.write("Trips/Nikon D70.txt", "shutter count\n")
        photos.write("Trips/Lisbon/tram.txt", "yellow tram\n")
        notes.write("Nikon D70.txt", "manual notes\n")
        for root in [photos.path, notes.path] { #expect(try run(["scan", root, "--no-thumbnails"]).status == 0) }
    }

    @Test func searchPrintsAbsolutePathsThatWorkInAPipeFromAnyFolder() throws {
        try scanTwoRoots()
        let found = try run(["search", "nikon", "d70"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(Set(found.lines) == [photos.path + "/Trips/Nikon D70.txt", notes.path + "/Nikon D70.txt"], "\(found.output)")

        // The README's pipe, from a folder that is no root: every path reaches its file.
        let piped = try ChildProcess.run(["/bin/sh", "-c", "\"$0\" search nikon d70 -0 --index \"$1\" | xargs -0 ls -l",
                                          Searchlight.binary, index], currentFolder: elsewhere.path)
        #expect(piped.status == 0, "\(String(decoding: piped.stderr, as: UTF8.self))")
        #expect(String(decoding: piped.stdout, as: UTF8.self).components(separatedBy: "Nikon D70.txt").count == 3)

        // `list` and `query` print the same paths; JSON keeps the identifier beside the path.
        #expect(try run(["list"]).lines.allSatisfy { $0.hasPrefix(photos.path + "/") || $0.hasPrefix(notes.path + "/") })
        #expect(try run(["query", #"kMDItemFSName == "tram.txt""#]).lines == [photos.path + "/Trips/Lisbon/tram.txt"])
        let json = try run(["search", "tram", "--json"]).output
        #expect(json.contains(#""id":"Trips\/Lisbon\/tram.txt""#) || json.contains(#""id":"Trips/Lisbon/tram.txt""#), "\(json)")
        #expect(json.contains(#""path":"\#(photos.path)/Trips/Lisbon/tram.txt""#)
                || json.contains(#""path":"\#(photos.path.replacingOccurrences(of: "/", with: "\\/"))\/Trips\/Lisbon\/tram.txt""#),
                "\(json)")
    }

    @Test func relativePathsFromTheCurrentFolderInsideARoot() throws {
        try scanTwoRoots()
        // Below the current folder, above it in the same root, and in another root (absolute).
        let fromTrips = try run(["search", "tram", "--relative"], in: photos.path + "/Trips")
        #expect(fromTrips.lines == ["Lisbon/tram.txt"], "\(fromTrips.output)")
        let fromLisbon = try run(["search", "nikon", "--relative"], in: photos.path + "/Trips/Lisbon")
        #expect(Set(fromLisbon.lines) == ["../Nikon D70.txt", notes.path + "/Nikon D70.txt"], "\(fromLisbon.output)")
        // The full parser reads it as the fast path does (an option it alone knows).
        let parsed = try run(["search", "tram", "--relative", "--names", "--limit=5"], in: photos.path)
        #expect(parsed.lines == ["Trips/Lisbon/tram.txt"], "\(parsed.output)")
    }

    @Test func commandsThatTakeAnItemTakeItsPath() throws {
        try scanTwoRoots()
        let trips = photos.path + "/Trips"
        for (argument, folder) in [(trips + "/Nikon D70.txt", elsewhere.path), ("Nikon D70.txt", trips),
                                   ("./Nikon D70.txt", trips), ("../Nikon D70.txt", trips + "/Lisbon"),
                                   ("Trips/Nikon D70.txt", elsewhere.path)] {
            let shown = try run(["show", argument, "--json"], in: folder)
            #expect(shown.status == 0, "\(argument) from \(folder): \(shown.stderr)")
            #expect(try run(["show", argument, "--text"], in: folder).output == "shutter count\n", "\(argument)")
        }
        // A path comes before an identifier: from elsewhere, the identifier of the notes' file.
        #expect(try run(["show", "Nikon D70.txt", "--text"]).output == "manual notes\n")
        #expect(try run(["show", "Nikon D70.txt", "--text"], in: trips).output == "shutter count\n")
        // An identifier alone that two roots hold still asks which one (`open` takes one item;
        // `show` shows every domain's); its path does not.
        photos.write("Nikon D70.txt", "spare body\n")
        #expect(try run(["scan", photos.path, "--no-thumbnails"]).status == 0)
        let noDesktop = ["DISPLAY": "", "WAYLAND_DISPLAY": ""]
        let ambiguous = try run(["open", "Nikon D70.txt"], environment: noDesktop)
        #expect(ambiguous.status == 64 && ambiguous.stderr.contains("--domain"), "\(ambiguous.stderr)")
        let opened = try run(["open", "Nikon D70.txt"], in: notes.path, environment: noDesktop)
        #expect(opened.status == 0 && opened.output.contains(notes.path + "/Nikon D70.txt"), "\(opened.output) \(opened.stderr)")
        #expect(Set(try run(["show", "Nikon D70.txt", "--text"]).lines) == ["manual notes", "spare body"])
        #expect(try run(["show", "Nikon D70.txt", "--text"], in: notes.path).output == "manual notes\n")

        // What is not an item says why, in the user's words.
        let outside = try run(["show", elsewhere.path + "/x.txt"])
        #expect(outside.status == 1 && outside.stderr.contains("no such file"), "\(outside.stderr)")
        elsewhere.write("loose.txt")
        let loose = try run(["show", "loose.txt"])
        #expect(loose.status == 1 && loose.stderr.contains("in no indexed folder"), "\(loose.stderr)")
        photos.write("Trips/new.txt")
        let unscanned = try run(["show", "new.txt"], in: trips)
        #expect(unscanned.status == 1 && unscanned.stderr.contains("not in the index"), "\(unscanned.stderr)")
        let root = try run(["show", "."], in: notes.path)
        #expect(root.status == 1 && root.stderr.contains("is an indexed folder itself"), "\(root.stderr)")
    }

    @Test func aFileOutsideTheRootsIsNeverTakenForAnItemOfItsName() throws {
        try scanTwoRoots()
        // `Nikon D70.txt` is an identifier of the notes; a file of that name here is another file.
        elsewhere.write("Nikon D70.txt", "a file of its own\n")
        let shown = try run(["show", "Nikon D70.txt"])
        #expect(shown.status == 1 && shown.stderr.contains("in no indexed folder"), "\(shown.stderr)")
        // A name that is not UTF-8 is found by its bytes, from a path as from `-0`.
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
        notes.write(name, "latin one\n")
        #expect(try run(["scan", notes.path, "--no-thumbnails"]).status == 0)
        let printed = try run(["search", "latin", "-0"]).stdout
        #expect(printed == Array(notes.path.utf8) + [0x2F] + name + [0], "\(printed)")
        let viaShell = try ChildProcess.run(["/bin/sh", "-c", "\"$0\" show \"$(printf 'caf\\351.txt')\" --text --index \"$1\"",
                                             Searchlight.binary, index], currentFolder: notes.path)
        #expect(String(decoding: viaShell.stdout, as: UTF8.self) == "latin one\n",
                "\(String(decoding: viaShell.stderr, as: UTF8.self))")
    }

    @Test func removeForgetsAFolderOrWhatIsGoneFromDisk() throws {
        try scanTwoRoots()
        // A file still on disk would come back at the next scan: refused, with what to do.
        let present = try run(["remove", "tram.txt"], in: photos.path + "/Trips/Lisbon")
        #expect(present.status == 1 && present.stderr.contains("exclude"), "\(present.stderr)")
        photos.remove("Trips/Lisbon")
        let gone = try run(["remove", "Trips/Lisbon"], in: photos.path)
        #expect(gone.status == 0, "\(gone.stderr)")
        #expect(try run(["search", "tram"]).lines.isEmpty)
        // A root: forgotten with its items, and no longer refreshed by a plain scan.
        let forgotten = try run(["remove", notes.path])
        #expect(forgotten.status == 0 && forgotten.output.contains("removed 1 items"), "\(forgotten.output)")
        #expect(try run(["search", "manual"]).lines.isEmpty)
        let again = try run(["scan"])
        #expect(again.status == 0 && !again.output.contains(notes.path), "\(again.output)")
    }

    @Test func scanWithoutAFolderRefreshesTheFoldersAlreadyInTheIndex() throws {
        // No configuration: the folders scanned by hand, said so in one line.
        photos.write("a.txt", "alpha\n")
        #expect(try run(["scan", photos.path]).status == 0)
        photos.write("b.txt", "beta\n")
        let plain = try run(["scan"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stderr.contains("no folder given") && plain.stderr.contains(photos.path), "\(plain.stderr)")
        #expect(try run(["search", "beta"]).lines == [photos.path + "/b.txt"])

        // With configured roots: those, and the folder scanned by hand too; `status` says which is which.
        notes.write("c.txt", "gamma\n")
        let config = work.path + "/config.toml"
        try "[[roots]]\npath = \"\(notes.path)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        photos.write("d.txt", "delta\n")
        let both = try run(["scan"], environment: ["SEARCHLIGHT_CONFIG": config])
        #expect(both.status == 0, "\(both.stderr)")
        #expect(both.stderr.contains("also") && both.stderr.contains(photos.path), "\(both.stderr)")
        #expect(try run(["search", "gamma"]).lines == [notes.path + "/c.txt"])
        #expect(try run(["search", "delta"]).lines == [photos.path + "/d.txt"])
        let status = try run(["status"], environment: ["SEARCHLIGHT_CONFIG": config]).output
        #expect(status.contains("origin:      scanned by hand"), "\(status)")
        #expect(status.components(separatedBy: "scanned by hand").count == 2, "only the hand-scanned folder: \(status)")

        // A remembered folder that is gone (a drive unplugged) is skipped; its items stay.
        try FileManager.default.moveItem(atPath: photos.path, toPath: photos.path + "-away")
        defer { try? FileManager.default.moveItem(atPath: photos.path + "-away", toPath: photos.path) }
        let skipped = try run(["scan"], environment: ["SEARCHLIGHT_CONFIG": config])
        #expect(skipped.status == 0 && skipped.stderr.contains("skipping \(photos.path)"), "\(skipped.stderr)")
        #expect(try run(["search", "alpha"]).lines == [photos.path + "/a.txt"])
        // With nothing configured and every remembered folder away, there is nothing to do: an error.
        let alone = try run(["scan"])
        #expect(alone.status == 0, "the notes, remembered, are there: \(alone.stderr)")
        #expect(try run(["remove", notes.path]).status == 0)
        let nothing = try run(["scan"])
        #expect(nothing.status == 1 && nothing.stderr.contains("not there now"), "\(nothing.stderr)")
    }

    @Test func scanMistakesAreNamedInPlainWords() throws {
        photos.mkdirs("Documents")
        photos.write("Documents/Résumé.docx", "not really\n")
        let typo = try run(["scan", photos.path + "/Documnets"])
        #expect(typo.status == 1)
        #expect(typo.stderr == "searchlight: no folder \(photos.path)/Documnets — did you mean \(photos.path)/Documents?\n",
                "\(typo.stderr)")
        let home = try run(["scan", photos.path + "/Documnets"], environment: ["HOME": photos.path])
        #expect(home.stderr == "searchlight: no folder ~/Documnets — did you mean ~/Documents?\n", "\(home.stderr)")
        let file = try run(["scan", "Documents/Résumé.docx"], in: photos.path)
        #expect(file.status == 1)
        #expect(file.stderr.contains("is a file: scan takes folders — did you mean Documents?"), "\(file.stderr)")
        #expect(!file.stderr.contains("realpath") && !file.stderr.contains("open \""), "\(file.stderr)")
        let folderAsIndex = try Searchlight.run(["search", "x", "--index", work.path])
        #expect(folderAsIndex.status == 64 && folderAsIndex.stderr.contains("is a folder"), "\(folderAsIndex.stderr)")
    }
}
