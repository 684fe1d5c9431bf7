import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Real keys made by the tools that make them, in a temporary folder.
private func makeKeys(in tree: TemporaryTree) {
    let keys = tree.url("keys")
    tree.mkdirs("keys")
    shell("openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", keys + "/server.key")
    shell("openssl", "genrsa", "-traditional", "-out", keys + "/legacy.key", "1024")
    shell("openssl", "pkcs8", "-topk8", "-in", keys + "/server.key", "-passout", "pass:secret", "-out", keys + "/locked.key")
    shell("openssl", "pkcs8", "-topk8", "-nocrypt", "-in", keys + "/server.key", "-outform", "DER", "-out", keys + "/raw.key")
    shell("openssl", "rsa", "-in", keys + "/server.key", "-outform", "DER", "-out", keys + "/pkcs1.der")
    shell("openssl", "req", "-x509", "-key", keys + "/server.key", "-subj", "/CN=example", "-days", "1",
          "-out", keys + "/cert.crt")
    shell("openssl", "pkcs12", "-export", "-inkey", keys + "/server.key", "-in", keys + "/cert.crt",
          "-passout", "pass:secret", "-out", keys + "/store.bin")
    shell("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", keys + "/deploy.key")
}

@Suite("Secrets by content", .ownThread)
struct SecretContentTests {
    @Test func keysAndStoresAreSecretsWhateverTheirName() throws {
        let tree = TemporaryTree("secrets")
        makeKeys(in: tree)
        for name in ["server.key", "legacy.key", "locked.key", "raw.key", "pkcs1.der", "store.bin", "deploy.key"] {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: tree.url("keys/" + name))))
            #expect(SecretContent.isSecret(head: bytes[...], size: bytes.count), "\(name)")
        }
        // A certificate and a public key are not secrets.
        for name in ["cert.crt", "deploy.key.pub"] {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: tree.url("keys/" + name))))
            #expect(!SecretContent.isSecret(head: bytes[...], size: bytes.count), "\(name)")
        }
        #expect(SecretContent.isSecret(description: "OpenSSH private key", contentType: "text/plain"))
        #expect(SecretContent.isSecret(description: "Java KeyStore", contentType: "application/octet-stream"))
        #expect(SecretContent.isSecret(description: "Keepass password database 2.x KDBX", contentType: "application/octet-stream"))
        #expect(SecretContent.isSecret(description: "PGP private key block", contentType: "text/plain"))
        #expect(!SecretContent.isSecret(description: "Zip archive data, at least v2.0 to extract", contentType: "application/zip"))
        // libmagic's OpenPGP packet test on a text that starts with "Š": text, not a key.
        #expect(!SecretContent.isSecret(description: "OpenPGP Secret Key", contentType: "text/plain"))
        #expect(SecretContent.isSecret(description: "OpenPGP Secret Key", contentType: "application/pgp-keys"))
    }

    @Test func aDocumentThatOnlyNamesAKeyHeaderIsNotASecret() {
        let text = Array("""
            To rotate a key, look for the line -----BEGIN RSA PRIVATE KEY----- in the file
            and replace the block below it. Never commit it.
            """.utf8)
        #expect(!SecretContent.isSecret(head: text[...], size: text.count))
        let truncated = Array("-----BEGIN PRIVATE KEY-----\n...\n".utf8)
        #expect(!SecretContent.isSecret(head: truncated[...], size: truncated.count))
    }

    @Test func aScanLeavesKeysOutAndIndexesAKeynotePresentationNamedKey() throws {
        let fixture = try ScanFixture()
        let tree = fixture.tree
        makeKeys(in: tree)
        tree.write("notes.txt", "keys are kept elsewhere\n")
        // Text whose first bytes (UTF-8 "Š") libmagic calls an OpenPGP secret key packet.
        tree.write("Šárka.txt", "Šárka koda the tupadika he zunipa lutelo\n")
        // A Keynote package: a ZIP holding Index/Document.iwa.
        tree.write("talk/Index/Document.iwa", "\u{0}\u{5}\u{0}\u{0}slides")
        shell("sh", "-c", "cd '\(tree.url("talk"))' && zip -q -r ../talk.key Index && cd .. && rm -r talk")
        let summary = try fixture.scan()
        #expect(summary.failed == 0)
        #expect(try fixture.indexedNames() == ["keys/cert.crt", "keys/deploy.key.pub", "notes.txt", "talk.key", "Šárka.txt"])

        // A text file that becomes a key leaves the index at the next scan.
        shell("cp", tree.url("keys/server.key"), tree.url("notes.txt"))
        try fixture.scan()
        #expect(try fixture.indexedNames() == ["keys/cert.crt", "keys/deploy.key.pub", "talk.key", "Šárka.txt"])
    }

    @Test func aWatchLeavesOutKeysWrittenWhileItRuns() async throws {
        let fixture = try WatchFixture(prepare: { $0.write("before.txt") })
        try await fixture.start()
        fixture.outside.mkdirs("made")
        makeKeys(in: fixture.outside)
        shell("cp", fixture.outside.url("keys/deploy.key"), fixture.tree.url("id.key"))
        shell("cp", fixture.outside.url("keys/store.bin"), fixture.tree.url("store.bin"))
        fixture.tree.write("after.txt")
        await fixture.settles(to: ["after.txt", "before.txt"])
        // A file indexed as text that is rewritten as a key goes away.
        shell("cp", fixture.outside.url("keys/server.key"), fixture.tree.url("before.txt"))
        await fixture.settles(to: ["after.txt"])
        try await fixture.stop()
    }
}
