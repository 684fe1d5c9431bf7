/// An RFC 5322 message split into its header fields and its body, with MIME's structure
/// (RFC 2045–2047, 2231) on demand. Works on bytes: headers and bodies need not be UTF-8.
struct MailMessage {
    /// Header fields in order, names lowercased, values unfolded (raw bytes).
    var fields: [(name: String, value: ArraySlice<UInt8>)]
    /// Everything after the blank line that ends the header.
    var body: ArraySlice<UInt8>

    /// Splits `bytes` at the first empty line. A leading mbox `From ` line is skipped.
    init(_ bytes: ArraySlice<UInt8>) {
        fields = []
        var lines = LineCursor(bytes)
        if bytes.starts(with: Array("From ".utf8)) { _ = lines.next() }
        var name: String?
        var value: [UInt8] = []
        func flush(_ fields: inout [(name: String, value: ArraySlice<UInt8>)]) {
            if let name { fields.append((name, value[...])) }
        }
        while let line = lines.next() {
            if line.isEmpty { break }
            if line.first == 0x20 || line.first == 0x09 {
                // A folded continuation of the previous field.
                value.append(0x20)
                value += line.drop { $0 == 0x20 || $0 == 0x09 }
                continue
            }
            flush(&fields)
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                name = nil
                continue
            }
            name = String(decoding: line[..<colon], as: UTF8.self).lowercased().filter { $0 != " " && $0 != "\t" }
            value = Array(line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 })
            // Fields are few; a header of thousands is hostile and ends here.
            if fields.count > 1000 { break }
        }
        flush(&fields)
        body = bytes[lines.position...]
    }

    /// The first value of the field `name` (lowercased), with encoded words decoded.
    func header(_ name: String) -> String? {
        fields.first { $0.name == name }.map { MailHeaderText.decode($0.value) }
    }

    /// The raw first value of the field `name`.
    func rawHeader(_ name: String) -> ArraySlice<UInt8>? {
        fields.first { $0.name == name }?.value
    }

    /// Whether `bytes` begin like an e-mail message: an optional mbox `From ` line, then
    /// well-formed header fields among which at least two are a message's (From, Date,
    /// Subject, To, Message-ID, Received...), up to an empty line.
    static func looksLikeMessage(_ bytes: [UInt8]) -> Bool {
        let sample = bytes.prefix(16 << 10)
        var lines = LineCursor(sample)
        if sample.starts(with: Array("From ".utf8)) { _ = lines.next() }
        var known = 0
        var count = 0
        while let line = lines.next() {
            if line.isEmpty { return count >= 2 && known >= 2 }
            if line.first == 0x20 || line.first == 0x09 {
                guard count > 0 else { return false }
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[..<colon].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
            count += 1
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            if messageFields.contains(name) { known += 1 }
            if count > 200 { return false }
        }
        // The sample ended inside the header.
        return known >= 3
    }

    static let messageFields: Set<String> = [
        "from", "to", "cc", "date", "subject", "message-id", "received", "return-path", "mime-version",
        "delivered-to", "reply-to", "in-reply-to", "references", "sender", "newsgroups", "path",
    ]
}

/// Lines of a byte slice, without their CR LF or LF.
struct LineCursor {
    let bytes: ArraySlice<UInt8>
    /// Where the next line starts.
    private(set) var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    mutating func next() -> ArraySlice<UInt8>? {
        guard position < bytes.endIndex else { return nil }
        let end = bytes[position...].firstIndex(of: 0x0A) ?? bytes.endIndex
        var line = bytes[position..<end]
        if line.last == 0x0D { line = line.dropLast() }
        position = min(end + 1, bytes.endIndex)
        return line
    }
}
