import Foundation
import SearchlightTestSupport
import Testing

/// Search by meaning on every surface, with the real model: the page's JSON API, GNOME Shell's
/// and KRunner's providers on a private bus answer a question as `searchlight search` does,
/// and `watch` embeds a file that arrives while it runs.
extension MeaningCommandTests {
    /// The question every surface is asked, and the file that answers it.
    static let question = ["how", "do", "I", "make", "coffee"]

    /// The paths `search` prints for the question, as the reference the surfaces are held to.
    func commandLineAnswer() throws -> [String] {
        let answer = try search(Self.question)
        #expect(answer.first == "kaffee.txt", "\(answer)")
        return answer
    }

    @Test func thePageAndTheDesktopAnswerAQuestionAsTheCommandLineDoes() throws {
        writeDocuments()
        #expect(try run(["scan", tree.path]).status == 0)
        let expected = try commandLineAnswer()
        let model = ["SEARCHLIGHT_MODEL_DIR": Self.modelFolder]

        // The JSON API of `serve`: the same items in the same order, the first matched by meaning.
        let server = try ServeCommandTests.startServer(index: index, environment: model)
        defer { _ = server.stop() }
        let reply = try ChildProcess.run(["curl", "-fsS", server.address + "api/search?q=" + Self.question.joined(separator: "+")])
        #expect(reply.status == 0, "\(String(decoding: reply.stderr, as: UTF8.self))")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(reply.stdout)) as? [String: Any])
        let items = try #require(body["items"] as? [[String: Any]], "\(body.keys)")
        #expect(items.compactMap { $0["id"] as? String } == expected, "\(items)")
        #expect(items.first?["matchedIn"] as? String == "meaning", "\(items.first ?? [:])")

        // GNOME Shell's provider and KRunner's runner, started by the bus with the model.
        let bus = try PrivateBus(index: index, environment: model)
        let terms = "[" + Self.question.map { "'\($0)'" }.joined(separator: ", ") + "]"
        let shell = try bus.call(DesktopServiceTests.provider, "org.gnome.Shell.SearchProvider2.GetInitialResultSet", terms)
        #expect(shell.status == 0, "\(shell.error)")
        // A result's identifier ends with the item's path in its folder (ResultID).
        let identifiers = Self.quoted(in: shell.output)
        #expect(identifiers.count == expected.count && zip(identifiers, expected).allSatisfy { $0.hasSuffix($1) }, "\(shell.output)")
        let runner = try bus.call(DesktopServiceTests.runner, "org.kde.krunner1.Match", Self.question.joined(separator: " "))
        #expect(runner.status == 0, "\(runner.error)")
        #expect(Self.quoted(in: runner.output).first?.hasSuffix("kaffee.txt") == true, "\(runner.output)")
    }

    @Test func watchEmbedsWhatArrivesAndAQuestionFindsIt() throws {
        writeDocuments()
        let config = work.path + "/watch.toml"
        // No backoff: the pass waits while the watch backs off, which a busy test machine makes it do.
        try "[watch]\nbackoff = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let log = work.path + "/watch.log"
        let watch = try ChildProcess([Searchlight.binary, "watch", tree.path, "--no-thumbnails", "--config", config]
                                     + Searchlight.busyMachine,
                                     environment: Searchlight.environment(index: index, extra: ["SEARCHLIGHT_MODEL_DIR": Self.modelFolder]),
                                     stderr: .file(log))
        defer { watch.terminate(); watch.waitUntilExit() }
        let text = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(waitUntil(timeout: 120) { text().contains("watching ") }, "\(text())")
        let answered = waitUntil(timeout: 300) { (try? run(["search"] + Self.question).paths(under: tree.path).first) == "kaffee.txt" }
        #expect(answered, "\(text()) \((try? run(["status"]).output) ?? "")")

        // A file that arrives is embedded by the watch's own pass: a question in other words finds it.
        tree.write("tee.txt", """
            Grüner Tee: Das Wasser nur auf 80 Grad erhitzen, die Blätter zwei Minuten ziehen lassen \
            und dann abgießen, sonst wird der Tee bitter.
            """)
        let found = waitUntil(timeout: 300) {
            (try? run(["search", "how", "long", "should", "green", "tea", "steep"]).paths(under: tree.path).first) == "tee.txt"
        }
        #expect(found, "\(text())")
        let status = try run(["status"])
        #expect(status.output.contains("embedded:    6 of 6 texts"), "\(status.output)")
    }

    /// The strings in single quotes of a gdbus reply, in order.
    static func quoted(in reply: String) -> [String] {
        reply.split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
