/// The type a file takes when libmagic's answer comes from one of its weak tests and the
/// file's name and bytes agree on something else (Docs/Contract.md#what-is-indexed).
///
/// libmagic tries its tests in order of strength and reports the first that matches; a few
/// of them look at one or two bytes. A Greek text in ISO-8859-7 whose first letter is `Έ`
/// (0xB8, `mov ax,` to an x86) is a "DOS executable (COM)"; text is "data" when one stray
/// control character spoils it; a file of random bytes may be an "OpenPGP Secret Key"; an
/// RTF that starts `{\rtf\ansi` (no version digit) is plain text. None of these is evidence
/// against what the file's name says when the bytes say it too:
///
/// | libmagic's weak guess | the name | the bytes | the type taken |
/// |---|---|---|---|
/// | `application/x-dosexec` without `MZ` (a COM program), `application/octet-stream` ("data"), a binary PGP packet | `.txt`, `.md`, `.csv`… (``textExtensions``) | text in one encoding, no control characters (``TextEvidence``) | `text/plain` (`text/csv`), "ISO-8859 text"… |
/// | any `text/…` type, "data", a COM program | `.rtf` | `{\rtf` | `text/rtf`, "Rich Text Format data" |
/// | `application/zip`, "data" | `.docx`, `.odt`, `.epub`… | a ZIP whose central directory holds that document's parts | the document's type |
/// | `application/CDFV2` ("Cannot read section info"), an unnamed OLE2 file, "data" | `.doc`, `.xls`, `.ppt` | a compound file whose directory names the document's stream | `application/msword`… |
///
/// The rule is the same for a file (the indexer's inspector) and for an archive's member or
/// a mail's attachment (the worker), which are typed by the same libmagic. The description
/// says what decided, and what libmagic had guessed (``description``), so that `show` and the
/// benchmark's agreement with `file` can tell a difference made on purpose.
public struct TypeEvidence: Sendable, Equatable {
    /// The MIME type the evidence gives (`text/plain`, `text/rtf`, an office document's).
    public var contentType: String
    /// What the file is, in libmagic's words (`ISO-8859 text`, `Rich Text Format data`).
    public var kind: String
    /// What decided: `its .txt name and its bytes`.
    public var reason: String
    /// libmagic's weak guess, its description up to the first comma (or its MIME type).
    public var overruled: String

    /// The description the item stores: the kind, then what decided and what it overruled,
    /// after ``marker``.
    public var description: String { "\(kind)\(Self.marker)\(reason), over libmagic's weak guess: \(overruled))" }

    /// What separates the kind from the evidence in a description.
    public static let marker = " (typed by "

    /// The part of a stored description that says what the file is: all of it, but for a
    /// description this rule wrote, the kind before ``marker``.
    public static func kind(of description: String) -> Substring {
        guard let range = description.firstRange(of: marker) else { return description[...] }
        return description[..<range.lowerBound]
    }

    /// What decided a description this rule wrote (`its .txt name and its bytes, over
    /// libmagic's weak guess: DOS executable (COM)`); nil for libmagic's own descriptions.
    public static func evidence(in description: String) -> Substring? {
        guard let range = description.firstRange(of: marker), description.hasSuffix(")") else { return nil }
        return description[range.upperBound..<description.index(before: description.endIndex)]
    }

    /// Names of plain-text files: the extension of a text in any encoding.
    public static let textExtensions: Set<String> = [
        "txt", "text", "md", "markdown", "mdown", "mkd", "csv", "tsv", "log", "ini", "cfg", "conf", "srt", "vtt",
        "nfo", "diz", "rst", "adoc", "org", "tex", "me", "1st",
    ]

    /// How many of a file's first bytes the text evidence reads: the page libmagic read first.
    public static let headLength = 64 << 10

