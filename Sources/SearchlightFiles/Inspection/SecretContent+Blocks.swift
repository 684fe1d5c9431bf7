import ExtractionProtocol

extension SecretContent {
    private static let beginMarker = Array("BEGIN ".utf8)
    private static let pemDashes = Array("-----".utf8)
    private static let ssh2Dashes = Array(" ----".utf8)
    private static let puttyEnds = ["Private-MAC:", "Private-Hash:"].map { Array($0.utf8) }
    private static let blockHeaders = ["Proc-Type:", "DEK-Info:", "Version:", "Comment:", "Hash:", "Charset:"].map { Array($0.utf8) }

    /// Cuts every private key block out of what a document says of itself: its text, and its
    /// title, subject, authors and keywords (metadata a tool copied a key into); a field
    /// that held nothing but a key is left empty (`nil` for a title or subject).
    static func removeKeyBlocks(from document: inout ExtractedDocument) {
        func cut(_ field: String) -> String? {
            let kept = removingKeyBlocks(from: field)
            if kept == field { return field }
            guard let first = kept.firstIndex(where: { !$0.isWhitespace }),
                  let last = kept.lastIndex(where: { !$0.isWhitespace }) else { return nil }
            return String(kept[first...last])
        }
        document.text = removingKeyBlocks(from: document.text)
        document.title = document.title.flatMap(cut)
        document.subject = document.subject.flatMap(cut)
        document.authors = document.authors.compactMap(cut)
        document.keywords = document.keywords.compactMap(cut)
    }

    /// `text` with every private key block it holds cut out, each replaced by a line break:
    /// PEM blocks whose label is a private key's (`-----BEGIN RSA PRIVATE KEY-----` …
    /// `-----END RSA PRIVATE KEY-----`, PKCS#8, SEC 1, OpenSSH, `PGP PRIVATE KEY BLOCK`), SSH2
    /// blocks (`---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----`) and PuTTY keys (from
    /// `PuTTY-User-Key-File-` to its `Private-MAC:`). A block whose end is missing (text cut at
    /// its limit, a broken file) loses its header and the base64 that follows.
    ///
    /// Every document's text passes here on its way from a worker to its item
    /// (``ExtractorPool``), so the item's text, snippets and the keywords ranked from it never
    /// hold a key; a block in a certificate or a public key stays.
    static func removingKeyBlocks(from text: String) -> String {
        var text = text
        return text.withUTF8 { buffer in
            let bytes = ArraySlice(buffer)
            guard firstIndex(of: beginMarker, in: bytes) != nil || firstIndex(of: puttyKey, in: bytes) != nil else {
                return nil
            }
            var kept: [UInt8] = []
            var copied = bytes.startIndex
            var searchFrom = bytes.startIndex
            while let (start, end) = nextKeyBlock(in: bytes, from: searchFrom) {
                kept.append(contentsOf: bytes[copied..<start])
                kept.append(0x0A)
                copied = end
                searchFrom = end
            }
            guard copied != bytes.startIndex else { return nil }
            kept.append(contentsOf: bytes[copied...])
            return String(decoding: kept, as: UTF8.self)
        } ?? text
    }

    /// The next private key block in `bytes` at or after `from`: where it starts and ends.
    private static func nextKeyBlock(in bytes: ArraySlice<UInt8>, from: Int) -> (Int, Int)? {
        var searchFrom = from
        while searchFrom < bytes.endIndex {
            let begin = firstIndex(of: beginMarker, in: bytes[searchFrom...])
            let putty = firstIndex(of: puttyKey, in: bytes[searchFrom...])
            if let putty, putty < (begin ?? .max) {
                let afterMAC = puttyEnds.compactMap { line in firstIndex(of: line, in: bytes[putty...]).map { $0 + line.count } }
                    .min().map { endOfToken(in: bytes, after: $0) }
                return (putty, afterMAC ?? endOfKeyBody(in: bytes, from: putty + puttyKey.count))
            }
            guard let begin else { return nil }
            searchFrom = begin + 1
            // `-----BEGIN LABEL-----` or `---- BEGIN LABEL ----`, its dashes after what was cut
            // before (`-----END X-----BEGIN …` has its dashes in the block before).
            guard begin >= from + 5 else { continue }
            let isPEM = bytes[(begin - 5)..<begin].elementsEqual(pemDashes)
            let isSSH2 = !isPEM && bytes[(begin - 5)..<begin].elementsEqual("---- ".utf8)
            guard isPEM || isSSH2 else { continue }
            let dashes = isPEM ? pemDashes : ssh2Dashes
            let labelStart = begin + beginMarker.count
            guard let labelEnd = firstIndex(of: dashes, in: bytes[labelStart..<min(bytes.endIndex, labelStart + 64)]),
                  isPrivateKeyLabel(bytes[labelStart..<labelEnd]) else { continue }
            let start = begin - 5
            let headerEnd = labelEnd + dashes.count
            let endLine = Array((isPEM ? "-----END " : "---- END ").utf8) + bytes[labelStart..<labelEnd] + dashes
            if let end = firstIndex(of: endLine, in: bytes[headerEnd...]) { return (start, end + endLine.count) }
            return (start, endOfKeyBody(in: bytes, from: headerEnd))
        }
        return nil
    }

    /// Where the body of a block without its end line stops: after the headers and the words
    /// of base64 (16 characters or more) that follow `from`.
    private static func endOfKeyBody(in bytes: ArraySlice<UInt8>, from: Int) -> Int {
        var end = from
        var position = from
        var headerValue = false
        while position < bytes.endIndex {
            let start = bytes[position...].firstIndex { !isSpace($0) } ?? bytes.endIndex
            guard start < bytes.endIndex else { return end }
            let tokenEnd = bytes[start...].firstIndex(where: isSpace) ?? bytes.endIndex
            let token = bytes[start..<tokenEnd]
            if headerValue || token.count >= 16 && token.allSatisfy(isBase64) {
                headerValue = false
            } else if blockHeaders.contains(where: { token.elementsEqual($0) }) {
                headerValue = true
            } else {
                return end
            }
            end = tokenEnd
            position = tokenEnd
        }
        return end
    }

    /// The end of the word that starts after the spaces at `from`.
    private static func endOfToken(in bytes: ArraySlice<UInt8>, after from: Int) -> Int {
        let start = bytes[min(from, bytes.endIndex)...].firstIndex { !isSpace($0) } ?? bytes.endIndex
        return bytes[start...].firstIndex(where: isSpace) ?? bytes.endIndex
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
