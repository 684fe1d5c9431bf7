import ExtractionProtocol
import Foundation
import Glibc
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// Real keys and stores of every kind, made by the tools that make them, under names that say
/// nothing (`keys/…`), beside what is not a secret. Returns the names of both.
@discardableResult
func makeKeys(in tree: TemporaryTree) -> (secrets: [String], others: [String]) {
    tree.mkdirs("keys")
    let keys = tree.url("keys")
    func openssl(_ arguments: String...) { shell(["openssl"] + arguments) }
    // RSA: PKCS#8 and PKCS#1, PEM and DER, encrypted and not.
    openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", keys + "/server.key")
    openssl("genrsa", "-traditional", "-out", keys + "/legacy.key", "1024")
    openssl("genrsa", "-traditional", "-aes128", "-passout", "pass:secret", "-out", keys + "/legacy-locked.key", "1024")
    openssl("pkcs8", "-topk8", "-in", keys + "/server.key", "-passout", "pass:secret", "-out", keys + "/locked.key")
    openssl("pkcs8", "-topk8", "-in", keys + "/server.key", "-passout", "pass:secret", "-outform", "DER", "-out", keys + "/locked.der")
    openssl("pkcs8", "-topk8", "-nocrypt", "-in", keys + "/server.key", "-outform", "DER", "-out", keys + "/raw.key")
    openssl("rsa", "-in", keys + "/server.key", "-traditional", "-outform", "DER", "-out", keys + "/pkcs1.der")
    // EC (SEC 1 and PKCS#8), Ed25519, DSA (OpenSSL's own and PKCS#8).
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", keys + "/ec.txt")
    openssl("ec", "-in", keys + "/ec.txt", "-outform", "DER", "-out", keys + "/ec.der")
    openssl("pkcs8", "-topk8", "-nocrypt", "-in", keys + "/ec.txt", "-outform", "DER", "-out", keys + "/ec8.der")
    openssl("genpkey", "-algorithm", "ed25519", "-out", keys + "/ed.txt")
    openssl("pkey", "-in", keys + "/ed.txt", "-outform", "DER", "-out", keys + "/ed.der")
    openssl("dsaparam", "-genkey", "-noout", "-out", keys + "/dsa.txt", "1024")
    openssl("dsa", "-in", keys + "/dsa.txt", "-outform", "DER", "-out", keys + "/dsa.der")
    openssl("pkey", "-in", keys + "/dsa.txt", "-out", keys + "/dsa8.txt")
    // PKCS#12, and what `openssl pkcs12 -nodes` prints of it; a certificate with its key.
    openssl("req", "-x509", "-key", keys + "/server.key", "-subj", "/CN=example", "-days", "1", "-out", keys + "/cert.crt")
    openssl("pkcs12", "-export", "-inkey", keys + "/server.key", "-in", keys + "/cert.crt",
            "-passout", "pass:secret", "-out", keys + "/store.bin")
    openssl("pkcs12", "-in", keys + "/store.bin", "-passin", "pass:secret", "-nodes", "-out", keys + "/bag.txt")
    shell("sh", "-c", "cat '\(keys)/cert.crt' '\(keys)/server.key' > '\(keys)/bundle.crt'")
    // Public halves: not secrets.
    openssl("pkey", "-in", keys + "/server.key", "-pubout", "-out", keys + "/public.txt")
    openssl("pkey", "-in", keys + "/server.key", "-pubout", "-outform", "DER", "-out", keys + "/public.der")
    openssl("x509", "-in", keys + "/cert.crt", "-outform", "DER", "-out", keys + "/cert.der")
    // OpenSSH (new format, and PEM), PuTTY.
    shell("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", keys + "/deploy.key")
    shell("ssh-keygen", "-q", "-t", "ecdsa", "-N", "secret", "-C", "test", "-f", keys + "/ecdsa.key")
    shell("ssh-keygen", "-q", "-t", "rsa", "-b", "1024", "-m", "PEM", "-N", "", "-C", "test", "-f", keys + "/rsa-ssh.key")
    shell("puttygen", keys + "/legacy.key", "-o", keys + "/putty.txt", "-O", "private")
    // Java key stores.
    for (type, name) in [("JKS", "store.jks-data"), ("JCEKS", "store.jce-data"), ("PKCS12", "store.p12-data")] {
        shell("keytool", "-genkeypair", "-alias", "a", "-keyalg", "EC", "-dname", "CN=x", "-storepass", "secret12",
              "-keypass", "secret12", "-keystore", keys + "/" + name, "-storetype", type)
    }
    // OpenPGP: a secret key, its subkeys only, armoured; the public key is no secret.
    let home = TemporaryTree("gnupg")
    let gpg = ["env", "GNUPGHOME=" + home.path, "gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", ""]
    shell(gpg + ["--quick-gen-key", "Test <test@example.com>", "default", "default", "never"])
    shell(gpg + ["--quick-gen-key", "Other <other@example.com>", "ed25519", "default", "never"])
    // An export needs gpg-agent, which a crowded machine can leave unreachable for a while
    // ("skipped": an empty file): each export is tried again until it succeeds and writes something.
    func export(_ arguments: [String], to file: String) {
        let command = (gpg + arguments).joined(separator: " ")
        shell(["sh", "-c", "for try in 1 2 3 4 5 6 7 8 9 10; do \(command) > \(file) && [ -s \(file) ] && exit 0; sleep 1; done; exit 1"])
    }
    export(["--export-secret-keys", "test@example.com"], to: keys + "/secret.gpg")
    export(["--export-secret-keys"], to: keys + "/keyring.gpg")
    export(["--export-secret-subkeys", "test@example.com"], to: keys + "/subkeys.gpg")
    export(["--armor", "--export-secret-keys", "test@example.com"], to: keys + "/secret.asc")
    export(["--export"], to: keys + "/public.gpg")
    shell(["env", "GNUPGHOME=" + home.path, "gpgconf", "--kill", "gpg-agent"])
    // KeePass: no tool makes one here; a KDBX 4 header (signatures, version 4.0) and a body.
    let kdbx: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A, 0x67, 0xFB, 0x4B, 0xB5, 0x00, 0x00, 0x04, 0x00]
        + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    FileManager.default.createFile(atPath: keys + "/vault.dat", contents: Data(kdbx))
    // Cloud credentials under other names.
    tree.write("keys/sa.json", """
        {"type": "service_account", "project_id": "p", "private_key_id": "1",
         "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIB\\n-----END PRIVATE KEY-----\\n", "client_email": "a@p"}
        """)
    tree.write("keys/aws.ini", "[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = abc/def\n")
    let secrets = [
        "server.key", "legacy.key", "legacy-locked.key", "locked.key", "locked.der", "raw.key", "pkcs1.der", "ec.txt",
        "ec.der", "ec8.der", "ed.txt", "ed.der", "dsa.txt", "dsa.der", "dsa8.txt", "store.bin", "bag.txt",
        "bundle.crt", "deploy.key", "ecdsa.key", "rsa-ssh.key", "putty.txt", "store.jks-data", "store.jce-data",
        "store.p12-data", "secret.gpg", "keyring.gpg", "subkeys.gpg", "secret.asc", "vault.dat", "sa.json", "aws.ini",
    ].map { "keys/" + $0 }
    let others = ["cert.crt", "cert.der", "public.txt", "public.der", "deploy.key.pub", "ecdsa.key.pub", "rsa-ssh.key.pub",
                  "public.gpg"].map { "keys/" + $0 }
    return (secrets, others)
}

