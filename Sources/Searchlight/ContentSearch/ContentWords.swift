/// The text that the content full-text index (`item_content`) is given for an item's text.
///
/// FTS5's `unicode61` tokenizer splits on anything that is not a letter or digit (so also on
/// U+200B, the zero-width space an extractor puts between CJK words) and folds case and
/// diacritics. Two things are added before it sees the text:
///
/// - **Han and kana characters one by one.** A CJK run is one long token to `unicode61`; an
///   extractor may split it at ICU's word breaks, but a query word typed here cannot be split
///   the same way (the indexer links no ICU). So each Han or kana character is its own token,
///   and a CJK query word is found as all of its characters (``tokens(of:)``), then checked
///   as a substring on the stored text: `東京都` finds `東京都庁の写真` whatever the breaks.
/// - **The parts of words that name search would split** (`testWORDML` → also `test`,
///   `wordml`; `report2024` → also `report`, `2024`), so that every word ``NameTokenizer``
///   finds in a text is a token of the index: the `w` modifier on `textContent` and `search`
///   agree with name search. The whole run stays a token too (`iPhone` is found as `iphone`).
///
/// The index keeps no positions (`detail=column`), so appended parts cost only their entries.
enum ContentWords {
    /// The text to index for `text`: `text` itself when it needs nothing added (most ASCII prose).
    static func indexed(_ text: String) -> String {
        var text = text
        text.makeContiguousUTF8()
        let isASCII = text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } } ?? false
        return isASCII ? indexedASCII(text) : indexedUnicode(text)
    }

    /// Whether a scalar is indexed as a word of its own: Han ideographs, hiragana, katakana.
    static func isSplitCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: true
        default: scalar.properties.isIdeographic
        }
    }

    /// The FTS5 tokens a (folded) query word stands for: itself, or its characters when it
    /// holds Han or kana (which then must also be found in the text as written).
    static func tokens(of word: String) -> [String] {
        guard word.unicodeScalars.contains(where: isSplitCJK) else { return [word] }
        return word.unicodeScalars.map { String($0) }
    }

    private static func indexedASCII(_ text: String) -> String {
        var extra: [String] = []
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var start = -1
            func word(_ end: Int) {
                defer { start = -1 }
                guard start >= 0, end - start > 1 else { return }
                let run = UnsafeBufferPointer(rebasing: bytes[start..<end])
                var parts: [Range<Int>] = []
                _ = NameTokenizer.forEachASCIIWord(in: run) { parts.append($0) }
                guard parts.count > 1 else { return }
                for part in parts { extra.append(String(decoding: run[part], as: UTF8.self)) }
            }
            for index in 0..<bytes.count {
                let byte = bytes[index]
                let isWord = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                if isWord { if start < 0 { start = index } } else { word(index) }
            }
            word(bytes.count)
        }
        return extra.isEmpty ? text : text + "\n" + extra.joined(separator: " ")
    }

    private static func indexedUnicode(_ text: String) -> String {
        var output = String.UnicodeScalarView()
        var run = String.UnicodeScalarView()
        var extra: [String] = []
        func endRun() {
            guard !run.isEmpty else { return }
            let parts = NameTokenizer.words(in: String(run))
            if parts.count > 1 { extra += parts }
            run = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if isSplitCJK(scalar) {
                endRun()
                output.append(" ")
                output.append(scalar)
                output.append(" ")
                continue
            }
            let properties = scalar.properties
            if properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark {
                run.append(scalar)
            } else {
                endRun()
            }
            output.append(scalar)
        }
        endRun()
        let indexed = String(output)
        return extra.isEmpty ? indexed : indexed + "\n" + extra.joined(separator: " ")
    }
}

extension ContentWords {
    /// `text` without the separators an extractor may put between Han and kana characters
    /// (U+200B, white space): where a CJK query word is looked for as written.
    static func joinedCJK(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isSplitCJK) else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{200B}" || scalar.properties.isWhitespace, let last = output.last, isSplitCJK(last) {
                var next = index
                while next < scalars.count, scalars[next] == "\u{200B}" || scalars[next].properties.isWhitespace { next += 1 }
                if next < scalars.count, isSplitCJK(scalars[next]) {
                    index = next
                    continue
                }
            }
            if scalar != "\u{200B}" { output.append(scalar) }
            index += 1
        }
        return String(output)
    }
}
