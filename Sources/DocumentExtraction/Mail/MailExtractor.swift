import CShimXML2
import ExtractionProtocol

/// An e-mail message (`.eml`, or plain text that begins with RFC 5322 headers): Subject →
/// title, From → authors (`Name <address>`), Date → creation date, the decoded bodies as
/// text (a `multipart/alternative` gives its plain-text part, else its HTML part as text, then
/// the lines of its other parts that add words: see ``MailReader/readAlternatives(_:depth:)``),
/// then the text of its attachments (read by their types' readers), attachment names → keywords.
enum MailExtractor {
    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        // Attachments make messages large; their bodies are skipped, not decoded.
        let (bytes, isComplete) = try source.prefix(maxBytes: source.rawLimit(factor: 16))
        var reader = MailReader(textLimit: source.textLimit)
        let message = MailMessage(bytes[...])
        reader.read(message, depth: 0)
        var document = reader.document
        document.title = message.header("subject")
        document.authors = message.header("from").map(MailHeaderText.mailboxes) ?? []
        document.creationDate = message.header("date").flatMap(MailHeaderText.date)
        document.isTextTruncated = document.isTextTruncated || !isComplete
        return document
    }
}

/// Walks a message's MIME tree and gathers its text and attachment names, within bounds:
/// at most 1 000 parts and 16 levels, and no more text than the limit.
struct MailReader {
    static let maximumParts = 1000
    static let maximumDepth = 16

    let textLimit: Int
    private(set) var document = ExtractedDocument()
    private var textBytes = 0
    private var parts = 0

    init(textLimit: Int) { self.textLimit = textLimit }

    /// Reads a message (or a MIME part, whose header holds only MIME fields).
    mutating func read(_ part: MailMessage, depth: Int, defaultType: String = "text/plain") {
        parts += 1
        guard parts <= Self.maximumParts, depth <= Self.maximumDepth else {
            document.isTextTruncated = true
            return
        }
        let (type, parameters) = part.rawHeader("content-type").map(MailHeaderText.parameters) ?? (defaultType, [:])
        let disposition = part.rawHeader("content-disposition").map(MailHeaderText.parameters)
        let fileName = disposition?.parameters["filename"] ?? parameters["name"]
        if let fileName { document.keywords.append(fileName) }
        if disposition?.value == "attachment" || (fileName != nil && !type.hasPrefix("text/")) {
            // An attachment is read as a file of its type is (as an archive's member), after
            // the body that comes before it.
            if let fileName, textBytes < textLimit {
                append(ArchiveExtractor.memberText(Self.decodedBody(of: part), name: fileName, limit: textLimit - textBytes))
            }
            return
        }

        if type.hasPrefix("multipart/") {
            guard let boundary = parameters["boundary"], !boundary.isEmpty else { return }
            let (bodies, isComplete) = Self.split(part.body, boundary: Array(boundary.utf8))
            if !isComplete { document.isTextTruncated = true }
            let children = bodies.map { MailMessage($0) }
            if type == "multipart/alternative" {
                readAlternatives(children, depth: depth + 1)
            } else {
                let childType = type == "multipart/digest" ? "message/rfc822" : "text/plain"
                for child in children where parts < Self.maximumParts && textBytes < textLimit {
                    read(child, depth: depth + 1, defaultType: childType)
                }
            }
            return
        }
        if type == "message/rfc822" || type == "message/global" {
            // A forwarded message: its subject and its text.
            let inner = MailMessage(Self.decodedBody(of: part)[...])
            if let subject = inner.header("subject") { append(subject) }
            read(inner, depth: depth + 1)
            return
        }
        guard type == "text/plain" || type == "text/html" || type == "text/enriched" || type == "text/markdown" else { return }
        let text = MailHeaderText.decodeCharset(Self.decodedBody(of: part), parameters["charset"])
        append(type == "text/html" ? Self.htmlText(text, limit: textLimit) : text)
    }

    /// Reads the parts of a `multipart/alternative`, each the same message in another form:
    /// the plain-text part (else the HTML part, else the first) as any part is read, then, from
    /// each other part, only its lines (an HTML part's paragraphs) that have a word the text of
    /// the alternatives so far lacks, after it. So an HTML part that says more than its plain
    /// part (a sentence the plain part lost, a signature) keeps its words, and one that says the
    /// same adds nothing for snippets to repeat. Words are compared as runs of letters and digits,
    /// lowercased: stricter than the index's folding, so that a line is left out only when every
    /// one of its words is already there. The other parts' attachment names are not keywords:
    /// they are the same message's pictures.
    mutating func readAlternatives(_ children: [MailMessage], depth: Int) {
        let types = children.map { $0.rawHeader("content-type").map(MailHeaderText.parameters)?.value ?? "text/plain" }
        guard let chosen = types.firstIndex(of: "text/plain") ?? types.firstIndex(of: "text/html") ?? types.indices.first else {
            return
        }
        let start = document.text.utf8.count
        read(children[chosen], depth: depth)
        var words = Set(Self.words(in: document.text.utf8.dropFirst(start)))
        for index in children.indices where index != chosen && parts < Self.maximumParts && textBytes < textLimit {
            var alternative = MailReader(textLimit: textLimit - textBytes)
            alternative.parts = parts
            alternative.read(children[index], depth: depth)
            parts = alternative.parts
            let added = alternative.document.text.split(separator: "\n").filter { line in
                var adds = false
                for word in Self.words(in: line.utf8) where words.insert(word).inserted { adds = true }
                return adds
            }
            append(added.joined(separator: "\n"))
        }
    }