/// A Perl script like those under /usr/share/doc, holding a test key in a here-document.
let scriptHoldingAKey = """
    #!/usr/bin/perl
    # Signs the quarterly lighthouse report with the harbourmaster's test key.
    use strict;
    my $key = <<'KEY';
    -----BEGIN RSA PRIVATE KEY-----
    MIICXAIBAAKBgQCqGKukO1De7zhZj6+H0qtjTkVxwTCpvKe4eCZ0FPqri0cb2JZfXJ/DgYSF6vUp
    wmJG8wVQZKjeGcjDOL5UlsuusFncCzWBQ7RKNUSesmQRMSGkVb1/3j+skZ6UtW+5u09lHNsj6tQ5
    1s1SPrCBkedbNf0Tp0GbMJDyR4e9T04ZZwIDAQABAoGAFijko56+qGyN8M0RVyaRAXz++xTqHBLh
    -----END RSA PRIVATE KEY-----
    KEY
    print sign_report($key, "tidewater");
    """

/// Inspects `name` below `tree`'s root.
private func inspect(_ name: String, in tree: TemporaryTree, with inspector: FileInspector) throws -> FileInspector.Outcome {
    inspector.inspect(ItemIdentifier(name), in: try RootFolder(path: tree.path), domain: "files")
}