    /// Whether libmagic's type `contentType` of a file named `fileName` may be overruled, from
    /// the type and the name alone (no byte read): most files cost nothing more.
    public static func mayOverrule(contentType: String, fileName: some BidirectionalCollection<UInt8>) -> Bool {
        let type = baseType(contentType)
        let fileExtension = DocumentFormat.lowercasedExtension(of: fileName)
        if textExtensions.contains(fileExtension) { return isWeakBinaryGuess(type) }
        if fileExtension == "rtf" { return type != "text/rtf" && (type.hasPrefix("text/") || isWeakBinaryGuess(type)) }
        if ZipDocument.expected(forExtension: fileExtension) != nil {
            return type == "application/zip" || type == "application/octet-stream"
        }
        if CompoundDocument.expected(forExtension: fileExtension) != nil {
            return type == "application/x-ole-storage" || type == "application/cdfv2" || type == "application/octet-stream"
        }
        return false
    }

    /// The type the evidence gives a file that libmagic typed `contentType` and described as
    /// `description` (nil for an archive's member, which is typed by its MIME type alone),
    /// named `fileName`, of `size` bytes; `read(offset, length)` returns the file's bytes
    /// there (fewer at its end, nil when they cannot be read). nil when libmagic's answer
    /// stands.
    public static func decide(
        contentType: String, description: String?, fileName: some BidirectionalCollection<UInt8>, size: Int,
        read: (Int, Int) -> [UInt8]?
    ) -> TypeEvidence? {
        guard size > 0, mayOverrule(contentType: contentType, fileName: fileName) else { return nil }
        let type = baseType(contentType)
        let fileExtension = DocumentFormat.lowercasedExtension(of: fileName)
        let overruled = description.map { String($0.prefix { $0 != "," }) } ?? type
        guard let head = read(0, min(size, headLength)), !head.isEmpty else { return nil }
        // A DOS program that starts with `MZ` is an EXE: libmagic's strong test, not the COM guess.
        if type == "application/x-dosexec", head.starts(with: [0x4D, 0x5A]) { return nil }
        // An armoured PGP block is text that says what it is.
        if type.hasPrefix("application/pgp"), head.starts(with: Array("-----BEGIN PGP".utf8)) { return nil }
        if textExtensions.contains(fileExtension) {
            guard let encoding = TextEvidence.encoding(of: head[...], isComplete: head.count >= size) else { return nil }
            return TypeEvidence(contentType: fileExtension == "csv" ? "text/csv" : "text/plain",
                                kind: encoding.description, reason: "its .\(fileExtension) name and its bytes",
                                overruled: overruled)
        }
        if fileExtension == "rtf" {
            guard head.starts(with: Array("{\\rtf".utf8)) else { return nil }
            return TypeEvidence(contentType: "text/rtf", kind: "Rich Text Format data",
                                reason: "its .rtf name and its {\\rtf start", overruled: overruled)
        }
        if let expected = CompoundDocument.expected(forExtension: fileExtension) {
            guard let names = CompoundDocument.entryNames(head: head, read: read), !expected.streams.isDisjoint(with: names) else {
                return nil
            }
            return TypeEvidence(contentType: expected.contentType, kind: expected.kind,
                                reason: "its .\(fileExtension) name and the streams its compound file holds", overruled: overruled)
        }
        guard head.starts(with: [0x50, 0x4B, 0x03, 0x04]), let expected = ZipDocument.expected(forExtension: fileExtension),
              let names = ZipDocument.memberNames(size: size, read: read), expected.isHeld(in: names)
        else { return nil }
        return TypeEvidence(contentType: expected.contentType, kind: expected.kind,
                            reason: "its .\(fileExtension) name and the parts its ZIP holds", overruled: overruled)
    }

    /// libmagic's guesses that rest on a byte or two, or on nothing: a COM program (its first
    /// instruction), "data", a binary PGP packet (a tag byte and a version).
    static func isWeakBinaryGuess(_ type: String) -> Bool {
        type == "application/x-dosexec" || type == "application/octet-stream" || type == "application/pgp-keys"
            || type == "application/pgp-encrypted" || type == "application/pgp-signature"
    }

    /// A MIME type without its parameters, lowercased.
    static func baseType(_ contentType: String) -> String {
        contentType.split(separator: ";", maxSplits: 1).first.map { $0.filter { $0 != " " }.lowercased() } ?? ""
    }
}