    /// The words of `text` as ``readAlternatives(_:depth:)`` compares them.
    static func words(in text: some Collection<UInt8>) -> [String] {
        String(decoding: text, as: UTF8.self).lowercased()
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    private mutating func append(_ text: String) {
        let text = DocumentText.trimming(text)
        guard textBytes < textLimit, !text.isEmpty else { return }
        if !document.text.isEmpty { document.text += "\n\n" }
        document.text += text
        textBytes = document.text.utf8.count
        if textBytes > textLimit { document.isTextTruncated = true }
    }

    /// A part's body with its Content-Transfer-Encoding undone.
    static func decodedBody(of part: MailMessage) -> [UInt8] {
        let encoding = part.rawHeader("content-transfer-encoding").map { MailHeaderText.plainText($0).lowercased() } ?? ""
        switch DocumentText.trimming(encoding) {
        case "base64": return TransferDecoding.base64(part.body)
        case "quoted-printable": return TransferDecoding.quotedPrintable(part.body)
        default: return Array(part.body)
        }
    }

    /// The visible text of an HTML body.
    static func htmlText(_ html: String, limit: Int) -> String {
        var html = html
        var parsed = cxml_document()
        html.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { cxml_extract_html($0.baseAddress, $0.count, limit, &parsed) }
        }
        defer { cxml_document_clear(&parsed) }
        guard let text = parsed.text else { return "" }
        return text.withMemoryRebound(to: UInt8.self, capacity: max(parsed.text_length, 1)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: parsed.text_length), as: UTF8.self)
        }
    }

    /// The parts of a multipart body, between `--boundary` lines, in one pass; at most
    /// ``maximumParts`` (`isComplete` is false when there were more).
    static func split(_ body: ArraySlice<UInt8>, boundary: [UInt8]) -> (parts: [ArraySlice<UInt8>], isComplete: Bool) {
        let delimiter = [UInt8(ascii: "-"), UInt8(ascii: "-")] + boundary
        var parts: [ArraySlice<UInt8>] = []
        var partStart: Int?
        var lines = LineCursor(body)
        var lineStart = lines.position
        while let line = lines.next() {
            defer { lineStart = lines.position }
            guard line.starts(with: delimiter) else { continue }
            let rest = line.dropFirst(delimiter.count)
            let isClosing = rest.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")])
            guard isClosing || rest.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { continue }
            if let start = partStart {
                // The line break before a delimiter belongs to the delimiter.
                var end = lineStart
                if end > start, body[end - 1] == 0x0A { end -= 1 }
                if end > start, body[end - 1] == 0x0D { end -= 1 }
                if parts.count == maximumParts { return (parts, false) }
                parts.append(body[start..<end])
            }
            if isClosing { break }
            partStart = lines.position
        }
        return (parts, true)
    }
}

/// A mailbox (mbox): its messages one after the other, each as ``MailExtractor`` reads one —
/// subjects and bodies as text, senders as authors, the first message's date.
enum MboxExtractor {
    static let maximumMessages = 10_000

    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        let (bytes, isComplete) = try source.prefix(maxBytes: source.rawLimit(factor: 16))
        var document = ExtractedDocument()
        var textBytes = 0
        for range in messages(in: bytes[...]) {
            guard textBytes < source.textLimit else {
                document.isTextTruncated = true
                break
            }
            let message = MailMessage(bytes[range])
            var reader = MailReader(textLimit: source.textLimit - textBytes)
            reader.read(message, depth: 0)
            let subject = message.header("subject")
            let text = [subject, reader.document.text].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
            if !text.isEmpty {
                if !document.text.isEmpty { document.text += "\n\n" }
                document.text += text
                textBytes = document.text.utf8.count
            }
            document.authors += message.header("from").map(MailHeaderText.mailboxes) ?? []
            document.keywords += reader.document.keywords
            if document.creationDate == nil { document.creationDate = message.header("date").flatMap(MailHeaderText.date) }
        }
        document.isTextTruncated = document.isTextTruncated || !isComplete
        return document
    }

    /// Each message's bytes: a message starts at a `From ` line at the start of the file or
    /// after an empty line.
    static func messages(in bytes: ArraySlice<UInt8>) -> [Range<Int>] {
        var starts: [Int] = []
        var lines = LineCursor(bytes)
        var lineStart = lines.position
        var previousWasEmpty = true
        while let line = lines.next() {
            if previousWasEmpty && line.starts(with: Array("From ".utf8)) {
                starts.append(lineStart)
                if starts.count > maximumMessages { break }
            }
            previousWasEmpty = line.isEmpty
            lineStart = lines.position
        }
        if starts.isEmpty { return bytes.isEmpty ? [] : [bytes.startIndex..<bytes.endIndex] }
        return starts.indices.prefix(maximumMessages).map { index in
            starts[index]..<(index + 1 < starts.count ? starts[index + 1] : bytes.endIndex)
        }
    }
}
