/// Header values of e-mail: RFC 2047 encoded words, RFC 2231 parameters, addresses, dates.
enum MailHeaderText {
    /// A header value as text: encoded words (`=?UTF-8?B?…?=`, `=?ISO-8859-1?Q?…?=`) decoded,
    /// whitespace between adjacent encoded words dropped, raw 8-bit bytes read as UTF-8 or
    /// Windows-1252.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        let equals = UInt8(ascii: "="), question = UInt8(ascii: "?")
        var result = ""
        var plainStart = raw.startIndex
        var index = raw.startIndex
        var previousWasEncoded = false
        // One pass over the bytes: a failed "=?" costs a few bytes of look-ahead, not a scan.
        while index + 1 < raw.endIndex {
            guard raw[index] == equals, raw[index + 1] == question,
                  let (decoded, end) = encodedWord(raw[index...]) else {
                index += 1
                continue
            }
            let before = raw[plainStart..<index]
            if !(previousWasEncoded && before.allSatisfy({ $0 == 0x20 || $0 == 0x09 })) { result += plainText(before) }
            result += decoded
            index = end
            plainStart = end
            previousWasEncoded = true
        }
        return result + plainText(raw[plainStart...])
    }

    /// Bytes of a header or a parameter as text, whatever their encoding.
    static func plainText(_ raw: some Collection<UInt8>) -> String {
        if raw.allSatisfy({ $0 < 0x80 }) { return String(decoding: raw, as: UTF8.self) }
        return (try? TextDecoding.decode(Array(raw)).text) ?? String(decoding: raw, as: UTF8.self)
    }

    /// Decodes `=?charset?encoding?text?=` at the start of `bytes`; returns it and where it ends.
    static func encodedWord(_ bytes: ArraySlice<UInt8>) -> (String, Int)? {
        let question = UInt8(ascii: "?")
        var marks: [Int] = []
        var index = bytes.startIndex + 2
        let limit = min(bytes.endIndex, bytes.startIndex + 4096)
        while index < limit, marks.count < 3 {
            if bytes[index] == question { marks.append(index) }
            index += 1
        }
        guard marks.count == 3, marks[2] + 1 < bytes.endIndex, bytes[marks[2] + 1] == UInt8(ascii: "=") else { return nil }
        let charset = String(decoding: bytes[(bytes.startIndex + 2)..<marks[0]], as: UTF8.self).prefix { $0 != "*" }
        let payload = bytes[(marks[1] + 1)..<marks[2]]
        let decoded: [UInt8]
        switch String(decoding: bytes[(marks[0] + 1)..<marks[1]], as: UTF8.self).lowercased() {
        case "b": decoded = TransferDecoding.base64(payload)
        case "q": decoded = TransferDecoding.quotedPrintable(payload, underscoreIsSpace: true)
        default: return nil
        }
        return (decodeCharset(decoded, String(charset)), marks[2] + 2)
    }

    /// `bytes` in `charset`, with a guess when the charset is unknown.
    static func decodeCharset(_ bytes: [UInt8], _ charset: String?) -> String {
        let name = charset.map(TextDecoding.normalized)
        if name == nil || name == "utf-8" || name == "us-ascii" || name == "" {
            return plainText(bytes)
        }
        return (try? TextDecoding.decode(bytes, declared: name).text) ?? plainText(bytes)
    }

    // MARK: Content-Type and Content-Disposition

    /// A MIME field's value (`text/plain; charset="utf-8"`): its lowercased first part and its
    /// parameters (names lowercased; RFC 2231 continuations `name*0*=` joined and
    /// `charset''percent%20encoded` values decoded).
    static func parameters(_ raw: ArraySlice<UInt8>) -> (value: String, parameters: [String: String]) {
        let text = plainText(raw)
        var pieces: [Substring] = []
        var current = text.startIndex
        var inQuotes = false
        for index in text.indices {
            let character = text[index]
            if character == "\"" { inQuotes.toggle() }
            if character == ";" && !inQuotes {
                pieces.append(text[current..<index])
                current = text.index(after: index)
            }
        }
        pieces.append(text[current...])
        let value = DocumentText.trimming(pieces.removeFirst()).lowercased()
        var simple: [String: String] = [:]
        var extended: [String: [(index: Int, value: String, isEncoded: Bool)]] = [:]
        for piece in pieces.prefix(100) {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            var name = DocumentText.trimming(piece[..<equals]).lowercased()
            var parameterValue = DocumentText.trimming(piece[piece.index(after: equals)...])
            if parameterValue.hasPrefix("\"") && parameterValue.hasSuffix("\"") && parameterValue.count >= 2 {
                parameterValue = String(parameterValue.dropFirst().dropLast())
            }
            let isEncoded = name.hasSuffix("*")
            if isEncoded { name.removeLast() }
            if let star = name.firstIndex(of: "*"), let index = Int(name[name.index(after: star)...]) {
                extended[String(name[..<star]), default: []].append((index, parameterValue, isEncoded))
            } else if isEncoded {
                extended[name, default: []].append((0, parameterValue, true))
            } else {
                simple[name] = parameterValue
            }
        }
        for (name, sections) in extended {
            let ordered = sections.sorted { $0.index < $1.index }
            var charset: String?
            var bytes: [UInt8] = []
            for (position, section) in ordered.enumerated() {
                var sectionValue = section.value[...]
                if position == 0 && section.isEncoded {
                    // charset'language'value
                    let parts = sectionValue.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
                    if parts.count == 3 {
                        charset = String(parts[0])
                        sectionValue = parts[2]
                    }
                }
                bytes += section.isEncoded ? percentDecoded(sectionValue) : Array(sectionValue.utf8)
            }
            simple[name] = decodeCharset(bytes, charset)
        }
        return (value, simple)
    }

    static func percentDecoded(_ text: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }

    // MARK: Addresses

    /// The mailboxes of an address field (`"Müller, Zoë" <zoe@example.com>, bob@example.org`),
    /// each as `Name <address>` or the bare address.
    static func mailboxes(_ value: String) -> [String] {
        var result: [String] = []
        var current = ""
        var inQuotes = false
        var inAngle = false
        for character in value {
            switch character {
            case "\"": inQuotes.toggle()
            case "<" where !inQuotes: inAngle = true; current.append(character)
            case ">" where !inQuotes: inAngle = false; current.append(character)
            case "," where !inQuotes && !inAngle:
                result.append(current)
                current = ""
            default: current.append(character)
            }
        }
        result.append(current)
        return result.compactMap { mailbox in
            let trimmed = DocumentText.collapsingWhitespace(mailbox)
            guard !trimmed.isEmpty else { return nil }
            if let open = trimmed.lastIndex(of: "<"), let close = trimmed.lastIndex(of: ">"), open < close {
                let name = DocumentText.trimming(trimmed[..<open], " \t'")
                let address = trimmed[trimmed.index(after: open)..<close]
                return name.isEmpty ? String(address) : "\(name) <\(address)>"
            }
            return trimmed
        }
    }

    // MARK: Dates

    /// An RFC 5322 date (`Tue, 24 Nov 2026 06:51:48 +0100`, obsolete zones and two-digit
    /// years included) in seconds since 1970, or nil.
    static func date(_ value: String) -> Double? {
        var words = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })[...]
        if let first = words.first, first.allSatisfy(\.isLetter) { words = words.dropFirst() }
        guard words.count >= 4, let day = Int(words[words.startIndex]),
              let month = months[words[words.startIndex + 1].prefix(3).lowercased()],
              var year = Int(words[words.startIndex + 2]) else { return nil }
        if year < 50 { year += 2000 } else if year < 1000 { year += 1900 }
        let time = words[words.startIndex + 3].split(separator: ":").map { Int($0) }
        guard time.count >= 2, let hour = time[0], let minute = time[1] else { return nil }
        let second = time.count > 2 ? (time[2] ?? 0) : 0
        let zone = words.count > 4 ? zoneOffset(words[words.startIndex + 4]) : 0
        guard (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second - zone)
    }

    static let months = ["jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
                         "oct": 10, "nov": 11, "dec": 12]

    /// `+0100` → 3600; obsolete names (GMT, EST, PDT...) too; unknown ones count as UTC.
    static func zoneOffset(_ zone: Substring) -> Int {
        if let sign = zone.first, sign == "+" || sign == "-", zone.count == 5, let value = Int(zone.dropFirst()) {
            let seconds = (value / 100) * 3600 + (value % 100) * 60
            return sign == "-" ? -seconds : seconds
        }
        let named = ["edt": -4, "est": -5, "cdt": -5, "cst": -6, "mdt": -6, "mst": -7, "pdt": -7, "pst": -8]
        return (named[zone.lowercased()] ?? 0) * 3600
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Content-Transfer-Encoding decoders.
enum TransferDecoding {
    /// Base64, skipping line breaks and anything outside the alphabet; stops at `=`.
    static func base64(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in input {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="): return output
            default: continue
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }

    /// Quoted-printable: `=XX` bytes and soft line breaks (`=` at a line's end); in encoded
    /// words `_` is a space.
    static func quotedPrintable(_ input: ArraySlice<UInt8>, underscoreIsSpace: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = input.startIndex
        while index < input.endIndex {
            let byte = input[index]
            if byte == UInt8(ascii: "=") {
                let next = input[(index + 1)...].prefix(2)
                if next.first == 0x0A {
                    index += 2
                    continue
                }
                if next.elementsEqual([0x0D, 0x0A]) {
                    index += 3
                    continue
                }
                if next.count == 2, let value = UInt8(String(decoding: next, as: UTF8.self), radix: 16) {
                    output.append(value)
                    index += 3
                    continue
                }
            }
            output.append(underscoreIsSpace && byte == UInt8(ascii: "_") ? 0x20 : byte)
            index += 1
        }
        return output
    }
}
