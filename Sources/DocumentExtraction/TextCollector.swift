/// Gathers a document's text up to a limit in UTF-8 bytes, cutting at a character boundary.
///
/// Extractors append pieces (runs, cells, pages) and breaks as they read, and stop reading
/// once ``isFull`` is true, so a huge document costs no more than its first `limit` bytes.
/// Runs of whitespace that extractors add around pieces are collapsed to one separator.
///
/// ```swift
/// var collector = TextCollector(limit: textLimit)
/// for paragraph in paragraphs {
///     if collector.isFull { collector.markTruncated(); break }
///     collector.append(paragraph)
///     collector.appendBreak()
/// }
/// document.text = collector.text
/// document.isTextTruncated = collector.isTruncated
/// ```
public struct TextCollector: Sendable {
    /// The largest number of UTF-8 bytes kept.
    public let limit: Int
    private(set) var utf8: [UInt8] = []
    /// True once text was dropped because of the limit.
    public private(set) var isTruncated = false

    /// An empty collector that keeps at most `limit` bytes (a negative limit keeps none).
    public init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// True when nothing more will be kept.
    public var isFull: Bool { isTruncated || utf8.count >= limit }

    /// Records that text remains which was not appended (an extractor stopped at ``isFull``).
    public mutating func markTruncated() { isTruncated = true }

    /// Appends text as it is.
    public mutating func append(_ text: some StringProtocol) {
        guard !text.isEmpty else { return }
        guard !isFull else {
            isTruncated = true
            return
        }
        let room = limit - utf8.count
        var bytes = Array(text.utf8)
        if bytes.count > room {
            isTruncated = true
            var end = room
            // Do not split a character: back up to the start of a UTF-8 sequence.
            while end > 0 && (bytes[end] & 0xC0) == 0x80 { end -= 1 }
            bytes.removeSubrange(end...)
        }
        utf8.append(contentsOf: bytes)
    }

    /// Appends markup text (XHTML, XML), where a run of whitespace — newlines and indentation
    /// included — means one space.
    public mutating func appendCollapsingWhitespace(_ text: some StringProtocol) {
        var first = true
        for word in text.split(whereSeparator: \.isWhitespace) {
            if !first || text.first?.isWhitespace == true { appendSpace() }
            append(word)
            first = false
        }
        if let last = text.last, last.isWhitespace { appendSpace() }
    }

    /// Ends a paragraph, a cell or a page: one newline, never two in a row, none at the start.
    public mutating func appendBreak() { appendSeparator(0x0A) }

    /// Separates two words or cells on one line: one space unless a separator is already there.
    public mutating func appendSpace() { appendSeparator(0x20) }

    private mutating func appendSeparator(_ byte: UInt8) {
        guard let last = utf8.last, !isFull else { return }
        if last == 0x0A { return }
        if last == 0x20 || last == 0x09 {
            if byte == 0x0A { utf8[utf8.count - 1] = byte }
            return
        }
        utf8.append(byte)
    }

    /// The text so far, trailing separators removed.
    public var text: String {
        var end = utf8.count
        while end > 0 && (utf8[end - 1] == 0x0A || utf8[end - 1] == 0x20) { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }
}
