import ExtractionProtocol

/// Manual pages (man(7), mdoc(7)) and other roff documents: the text they print, without
/// their markup, titled `name(section)` by `.TH` or `.Dt`, the NAME section's line as the
/// subject (`ls - list directory contents`). See ``RoffReader``.
///
/// Decoded as plain text is (a page is UTF-8 or Latin-1; an Emacs-style `coding:` in its
/// first lines, as preconv(1) reads it, is taken first), bounded by the same prefix of the
/// file. A file routed here by its name alone (`syslog.1`, a rotated log) that does not look
/// like roff is read as plain text.
enum RoffExtractor {
    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        let (bytes, isComplete) = try source.prefix(maxBytes: source.rawLimit(factor: 2))
        guard looksLikeRoff(bytes) || DocumentFormat.isRoffType(source.contentType) else {
            return try PlainTextExtractor.read(source)
        }
        let decoded = try TextDecoding.decode(bytes, declared: declaredCoding(bytes), isComplete: isComplete)
        var document = parse(decoded.text, limit: source.textLimit)
        document.isTextTruncated = document.isTextTruncated || !isComplete
        return document
    }

    /// Reads a roff document's text.
    static func parse(_ text: String, limit: Int) -> ExtractedDocument {
        var reader = RoffReader(limit: limit)
        reader.read(text)
        return reader.document
    }

    /// Whether the head of a file is roff: a line of its first 4 KiB is a page's title or
    /// section request (`.TH`, `.Dd`, `.Dt`, `.SH`, `.Sh`), an inclusion (`.so`), or the file
    /// starts with a comment (`.\"`, `'\"`).
    static func looksLikeRoff(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(4096)
        if head.starts(with: Array(#".\""#.utf8)) || head.starts(with: Array(#"'\""#.utf8)) { return true }
        return head.split(separator: 0x0A).contains { line in
            [".TH ", ".Dd", ".Dt ", ".SH", ".Sh ", ".so "].contains { line.starts(with: Array($0.utf8)) }
        }
    }

    /// The charset an Emacs-style declaration in the first two lines names
    /// (`.\" -*- coding: latin-1 -*-`), as preconv(1) honours it.
    static func declaredCoding(_ bytes: [UInt8]) -> String? {
        let lines = bytes.prefix(1024).split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false).prefix(2)
        let head = lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
        guard let range = head.firstRange(of: "coding:") else { return nil }
        let name = head[range.upperBound...].drop(while: { $0 == " " }).prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        guard !name.isEmpty else { return nil }
        // Emacs spells some charsets its own way; `utf-8-unix` is UTF-8.
        let lowered = name.lowercased()
        if lowered.hasPrefix("utf-8") || lowered.hasPrefix("utf8") { return "UTF-8" }
        if lowered.hasPrefix("latin-1") || lowered.hasPrefix("latin1") || lowered.hasPrefix("iso-latin-1") { return "ISO-8859-1" }
        return String(name)
    }
}
