import Foundation
import SearchlightTestSupport
import Testing

/// Secrets through the built binary: keys under names that say nothing are never items, files
/// of random bytes all are, and a script holding a key is found by its words, never the key's.
@Suite("searchlight and secrets", .serialized, .ownThread)
struct SecretCommandTests {
    let tree = TemporaryTree("secrets-cli")
    let work = TemporaryTree("secrets-cli-index")
    var index: String { work.path + "/index.sqlite" }

    func run(_ arguments: [String]) throws -> CommandResult { try Searchlight.run(arguments, index: index) }

    @Test func scanLeavesKeysOutAndIndexesAScriptHoldingOneWithoutIt() throws {
        let keys = TemporaryTree("secrets-cli-keys")
        shell("openssl", "genrsa", "-traditional", "-out", keys.url("rsa.pem"), "1024")
        shell("openssl", "rsa", "-in", keys.url("rsa.pem"), "-traditional", "-outform", "DER", "-out", tree.url("report-1.dat"))
        shell("openssl", "pkcs8", "-topk8", "-in", keys.url("rsa.pem"), "-passout", "pass:secret", "-out", tree.url("report-2.txt"))
        shell("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", tree.url("report-3.txt"))
        shell("rm", tree.url("report-3.txt.pub"))
        // Random bytes, some starting as libmagic's OpenPGP secret key test wants.
        var generator = SeededGenerator(seed: 7)
        var expected = ["sign.pl"]
        for number in 0..<300 {
            var bytes = (0..<Int.random(in: 8...2048, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if number % 3 == 0 { bytes.replaceSubrange(0..<3, with: [0x95, 0x01, 0x04]) }
            FileManager.default.createFile(atPath: tree.url("noise-\(number).bin"), contents: Data(bytes))
            expected.append("noise-\(number).bin")
        }
        // A Perl script holding the real key in a here-document.
        let pem = try String(contentsOfFile: keys.url("rsa.pem"), encoding: .utf8)
        tree.write("sign.pl", """
            #!/usr/bin/perl
            # Signs the quarterly lighthouse report with the harbourmaster's test key.
            my $key = <<'KEY';
            \(pem)KEY
            print sign_report($key, "tidewater");

            """)
        let scan = try run(["scan", tree.path, "--no-thumbnails"])
        #expect(scan.status == 0, "\(scan.stderr)")
        let listed = Set(try run(["list"]).paths(under: tree.path))
        #expect(listed == Set(expected), """
            listed, not expected: \(listed.subtracting(expected).sorted()); \
            expected, not listed: \(Set(expected).subtracting(listed).sorted()); scan: \(scan.output)
            """)

        let found = try run(["search", "tidewater", "--json"])
        #expect(found.status == 0)
        let object = try #require(found.lines.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(object["id"] as? String == "sign.pl" && object["path"] as? String == tree.url("sign.pl"), "\(object)")
        let snippet = object["snippet"] as? String ?? ""
        #expect(!snippet.contains("PRIVATE") && snippet.contains("tidewater"), "\(snippet)")
        // The key's words are nowhere: its header, a long run of its base64.
        let body = pem.split(separator: "\n")[1]
        let keyWord = String(body.prefix { $0.isLetter || $0.isNumber })
        #expect(keyWord.count >= 8)
        for word in ["PRIVATE", keyWord] {
            #expect(try run(["search", word]).lines.isEmpty, "\(word)")
        }
        let shown = try run(["show", "sign.pl", "--json"])
        #expect(shown.output.contains("lighthouse") && !shown.output.contains("PRIVATE") && !shown.output.contains(keyWord),
                "\(shown.output)")
    }
}