@Suite("Secrets by content", .ownThread)
struct SecretContentTests {
    @Test func keysAndStoresOfEveryKindAreSecretsWhateverTheirName() throws {
        let tree = TemporaryTree("secrets")
        let (secrets, others) = makeKeys(in: tree)
        let inspector = try FileInspector()
        for name in secrets {
            guard case .secret = try inspect(name, in: tree, with: inspector) else {
                Issue.record("\(name) is not a secret")
                continue
            }
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: tree.url(name))))
            #expect(SecretContent.isSecret(head: bytes[...], size: bytes.count), "\(name)")
        }
        for name in others {
            guard case .item = try inspect(name, in: tree, with: inspector) else {
                Issue.record("\(name) is left out")
                continue
            }
        }
        // The PKCS#12 store as old Windows wrote them: BER's indefinite length outside.
        let store = try Array(Data(contentsOf: URL(fileURLWithPath: tree.url("keys/store.bin"))))
        let headerLength = store[1] < 0x80 ? 2 : 2 + Int(store[1] & 0x7F)
        let indefinite = [0x30, 0x80] + store[headerLength...] + [0, 0]
        #expect(SecretContent.isSecret(head: indefinite[...], size: indefinite.count))
        #expect(!SecretContent.isSecret(head: indefinite.dropLast(2), size: indefinite.count - 2))
    }

    @Test func documentsThatNameOrHoldAKeyAreNotSecrets() throws {
        let tree = TemporaryTree("not-secrets")
        tree.write("rotate.txt", """
            To rotate a key, look for the line -----BEGIN RSA PRIVATE KEY----- in the file
            and replace the block below it. Never commit it.
            """)
        tree.write("truncated.txt", "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n")
        tree.write("sign.pl", scriptHoldingAKey)
        // A JSON and an INI file that only talk about credentials.
        tree.write("config.json", #"{"type": "service_account", "note": "ask the admin for the key"}"#)
        tree.write("aws.md", "[default]\nSet aws_secret_access_key in your environment, never here.\n")
        // Text whose first bytes (UTF-8 "Š") libmagic calls an OpenPGP secret key packet.
        tree.write("Šárka.txt", "Šárka koda the tupadika he zunipa lutelo\n")
        let inspector = try FileInspector()
        for name in ["rotate.txt", "truncated.txt", "sign.pl", "config.json", "aws.md", "Šárka.txt"] {
            guard case .item = try inspect(name, in: tree, with: inspector) else {
                Issue.record("\(name) is left out")
                continue
            }
        }
    }

    /// Metadata a tool copied a key into loses the key, as the text does.
    @Test func keyBlocksAreCutFromADocumentsTitleSubjectAuthorsAndKeywords() {
        let key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----"
        var document = ExtractedDocument(title: "Deploy notes \(key)", authors: ["Ops", key], keywords: ["deploy", key],
                                         subject: key, text: "Run it.\n\(key)\nDone.")
        SecretContent.removeKeyBlocks(from: &document)
        #expect(document.title == "Deploy notes")
        #expect(document.subject == nil)
        #expect(document.authors == ["Ops"])
        #expect(document.keywords == ["deploy"])
        #expect(!document.text.contains("b3BlbnNzaC1rZXktdjEAAAAA") && document.text.contains("Done."))
    }

    /// A PGP 2 secret key (packet version 3, RSA), as `pgp -kg` wrote them: no tool here makes
    /// one any more, so its packets are built by hand, with numbers of the right bit lengths.
    @Test func aVersion3SecretKeyOfPGP2IsASecret() {
        var generator = SeededGenerator(seed: 3)
        func mpi(bits: Int) -> [UInt8] {
            var bytes = (0..<(bits + 7) / 8).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes[0] |= 0x80 >> UInt8((8 - bits % 8) % 8)
            bytes[0] &= 0xFF >> UInt8((8 - bits % 8) % 8)
            return [UInt8(bits >> 8), UInt8(bits & 0xFF)] + bytes
        }
        // Version 3, created 1995-06-01, no expiry, RSA; n and e; clear secret part: d, p, q, u, checksum.
        let body: [UInt8] = [3, 0x2F, 0xCD, 0x0C, 0x00, 0, 0, 1] + mpi(bits: 1024) + mpi(bits: 5)
            + [0] + mpi(bits: 1021) + mpi(bits: 512) + mpi(bits: 512) + mpi(bits: 510) + [0x12, 0x34]
        let userID = Array("Phil <phil@example.org>".utf8)
        // Old-format headers: tag 5 with a two-byte length, tag 13 with a one-byte length.
        let key = [0x95, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body + [0xB4, UInt8(userID.count)] + userID
        #expect(SecretContent.isSecret(head: key[...], size: key.count))
        // Its public half (tag 6) is no secret, nor is a version 3 packet with an algorithm PGP 2 never had.
        var publicKey = key
        publicKey[0] = 0x99
        #expect(!SecretContent.isSecret(head: publicKey[...], size: publicKey.count))
        var dsa = key
        dsa[10] = 17
        #expect(!SecretContent.isSecret(head: dsa[...], size: dsa.count))
    }

    /// libmagic calls about one file of random bytes in a hundred an "OpenPGP Secret Key" by
    /// its first byte or two; a DER header or a key store's magic can start one by chance too.
    @Test func filesOfRandomBytesAreItems() throws {
        let tree = TemporaryTree("random")
        var generator = SeededGenerator(seed: 32)
        let count = 3000
        for number in 0..<count {
            let size = Int.random(in: 1...4096, using: &generator)
            var bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // A third start as a secret key packet would, or as a DER SEQUENCE spanning the file.
            switch number % 9 {
            case 0: bytes.replaceSubrange(0..<min(3, size), with: [0x95, 0x01, 0x04].prefix(size))
            case 1: bytes.replaceSubrange(0..<min(3, size), with: [0xC5, 0x80, 0x04].prefix(size))
            case 2 where size > 4:
                bytes.replaceSubrange(0..<4, with: [0x30, 0x82, UInt8((size - 4) >> 8), UInt8((size - 4) & 0xFF)])
            default: break
            }
            FileManager.default.createFile(atPath: tree.url("\(number).bin"), contents: Data(bytes))
        }
        let inspector = try FileInspector()
        var missing: [String] = []
        for number in 0..<count {
            if case .secret = try inspect("\(number).bin", in: tree, with: inspector) { missing.append("\(number).bin") }
        }
        #expect(missing.isEmpty, "left out: \(missing)")
    }

    @Test func keyBlocksAreCutOutOfText() throws {
        let cut = SecretContent.removingKeyBlocks(from: scriptHoldingAKey)
        #expect(cut.contains("lighthouse report") && cut.contains("sign_report($key, \"tidewater\")"))
        #expect(!cut.contains("PRIVATE KEY") && !cut.contains("MIICXAIBAAKBgQCqGKukO1De7zhZj6"))
        // Text whose lines were joined (a page, a PDF), a key without its end (text cut at its
        // limit), a PuTTY key and a PGP block; a certificate and a public key stay.
        let joined = scriptHoldingAKey.split(separator: "\n").joined(separator: " ")
        #expect(SecretContent.removingKeyBlocks(from: joined).hasSuffix("KEY print sign_report($key, \"tidewater\");"))
        let open = "before -----BEGIN PRIVATE KEY----- MIIEvQIBADANBgkqhkiG9w0BAQEFAASC BKcwggSjAgEAAoIBAQC7 after words"
        #expect(SecretContent.removingKeyBlocks(from: open) == "before \n after words")
        let putty = "intro\nPuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\nAAAAgQCqGKukO1De7zhZj6\n"
            + "Private-MAC: 0f1e2d3c4b5a\noutro"
        #expect(SecretContent.removingKeyBlocks(from: putty) == "intro\n\n\noutro")
        let pgp = "a\n-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQVYBGZ\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----\nb"
        #expect(SecretContent.removingKeyBlocks(from: pgp) == "a\n\n\nb")
        let kept = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"
        #expect(SecretContent.removingKeyBlocks(from: kept) == kept)
        #expect(SecretContent.removingKeyBlocks(from: "no key here") == "no key here")
        // Blocks back to back, and an end line that runs into the next header.
        let twice = "a -----BEGIN EC PRIVATE KEY----- MHcCAQEE -----END EC PRIVATE KEY----- -----BEGIN PRIVATE KEY----- MC4CAQAw"
            + " -----END PRIVATE KEY-----BEGIN PRIVATE KEY----- c"
        #expect(SecretContent.removingKeyBlocks(from: twice) == "a \n \nBEGIN PRIVATE KEY----- c")
    }

    @Test func aScanLeavesKeysOutAndIndexesAKeynotePresentationNamedKey() throws {
        let fixture = try ScanFixture()
        let tree = fixture.tree
        let (_, others) = makeKeys(in: tree)
        tree.write("notes.txt", "keys are kept elsewhere\n")
        tree.write("sign.pl", scriptHoldingAKey)
        // Credential stores by name.
        for name in [".netrc", ".git-credentials", ".pgpass", "home/.aws/credentials",
                     ".config/gcloud/application_default_credentials.json", ".config/gcloud/credentials.db"] {
            tree.write(name, "machine example.com login me password secret\n")
        }
        // A Keynote package: a ZIP holding Index/Document.iwa.
        tree.write("talk/Index/Document.iwa", "\u{0}\u{5}\u{0}\u{0}slides")
        shell("sh", "-c", "cd '\(tree.url("talk"))' && zip -q -r ../talk.key Index && cd .. && rm -r talk")
        let summary = try fixture.scan { $0.walk.exclusions.includeHidden = true }
        #expect(summary.failed == 0)
        let expected = (others + ["notes.txt", "sign.pl", "talk.key"]).sorted()
        #expect(try fixture.indexedNames().sorted() == expected)

        // A text file that becomes a key leaves the index at the next scan.
        shell("cp", tree.url("keys/server.key"), tree.url("notes.txt"))
        try fixture.scan { $0.walk.exclusions.includeHidden = true }
        #expect(try fixture.indexedNames().sorted() == expected.filter { $0 != "notes.txt" })
    }

    @Test func aWatchLeavesOutKeysWrittenWhileItRuns() async throws {
        let fixture = try WatchFixture(prepare: { $0.write("before.txt") })
        try await fixture.start()
        fixture.outside.mkdirs("made")
        makeKeys(in: fixture.outside)
        shell("cp", fixture.outside.url("keys/deploy.key"), fixture.tree.url("id.key"))
        shell("cp", fixture.outside.url("keys/store.bin"), fixture.tree.url("store.bin"))
        shell("cp", fixture.outside.url("keys/secret.gpg"), fixture.tree.url("backup.bin"))
        fixture.tree.write("after.txt")
        await fixture.settles(to: ["after.txt", "before.txt"])
        // A file indexed as text that is rewritten as a key goes away.
        shell("cp", fixture.outside.url("keys/server.key"), fixture.tree.url("before.txt"))
        await fixture.settles(to: ["after.txt"])
        try await fixture.stop()
    }
}
