import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// A session bus of the test's own (`dbus-daemon --session`), which starts `searchlight-desktop`
/// from the `.service` file `make install` installs (Examples/desktop), with the test's index,
/// thumbnail cache and a stand-in `xdg-open` that records what it is given.
final class PrivateBus {
    let folder: TemporaryTree
    let daemon: ChildProcess
    let address: String
    /// What the stand-in xdg-open was given, a line each time.
    let opened: String
    /// `$XDG_CACHE_HOME`.
    let cache: String

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let name = "org.searchlight.Desktop"

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// - Parameter environment: added to what the bus and the services it starts inherit
    ///   (`SEARCHLIGHT_MODEL_DIR` for search by meaning).
    init(index: String, idleSeconds: Int = 60, pagePort: Int = 8765, environment extra: [String: String] = [:]) throws {
        let folder = TemporaryTree("desktop-bus")
        self.folder = folder
        opened = folder.path + "/opened"
        cache = folder.path + "/cache"
        // The folder of the link the service file starts (`searchlight-desktop` → `searchlight-serve`).
        let bin = URL(fileURLWithPath: Searchlight.desktopBinary).deletingLastPathComponent().path
        folder.mkdirs("services")
        let template = try String(contentsOfFile: Self.repository.path + "/Examples/desktop/org.searchlight.Desktop.service",
                                  encoding: .utf8)
        folder.write("services/org.searchlight.Desktop.service", template.replacingOccurrences(of: "@BINDIR@", with: bin))
        folder.write("session.conf", Self.configuration(type: "session", listen: "unix:dir=\(folder.path)",
                                                        serviceFolder: folder.path + "/services"))
        folder.mkdirs("bin")
        folder.write("bin/xdg-open", "#!/bin/sh\nprintf '%s\\n' \"$1\" >> \(opened)\n")
        #expect(chmod(folder.path + "/bin/xdg-open", 0o755) == 0)
        // Services started by the bus inherit its environment.
        var environment: [String: String?] = [
            "SEARCHLIGHT_INDEX": index, "SEARCHLIGHT_CONFIG": nil, "XDG_CONFIG_HOME": "/nonexistent/searchlight-config",
            "XDG_CACHE_HOME": cache, "XDG_STATE_HOME": Searchlight.stateHome, "SEARCHLIGHT_DESKTOP_IDLE_TIMEOUT": String(idleSeconds),
            "SEARCHLIGHT_DESKTOP_PORT": String(pagePort),
            "PATH": folder.path + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "DBUS_SESSION_BUS_ADDRESS": nil,
        ]
        for (key, value) in extra { environment[key] = value }
        daemon = try ChildProcess(
            ["dbus-daemon", "--config-file", folder.path + "/session.conf", "--print-address=1", "--nofork"],
            environment: environment,
            stdout: .file(folder.path + "/address"), stderr: .file(folder.path + "/daemon.log"))
        let addressFile = folder.path + "/address"
        guard waitUntil(timeout: 30, { (try? String(contentsOfFile: addressFile, encoding: .utf8))?.hasSuffix("\n") == true })
        else {
            daemon.terminate()
            throw Failure(description: "dbus-daemon did not start")
        }
        address = try String(contentsOfFile: addressFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A `dbus-daemon` configuration that lets every peer own, send and receive anything.
    static func configuration(type: String, listen: String, serviceFolder: String? = nil) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>\(type)</type>
          <listen>\(listen)</listen>
        \(serviceFolder.map { "  <servicedir>\($0)</servicedir>\n" } ?? "")  <policy context="default">
            <allow send_destination="*"/>
            <allow receive_sender="*"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    deinit {
        // The test's threads block SIGTERM, and the daemon inherits that mask. The service
        // started by the bus exits when the bus is gone (its name is lost).
        daemon.send(SIGKILL)
        daemon.waitUntilExit()
    }

    /// `gdbus call` on the bus: its exit status, standard output and error.
    func call(_ path: String, _ method: String, _ arguments: String..., destination: String = PrivateBus.name) throws
        -> (status: Int32, output: String, error: String) {
        let result = try ChildProcess.run(
            ["gdbus", "call", "--address", address, "--dest", destination, "--object-path", path, "--method", method,
             "--timeout", "60"] + arguments)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    /// `busctl call`, which sends whatever signature it is given (gdbus checks it first).
    func busctl(_ arguments: String...) throws -> (status: Int32, output: String, error: String) {
        let result = try ChildProcess.run(["busctl", "--address=" + address, "call", PrivateBus.name] + arguments)
        return (result.status, String(decoding: result.stdout, as: UTF8.self), String(decoding: result.stderr, as: UTF8.self))
    }

    /// Whether the service owns its name on the bus.
    func serviceIsRunning() throws -> Bool {
        try call("/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", PrivateBus.name,
                 destination: "org.freedesktop.DBus").output.contains("true")
    }

    /// The lines the stand-in xdg-open recorded.
    var openedLines: [String] {
        ((try? String(contentsOfFile: opened, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

@Suite("searchlight-desktop on a private session bus", .serialized, .ownThread)
struct DesktopServiceTests {
    static let provider = "/org/searchlight/SearchProvider"
    static let runner = "/org/searchlight/KRunner"
    static let documents = PrivateBus.repository.path + "/Examples/Documents"
    static let report = documents + "/Quarterly Report 2024.pdf"

    let work = TemporaryTree("desktop-index")
    var index: String { work.path + "/index.sqlite" }

    /// An index of Examples/Documents, with thumbnails.
    func scanDocuments() throws {
        let scan = try Searchlight.run(["scan", Self.documents], index: index)
        #expect(scan.status == 0, "\(scan.stderr)")
    }

    /// The array of a reply `(['a', 'b'],)`, as gdbus reads it back in an argument.
    static func array(_ reply: String) -> String {
        let trimmed = reply.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("("), trimmed.hasSuffix(",)") else { return trimmed }
        return String(trimmed.dropFirst().dropLast(2))
    }

    @Test func gnomeShellFindsTheReportDescribesItAndOpensIt() throws {
        try scanDocuments()
        let bus = try PrivateBus(index: index)
        #expect(try !bus.serviceIsRunning())
        // The first call starts the service (D-Bus activation from the .service file).
        let initial = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['report']")
        #expect(initial.status == 0, "\(initial.error)")
        #expect(initial.output.contains("Quarterly Report 2024.pdf"), "\(initial.output)")
        #expect(try bus.serviceIsRunning())

        let metas = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", Self.array(initial.output))
        #expect(metas.status == 0, "\(metas.error)")
        #expect(metas.output.contains("'name': <'Quarterly Report 2024.pdf'>"), "\(metas.output)")
        // A word inside a note: the description is the text around it, without the marks of
        // the words found (GNOME Shell highlights them itself).
        let inside = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['lighthouse']")
        let insideMetas = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", Self.array(inside.output))
        #expect(insideMetas.output.contains("'description': <") && insideMetas.output.contains("to the old lighthouse, whose"),
                "\(insideMetas.output)")
        #expect(!insideMetas.output.contains("[lighthouse]") && !insideMetas.output.contains("Documents — "),
                "\(insideMetas.output)")
        #expect(metas.output.contains("'description': <'\(Self.documents) — PDF document"), "\(metas.output)")
        // The report's first page is a page of text, a white square at a row's size: the row
        // shows the PDF icon of the theme (GIO's names for the type, most specific first). Its
        // thumbnail is still written to the freedesktop cache (file managers share it), saying
        // that it does not read as an icon.
        let uri = "file://" + Self.report.replacingOccurrences(of: " ", with: "%20")
        let entry = bus.cache + "/thumbnails/large/" + Self.md5(uri) + ".png"
        #expect(metas.output.contains("'gicon': <'. GThemedIcon application-pdf x-office-document"), "\(metas.output)")
        #expect(!metas.output.contains(entry), "\(metas.output)")
        let png = try #require(FileManager.default.contents(atPath: entry))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(png.range(of: Data("Thumb::URI\0\(uri)".utf8)) != nil)
        #expect(png.range(of: Data("X-Searchlight::LegibleAsIcon\u{0}0".utf8)) != nil)
        var status = stat()
        #expect(stat(Self.report, &status) == 0)
        #expect(png.range(of: Data("Thumb::MTime\0\(status.st_mtim.tv_sec)".utf8)) != nil)
        var entryStatus = stat()
        #expect(stat(entry, &entryStatus) == 0 && entryStatus.st_mode & 0o777 == 0o600)
        let written = entryStatus.st_ino
        var folderStatus = stat()
        #expect(stat(bus.cache + "/thumbnails/large", &folderStatus) == 0 && folderStatus.st_mode & 0o777 == 0o700)
        // Asked again, the valid entry is reused, not written again (a new entry is renamed into place).
        _ = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", Self.array(initial.output))
        #expect(stat(entry, &entryStatus) == 0 && entryStatus.st_ino == written)

        // A word more narrows the results.
        let broad = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['re']")
        let narrow = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetSubsearchResultSet",
                                  Self.array(broad.output), "['re', 'quarterly']")
        #expect(narrow.status == 0, "\(narrow.error)")
        #expect(Self.count(broad.output) > Self.count(narrow.output), "\(broad.output) → \(narrow.output)")
        #expect(narrow.output.contains("Quarterly Report 2024.pdf"))

        let id = Self.array(initial.output).dropFirst().dropLast()
        let activated = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.ActivateResult", String(id), "['report']", "0")
        #expect(activated.status == 0, "\(activated.error)")
        #expect(bus.openedLines == [Self.report])
    }

    @Test func kRunnerMatchesTheReportAndRunsIt() throws {
        try scanDocuments()
        let bus = try PrivateBus(index: index)
        let matches = try bus.call(Self.runner, "org.kde.krunner1.Match", "quarterly report")
        #expect(matches.status == 0, "\(matches.error)")
        #expect(matches.output.contains("'Quarterly Report 2024.pdf', 'application-pdf'"), "\(matches.output)")
        #expect(matches.output.contains("'urls': <['file://\(Self.documents)/Quarterly%20Report%202024.pdf']>"), "\(matches.output)")
        #expect(matches.output.contains("'category': <'Searchlight'>"))
        let actions = try bus.call(Self.runner, "org.kde.krunner1.Actions")
        #expect(actions.output.contains("('open-folder', 'Open Containing Folder', 'document-open-folder')"), "\(actions.output)")
        // The match's id is its first string.
        let start = try #require(matches.output.range(of: "[('"))
        let rest = matches.output[start.upperBound...]
        let id = String(rest[..<(try #require(rest.range(of: "', "))).lowerBound])
        #expect(try bus.call(Self.runner, "org.kde.krunner1.Run", "'\(id)'", "''").status == 0)
        #expect(try bus.call(Self.runner, "org.kde.krunner1.Run", "'\(id)'", "'open-folder'").status == 0)
        #expect(bus.openedLines == [Self.report, Self.documents])
        // A word inside a note: the match's subtext is the text around it, as GNOME Shell's row.
        let inside = try bus.call(Self.runner, "org.kde.krunner1.Match", "lighthouse")
        #expect(inside.output.contains("'saturday-notes.txt', 'text-x-generic'"), "\(inside.output)")
        #expect(inside.output.contains("'subtext': <\"…du Raz to the old lighthouse, whose"), "\(inside.output)")
        let nothing = try bus.call(Self.runner, "org.kde.krunner1.Match", "zzzzqqqq")
        #expect(nothing.output.contains("[]"), "\(nothing.output)")
    }

    /// A word of a note's text that ranks among its keywords (drawn from the text) is described
    /// by the text around it, as the note writes it — in Greek, typed without its accent, and
    /// with a typo — so that GNOME Shell highlights it; a match in the name keeps folder and kind.
    @Test func aWordFoundThroughTheTextsKeywordsIsDescribedByTheTextAroundIt() throws {
        let tree = TemporaryTree("desktop-greek")
        tree.write("σημείωμα.txt", """
            Σημείωμα για τη συνάντηση της Τρίτης.
            Ο προϋπολογισμός του έργου εγκρίθηκε με μικρές αλλαγές. Στείλτε μου τον νέο προϋπολογισμό ως την Παρασκευή.

            """)
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        let json = try Searchlight.run(["search", "εγκρίθηκε", "--json"], index: index)
        #expect(json.output.contains(#""matchedIn":"keywords""#), "\(json.output)")
        let bus = try PrivateBus(index: index)
        for typed in ["εγκρίθηκε", "εγκριθηκε", "εγκριθικε"] {
            let found = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['\(typed)']")
            let metas = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", Self.array(found.output))
            #expect(metas.output.contains("του έργου εγκρίθηκε με μικρές"), "\(typed): \(metas.output)")
            #expect(!metas.output.contains("[εγκρίθηκε]"), "\(typed): \(metas.output)")
        }
        let named = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['σημείωμα']")
        let namedMetas = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", Self.array(named.output))
        #expect(namedMetas.output.contains("'description': <'\(tree.path) — "), "\(namedMetas.output)")
    }

    /// The icons of the rows by what their thumbnails show at a row's size: a photo's picture,
    /// a slide deck's first slide, a diagram; a page of text or a scanned letter gets its type's
    /// icon. An entry another program wrote (without our chunk) is drawn again once and judged.
    @Test func rowsShowAThumbnailOnlyWhereItReadsAsAnIcon() throws {
        try scanDocuments()
        let bus = try PrivateBus(index: index)
        func gicon(_ terms: String, _ name: String) throws -> String {
            let found = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", terms)
            let metas = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", Self.array(found.output))
            let row = try #require(metas.output.components(separatedBy: "{'id'").first { $0.contains("'name': <'\(name)'>") },
                                   "\(name) in \(metas.output)")
            let start = try #require(row.range(of: "'gicon': <'"))
            return String(row[start.upperBound...].prefix { $0 != "'" })
        }
        let entry = { (path: String) in
            bus.cache + "/thumbnails/large/" + Self.md5("file://" + path.replacingOccurrences(of: " ", with: "%20")) + ".png"
        }
        let sunset = Self.documents + "/holiday/beach_sunset.jpg"
        #expect(try gicon("['sunset']", "beach_sunset.jpg") == entry(sunset))
        #expect(try gicon("['architecture', 'diagram']", "architecture_diagram-v3.png") == entry(Self.documents + "/Projects/architecture_diagram-v3.png"))
        #expect(try gicon("['invoice']", "Invoice #1042 (paid).pdf").hasPrefix(". GThemedIcon application-pdf "))
        #expect(try gicon("['letter', 'bakery']", "Letter from the bakery (scan).pdf").hasPrefix(". GThemedIcon application-pdf "))
        #expect(try gicon("['saturday', 'notes']", "saturday-notes.txt").hasPrefix(". GThemedIcon text-plain text-x-generic"))

        // A file manager's entry for the photo (valid, but without our chunk), in the cache of a
        // service that never drew it: drawn again and judged.
        let again = try PrivateBus(index: index)
        let photoEntry = again.cache + "/thumbnails/large/" + Self.md5("file://" + sunset) + ".png"
        var status = stat()
        #expect(stat(sunset, &status) == 0)
        let foreign = "/tmp/\(getpid())-foreign.png"
        #expect(try ChildProcess.run(["vipsthumbnail", sunset, "-s", "256", "-o", foreign]).status == 0)
        let drawn = try #require(FileManager.default.contents(atPath: foreign))
        try? FileManager.default.removeItem(atPath: foreign)
        let withStandardChunks = try #require(Self.pngWithText(Array(drawn), ["Thumb::URI": "file://" + sunset,
                                                                              "Thumb::MTime": String(status.st_mtim.tv_sec)]))
        try FileManager.default.createDirectory(atPath: again.cache + "/thumbnails/large", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: photoEntry, contents: Data(withStandardChunks)))
        let found = try again.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['sunset']")
        let metas = try again.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetResultMetas", Self.array(found.output))
        #expect(metas.output.contains("'gicon': <'\(photoEntry)'>"), "\(metas.output)")
        let rewritten = try #require(FileManager.default.contents(atPath: photoEntry))
        #expect(rewritten.range(of: Data("X-Searchlight::LegibleAsIcon\u{0}1".utf8)) != nil)
    }

    /// `png` with `tEXt` chunks added after its header, as another program writes a cache entry.
    static func pngWithText(_ png: [UInt8], _ text: [String: String]) -> [UInt8]? {
        guard png.count > 33 else { return nil }
        var output = Array(png[..<33])
        for (key, value) in text {
            let body = Array("tEXt".utf8) + Array(key.utf8) + [0] + Array(value.utf8)
            let length = UInt32(body.count - 4)
            output += [UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            output += body
            let crc = crc32(body)
            output += [UInt8(crc >> 24), UInt8(truncatingIfNeeded: crc >> 16), UInt8(truncatingIfNeeded: crc >> 8), UInt8(truncatingIfNeeded: crc)]
        }
        return output + png[33...]
    }

    /// PNG's CRC-32 (ISO 3309) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// `searchlight-desktop --help` prints its usage and ends with status 0 (the package's
    /// check asks it); an unknown option is a usage error.
    @Test func helpPrintsTheUsageAndAnUnknownOptionIsAUsageError() throws {
        let help = try ChildProcess.run([Searchlight.desktopBinary, "--help"])
        #expect(help.status == 0, "\(String(decoding: help.stderr, as: UTF8.self))")
        #expect(String(decoding: help.stdout, as: UTF8.self).contains("USAGE: searchlight-desktop"))
        let wrong = try ChildProcess.run([Searchlight.desktopBinary, "--no-such-option"])
        #expect(wrong.status == 64, "\(String(decoding: wrong.stderr, as: UTF8.self))")
    }

    @Test func malformedCallsGetDBusErrorsAndTheServiceKeepsAnswering() throws {
        try scanDocuments()
        let bus = try PrivateBus(index: index)
        let wrongType = try bus.busctl(Self.provider, "org.gnome.Shell.SearchProvider2", "GetInitialResultSet", "s", "report")
        #expect(wrongType.status != 0)
        #expect(wrongType.error.contains("does not match expected type"), "\(wrongType.error)")
        let unknownID = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.ActivateResult", "nonsense", "['x']", "0")
        #expect(unknownID.status != 0)
        #expect(unknownID.error.contains("org.freedesktop.DBus.Error.InvalidArgs"), "\(unknownID.error)")
        let unknownAction = try bus.call(Self.runner, "org.kde.krunner1.Run", "'a\u{1F}b'", "'fly'")
        #expect(unknownAction.error.contains("no action"), "\(unknownAction.error)")
        let unknownMethod = try bus.busctl(Self.runner, "org.kde.krunner1", "Teleport")
        #expect(unknownMethod.status != 0)
        let after = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['report']")
        #expect(after.output.contains("Quarterly Report 2024.pdf"), "\(after.error)")
        #expect(bus.openedLines.isEmpty)
    }

    @Test func withoutAnIndexACallFailsWithAnError() throws {
        let bus = try PrivateBus(index: work.path + "/missing.sqlite")
        let result = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['report']")
        #expect(result.status != 0)
        #expect(result.error.contains("searchlight scan"), "\(result.error)")
    }

    @Test func theServiceExitsWhenIdle() throws {
        try scanDocuments()
        let bus = try PrivateBus(index: index, idleSeconds: 1)
        let result = try bus.call(Self.runner, "org.kde.krunner1.Match", "report")
        #expect(result.status == 0, "\(result.error)")
        #expect(try waitUntil(timeout: 60) { try !bus.serviceIsRunning() })
        // Asked again, the bus starts it again.
        #expect(try bus.call(Self.runner, "org.kde.krunner1.Match", "report").output.contains("Quarterly Report 2024.pdf"))
    }

    @Test func namesThatAreNotUTF8OrHoldPercentSignsOpenTheRightFile() throws {
        let tree = TemporaryTree("desktop-names")
        let latin1: [UInt8] = Array("report r".utf8) + [0xE9] + Array("sum".utf8) + [0xE9] + Array(".txt".utf8)
        tree.write(latin1, "one\n")
        tree.write("100% report.txt", "two\n")
        #expect(try Searchlight.run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
        let bus = try PrivateBus(index: index)
        let initial = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", "['report']")
        #expect(initial.status == 0, "\(initial.error)")
        #expect(Self.count(initial.output) == 2, "\(initial.output)")
        #expect(initial.output.contains("100%25 report.txt"), "\(initial.output)")
        let ids = Self.array(initial.output).dropFirst().dropLast().components(separatedBy: ", ")
        for id in ids {
            let activated = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.ActivateResult", id, "['report']", "0")
            #expect(activated.status == 0, "\(activated.error)")
        }
        let opened = Array(try #require(FileManager.default.contents(atPath: bus.opened)))
        let expected = [Array((tree.path + "/").utf8) + latin1, Array((tree.path + "/100% report.txt").utf8)]
        let lines = opened.split(separator: 0x0A).map(Array.init)
        #expect(Set(lines) == Set(expected))
    }

    @Test func moreResultsOpenTheSearchPageStartingTheServer() throws {
        try scanDocuments()
        let port = try Self.freePort()
        let bus = try PrivateBus(index: index, pagePort: port)
        let launched = try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.LaunchSearch", "['quarterly', 'report']", "0")
        #expect(launched.status == 0, "\(launched.error)")
        #expect(bus.openedLines == ["http://127.0.0.1:\(port)/?q=quarterly%20report"])
        // The server it started answers, and outlives the call; it is stopped here.
        let server = try #require(Self.process(withArguments: ["serve", "--port", String(port)]))
        defer { kill(server, SIGKILL) }
        let status = try ChildProcess.run(["curl", "-fsS", "http://127.0.0.1:\(port)/api/search?q=quarterly"])
        #expect(String(decoding: status.stdout, as: UTF8.self).contains("Quarterly Report 2024.pdf"))
        // Asked again, the running server is used.
        #expect(try bus.call(Self.provider, "org.gnome.Shell.SearchProvider2.LaunchSearch", "['x']", "0").status == 0)
        #expect(bus.openedLines.last == "http://127.0.0.1:\(port)/?q=x")
        #expect(Self.process(withArguments: ["serve", "--port", String(port)]) == server)
    }

    @Test func theServiceLinksNoDecoderAndSearchlightNoGIO() throws {
        let desktop = try ContentCommandTests.libraries(of: Searchlight.desktopBinary)
        #expect(desktop.contains("libgio-2.0"), "the check would not see GIO")
        for decoder in ["libvips", "libxml2", "libicuuc", "libicui18n", "libpoppler", "libgsf"] {
            #expect(!desktop.contains(decoder), "searchlight-desktop links \(decoder)")
        }
        #expect(try !ContentCommandTests.libraries(of: Searchlight.binary).contains("libgio"))
    }

    /// A loopback port nobody listens on (the kernel's choice, released at once).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw PrivateBus.Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The process whose arguments contain `arguments` in a row, from /proc.
    static func process(withArguments arguments: [String]) -> pid_t? {
        let wanted = arguments.joined(separator: "\0")
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
            if String(decoding: data, as: UTF8.self).contains(wanted) { return pid }
        }
        return nil
    }

    static func count(_ reply: String) -> Int { reply.components(separatedBy: "\\u001f").count - 1 }

    static func md5(_ string: String) -> String {
        let result = try? ChildProcess.run(["md5sum"], input: Array(string.utf8))
        return String(decoding: result?.stdout ?? [], as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
