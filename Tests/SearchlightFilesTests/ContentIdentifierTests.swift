import CShimMagic
import Foundation
import Glibc
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

@Suite("Content identification", .ownThread)
struct ContentIdentifierTests {
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")
    static let documents = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Examples/Documents")

    /// Files whose descriptions repeat (so the second of each pair takes the learned type)
    /// and files whose descriptions are alike but whose types differ.
    static func mixedFiles(in tree: TemporaryTree) -> [String] {
        let samples: [(String, String)] = [
            ("a.txt", "plain words\n"), ("b.txt", "more plain words\n"),
            ("c.c", "#include <stdio.h>\nint main(void) { return 0; }\n"),
            ("d.c", "#include <stdlib.h>\nint main(void) { exit(0); }\n"),
            ("e.sh", "#!/bin/sh\necho hello\n"), ("f.sh", "#!/bin/sh\necho again\n"),
            ("g.py", "#!/usr/bin/env python3\nprint('x')\n"),
            ("h.pm", "package Foo::Bar;\nuse strict;\n1;\n"), ("i.pm", "package Foo::Baz;\nuse strict;\n1;\n"),
            ("j.pl", "#!/usr/bin/perl\npackage Foo::Bar;\nuse strict;\n1;\n"),
            ("k.json", "{\"a\": [1, 2, 3]}\n"), ("l.json", "{\"b\": {\"c\": null}}\n"),
            ("m.csv", "a,b,c\n1,2,3\n4,5,6\n"), ("n.html", "<!DOCTYPE html><html><title>x</title></html>\n"),
            ("o.txt", "caf\u{E9} na\u{EF}ve r\u{E9}sum\u{E9}\n"), ("p.txt", "\u{FEFF}with a byte order mark\n"),
            ("q.txt", "windows lines\r\nsecond\r\n"), ("empty", ""),
        ]
        var paths = samples.map { name, contents in
            tree.write(name, contents)
            return tree.url(name)
        }
        for name in ["r.bin", "s.bin"] {
            var generator = SeededGenerator(seed: UInt64(name.utf8.first!))
            let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = FileManager.default.createFile(atPath: tree.url(name), contents: Data(bytes))
            paths.append(tree.url(name))
        }
        return paths
    }

    static func everyFile(under folder: URL) -> [String] {
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (walker?.compactMap { ($0 as? URL).flatMap { try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true ? $0.path : nil } } ?? [])
            .sorted()
    }

    /// What two separate full passes of libmagic say, the way `file --mime-type` and `file` do.
    static func fullPasses(_ path: String) throws -> ContentIdentifier.Identity {
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        return ContentIdentifier.Identity(
            contentType: try Magic(flags: MAGIC_MIME_TYPE).identify(descriptor: descriptor),
            description: try Magic(flags: MAGIC_NONE).identify(descriptor: descriptor))
    }

    @Test func answersWhatTwoFullPassesAnswer() throws {
        let tree = TemporaryTree("identify")
        let paths = Self.mixedFiles(in: tree) + Self.everyFile(under: Self.fixtures) + Self.everyFile(under: Self.documents)
        #expect(paths.count > 40)
        let learned = LearnedContentTypes()
        let identifier = try ContentIdentifier(learning: learned)
        // Twice over, so that every file is also answered from what the first round learned.
        for round in 1...2 {
            for path in paths {
                let descriptor = open(path, O_RDONLY)
                defer { close(descriptor) }
                let identity = try identifier.identify(descriptor: descriptor)
                #expect(identity == (try Self.fullPasses(path)), "round \(round): \(path)")
            }
        }
        #expect(learned.count < paths.count, "some answers came from learned types")
    }

    /// An empty file is what `file` calls it (`inode/x-empty`, from its status), not what
    /// libmagic says through a descriptor (`application/x-empty`).
    @Test func anEmptyFileIsWhatFileSays() throws {
        let tree = TemporaryTree("identify-empty")
        tree.write("Compose", "")
        let inspector = try FileInspector()
        guard case .item(let item, _) = inspector.inspect("Compose", in: try RootFolder(path: tree.path), domain: "d") else {
            Issue.record("no item")
            return
        }
        let type = try ChildProcess.run(["/usr/bin/file", "--mime-type", "-b", tree.url("Compose")])
        let description = try ChildProcess.run(["/usr/bin/file", "-b", tree.url("Compose")])
        #expect(type.status == 0 && description.status == 0)
        #expect(item.attributeSet.contentType == String(decoding: type.stdout, as: UTF8.self).trimmingCharacters(in: .newlines))
        #expect(item.attributeSet.contentDescription
            == String(decoding: description.stdout, as: UTF8.self).trimmingCharacters(in: .newlines))
        #expect(item.attributeSet.contentType == "inode/x-empty")
    }
}
