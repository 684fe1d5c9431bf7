import Foundation
import Glibc
import SearchlightTestSupport
import Testing

/// Thumbnails through the built binary: real images made by libvips' own tools, real workers.
@Suite("searchlight thumbnails", .serialized, .ownThread)
struct ThumbnailCommandTests {
    let tree = TemporaryTree("thumbs-cli")
    let work = TemporaryTree("thumbs-cli-index")
    var index: String { work.path + "/index.sqlite" }

    /// Makes an image with the `vips` command (libvips-tools).
    func makeImage(_ name: String, width: Int = 640, height: Int = 480) {
        if let slash = name.lastIndex(of: "/") { tree.mkdirs(String(name[..<slash])) }
        let temporary = work.path + "/noise.v"
        shell("vips", "gaussnoise", temporary, "\(width)", "\(height)", "--mean", "128", "--sigma", "40")
        shell("vips", "cast", temporary, tree.url(name), "uchar")
    }

    func run(_ arguments: [String], index: String? = nil, environment: [String: String] = [:]) throws -> CommandResult {
        let index = index ?? self.index
        if environment.isEmpty { return try Searchlight.run(arguments, index: index) }
        let assignments = environment.map { "\($0.key)=\($0.value)" }
        return try Searchlight.run(arguments, index: index, prefix: ["/usr/bin/env"] + assignments)
    }

    func json(_ id: String, index: String? = nil) throws -> [String: Any] {
        let result = try run(["show", id, "--json"], index: index)
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }

    @Test(arguments: IndexBackend.available) func imagesGetThumbnailsThatFollowTheirFiles(_ backend: IndexBackend) async throws {
        let index = try await backend.makeIndex(in: work.path, label: "thumbnails")
        makeImage("photo.png", width: 1000, height: 500)
        makeImage("holiday/tall.jpg", width: 300, height: 900)
        tree.write("notes.txt")
        // A PNG whose data is corrupt (a fixture of the extractor's tests).
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SearchlightFilesTests/Fixtures")
        try FileManager.default.copyItem(atPath: fixtures.appendingPathComponent("corrupt.png").path, toPath: tree.url("broken.png"))
        var result = try run(["scan", tree.path, "--json"], index: index)
        #expect(result.status == 0)
        // Indexed without a preview: counted, not a warning.
        #expect(result.output.contains("\"withoutPreview\":1"), "\(result.output)")
        #expect(result.output.contains("\"failed\":0"), "\(result.output)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let photo = try json("photo.png", index: index)
        let thumbnail = try #require(photo["thumbnail"] as? [String: Any])
        #expect(thumbnail["format"] as? String == "webp")
        #expect(thumbnail["width"] as? Int == 256 && thumbnail["height"] as? Int == 128)
        #expect(photo["pixelWidth"] as? Int == 1000 && photo["pixelHeight"] as? Int == 500)
        let tall = try #require(try json("holiday/tall.jpg", index: index)["thumbnail"] as? [String: Any])
        #expect(tall["height"] as? Int == 256 && tall["width"] as? Int == 85)
        #expect(try json("notes.txt", index: index)["thumbnail"] is NSNull)
        // A broken image is indexed without a preview, with its kind and reason.
        let broken = try json("broken.png", index: index)
        #expect((broken["failure"] as? String)?.hasPrefix("undecodable: thumbnail:") == true)
        #expect(try run(["status"], index: index).output.contains("0 failed, 1 without a preview"))
        let failures = try run(["status", "--failures"], index: index).output
        #expect(failures.contains("undecodable") && failures.contains("broken.png"), "\(failures)")

        // The stored bytes are a real image of the announced size.
        let written = work.path + "/photo.webp"
        #expect(try run(["thumbnail", "photo.png", "-o", written], index: index).status == 0)
        let header = try Searchlight.run([], index: index, prefix: ["/usr/bin/env", "vipsheader", written])
        #expect(header.output.contains("256x128"))
        #expect(try run(["thumbnail", "notes.txt", "-o", written], index: index).status == 1)

        // Unchanged files keep their thumbnails; a changed file gets a new one; a deleted one loses it.
        result = try run(["scan", tree.path, "--json"], index: index)
        #expect(try run(["status", "--json"], index: index).output.contains("\"thumbnails\":2"))
        makeImage("photo.png", width: 200, height: 400)
        #expect(try run(["scan", tree.path], index: index).status == 0)
        let changed = try #require(try json("photo.png", index: index)["thumbnail"] as? [String: Any])
        #expect(changed["width"] as? Int == 128 && changed["height"] as? Int == 256)
        tree.remove("holiday/tall.jpg")
        #expect(try run(["scan", tree.path], index: index).status == 0)
        #expect(try run(["status", "--json"], index: index).output.contains("\"thumbnails\":1"))
        #expect(try run(["scan", tree.path, "--no-thumbnails"], index: index).status == 0)
    }

    @Test func aHangingDecoderIsKilledAtItsDeadlineAndTheScanFinishes() throws {
        makeImage("fine-1.png")
        makeImage("stuck.png")
        makeImage("fine-2.png")
        // At normal priority: an idle scan's workers on a busy machine could miss a short deadline
        // on the fine files too.
        let result = try run(["scan", tree.path, "--decoder-deadline", "5", "--priority", "normal"],
                             environment: ["SEARCHLIGHT_EXTRACTOR_TEST_MODE": "hang-on:stuck"])
        #expect(result.status == 0)
        #expect(try json("fine-1.png")["thumbnail"] is [String: Any])
        #expect(try json("fine-2.png")["thumbnail"] is [String: Any])
        let stuck = try json("stuck.png")
        #expect(stuck["thumbnail"] is NSNull)
        #expect((stuck["failure"] as? String)?.contains("timed out") == true)
        // Retried only when it changes: a rescan does not try it again.
        let again = try run(["scan", tree.path, "--json", "--decoder-deadline", "5"],
                            environment: ["SEARCHLIGHT_EXTRACTOR_TEST_MODE": "hang-on:stuck"])
        #expect(again.output.contains("\"unchanged\":3"))
    }

    @Test func aCrashingDecoderIsRestartedAndLaterFilesStillGetThumbnails() throws {
        makeImage("a-first.png")
        makeImage("b-crash.png")
        for index in 0..<4 { makeImage("c-after-\(index).png") }
        let result = try run(["scan", tree.path], environment: ["SEARCHLIGHT_EXTRACTOR_TEST_MODE": "crash-on:b-crash"])
        #expect(result.status == 0)
        #expect((try json("b-crash.png")["failure"] as? String)?.contains("crashed") == true)
        for index in 0..<4 { #expect(try json("c-after-\(index).png")["thumbnail"] is [String: Any]) }
        #expect(try json("a-first.png")["thumbnail"] is [String: Any])
    }
}
