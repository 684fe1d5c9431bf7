import CShimXML2
import ExtractionProtocol

/// HTML and XHTML through libxml2's HTML parser: `<title>`, `meta` author, keywords and
/// description, and the visible text (no script, style or template).
enum HTMLExtractor {
    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        // Markup outweighs text; the parse stops by itself once the text is long enough.
        let (bytes, isComplete) = try source.prefix(maxBytes: source.rawLimit(factor: 16))
        let decoded = try TextDecoding.decode(bytes, declared: declaredCharset(bytes.prefix(1024)), isComplete: isComplete)
        var parsed = cxml_document()
        var text = decoded.text
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { cxml_extract_html($0.baseAddress, $0.count, source.textLimit, &parsed) }
        }
        defer { cxml_document_clear(&parsed) }
        return try document(from: parsed, isComplete: isComplete, format: "HTML")
    }

    /// Turns what CShimXML2 found into a document; shared with ``XMLExtractor``.
    static func document(from parsed: cxml_document, isComplete: Bool, format: String) throws(ExtractionFailure) -> ExtractedDocument {
        guard parsed.failed == 0 else { throw ExtractionFailure(.decodeFailed, "libxml2 could not parse the \(format)") }
        func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        func lines(_ pointer: UnsafeMutablePointer<CChar>?) -> [String] {
            string(pointer).map { $0.split(separator: "\n").map(String.init) } ?? []
        }
        let text = parsed.text.map { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: max(parsed.text_length, 1)) {
                String(decoding: UnsafeBufferPointer(start: $0, count: parsed.text_length), as: UTF8.self)
            }
        } ?? ""
        let keywords = lines(parsed.keywords).flatMap { $0.split(whereSeparator: { $0 == "," || $0 == ";" }).map(String.init) }
        return ExtractedDocument(
            title: string(parsed.title), authors: lines(parsed.authors), keywords: keywords,
            subject: string(parsed.description), text: text, isTextTruncated: parsed.truncated != 0 || !isComplete)
    }

    /// The charset an HTML document declares in its first bytes: `<meta charset=…>`,
    /// `<meta http-equiv="Content-Type" content="…; charset=…">` or an XML declaration's
    /// `encoding="…"` (HTML's prescan looks at the first 1 024 bytes).
    static func declaredCharset(_ head: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: head, as: UTF8.self).lowercased()
        for marker in ["charset=", "encoding="] {
            guard let range = text.firstRange(of: marker) else { continue }
            var value = text[range.upperBound...].drop { $0 == "\"" || $0 == "'" || $0 == " " }
            // A page saved from a quoted-printable mail part declares `charset=3Dwindows-1252`:
            // its `=` is written `=3D`.
            if value.hasPrefix("3d"), text.contains("=3d") { value = value.dropFirst(2).drop { $0 == "\"" } }
            let name = value.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ":" || $0 == "." }
            if !name.isEmpty { return String(name) }
        }
        return nil
    }
}
