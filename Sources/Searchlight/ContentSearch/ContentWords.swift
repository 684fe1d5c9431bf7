/// The text that the content full-text index (`item_content`) is given for an item's text.
///
/// ``SearchlightTokenizer`` splits text into runs of word scalars and folds them
/// (``WordFolding``). Two things are added before it sees the text:
///
/// - **Unspaced letters one by one.** Han, kana, Thai, Lao, Khmer and Myanmar are written
///   without spaces between words; an extractor may mark ICU's word breaks with U+200B, but a
///   query word typed here cannot be split the same way (the indexer links no ICU). So each such
///   letter, with the marks after it, is its own token, and a query word of them is found as all
///   of its letters (``tokens(of:)``), then checked as a substring of the stored text: `東京都`
///   finds `東京都庁の写真` whatever the breaks.
/// - **The parts of words that name search would split** (`testWORDML` → also `test`,
///   `wordml`; `report2024` → also `report`, `2024`), so that every word ``NameTokenizer``
///   finds in a text is a token of the index: the `w` modifier on `textContent` and `search`
///   agree with name search. The whole run stays a token too (`iPhone` is found as `iphone`).
///
/// The index keeps no positions (`detail=column`), so appended parts cost only their entries.
enum ContentWords {
    /// The text to index for `text`: `text` itself when it needs nothing added (most ASCII prose).
    ///
    /// One pass over the UTF-8 bytes: ASCII is classified by its byte, and only the other
    /// scalars cost a Unicode property lookup, so that a text of prose with a few accented
    /// letters or typographic quotes costs about what an ASCII one does.
    static func indexed(_ text: String) -> String {
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { bytes in
            var words = IndexedWords(bytes: bytes)
            return words.run() ?? text
        } ?? text
    }

    /// Whether a scalar is indexed as a word of its own (with the marks after it): a letter of
    /// a script written without spaces (``WordFolding/isUnspacedLetter(_:)``).
    static func isSplitCJK(_ scalar: Unicode.Scalar) -> Bool {
        WordFolding.isUnspacedLetter(scalar)
    }

    /// The FTS5 tokens a (folded) query word stands for: itself, or its letters with their
    /// marks when it holds unspaced letters (which then must also be found in the text as written).
    static func tokens(of word: String) -> [String] {
        WordFolding.unspacedParts(of: word)
    }

    /// Whether a scalar that is not ASCII belongs to a run of word characters (the runs whose
    /// name-search parts are added): a letter, a number or a combining mark.
    static func isRunScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil || properties.generalCategory == .nonspacingMark
    }

    /// The work of ``indexed(_:)`` on one text's bytes.
    ///
    /// The output is the text with a space on each side of every Han or kana character, then,
    /// after a line break, the parts of each run of word characters that name search splits
    /// into more than one word. Parts of runs that are all ASCII are kept as written in an
    /// ASCII text and lowercased in any other (as ``NameTokenizer/words(in:)`` gives them):
    /// the full-text index folds case, but a contentless index deletes a row by the text it
    /// indexed, so the text given for a stored text never changes from one version to the next.
    private struct IndexedWords {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Whether the whole text is ASCII.
        let isASCII: Bool
        /// The text with CJK characters spaced out, from the first one on; nil while there is none.
        var spaced: [UInt8]?
        /// The bytes up to which `spaced` holds the text.
        var copied = 0
        /// Where the current run of word characters starts (-1: none) and whether it has non-ASCII.
        var runStart = -1
        var runIsASCII = true
        /// What an ASCII run holds: it is one word to name search (most are), and needs no split,
        /// unless it mixes digits and letters, or holds a lowercase letter and a capital that
        /// is not its first character.
        var runHasDigit = false, runHasLetter = false, runHasLower = false, runHasInnerCapital = false
        var extra: [String] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            isASCII = bytes.allSatisfy { $0 < 0x80 }
        }

        /// The indexed text, or nil when it is the text itself.
        mutating func run() -> String? {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    switch byte {
                    case 0x61...0x7A:
                        startRun(at: index)
                        runHasLetter = true
                        runHasLower = true
                    case 0x41...0x5A:
                        if runStart >= 0 { runHasInnerCapital = true } else { runStart = index }
                        runHasLetter = true
                    case 0x30...0x39:
                        startRun(at: index)
                        runHasDigit = true
                    default:
                        endRun(at: index)
                    }
                    index += 1
                    continue
                }
                let (scalar, length) = bytes.nonASCIIScalar(at: index)
                if ContentWords.isSplitCJK(scalar) {
                    endRun(at: index)
                    // The letter and the marks after it (Thai vowels and tones, kana voicing).
                    var end = index + length
                    while end < bytes.count, bytes[end] >= 0x80 {
                        let (next, nextLength) = bytes.nonASCIIScalar(at: end)
                        guard WordFolding.isMarkScalar(next) else { break }
                        end += nextLength
                    }
                    space(index..<end)
                    index = end
                    continue
                } else if ContentWords.isRunScalar(scalar) {
                    startRun(at: index)
                    runIsASCII = false
                } else {
                    endRun(at: index)
                }
                index += length
            }
            endRun(at: bytes.count)
            guard spaced != nil || !extra.isEmpty else { return nil }
            var output = spaced ?? []
            output.append(contentsOf: bytes[copied...])
            if !extra.isEmpty {
                output.append(UInt8(ascii: "\n"))
                output.append(contentsOf: extra.joined(separator: " ").utf8)
            }
            return String(decoding: output, as: UTF8.self)
        }

        private mutating func startRun(at index: Int) {
            if runStart < 0 { runStart = index }
        }

        private mutating func endRun(at end: Int) {
            guard runStart >= 0 else { return }
            defer {
                runStart = -1
                runIsASCII = true
                (runHasDigit, runHasLetter, runHasLower, runHasInnerCapital) = (false, false, false, false)
            }
            guard end - runStart > 1 else { return }
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<end])
            if runIsASCII {
                guard (runHasDigit && runHasLetter) || (runHasInnerCapital && runHasLower) else { return }
                var parts: [Range<Int>] = []
                _ = NameTokenizer.forEachASCIIWord(in: run) { parts.append($0) }
                guard parts.count > 1 else { return }
                for part in parts {
                    extra.append(isASCII
                        ? String(decoding: run[part], as: UTF8.self)
                        : String(decoding: run[part].map(NameTokenizer.lowercased), as: UTF8.self))
                }
            } else {
                // Split first, fold only the parts of a run that splits (folding is the slow part).
                let parts = NameTokenizer.words(in: String(decoding: run, as: UTF8.self), folding: { $0 })
                if parts.count > 1 { extra += parts.map(WordFolding.foldWord) }
            }
        }

        /// Copies the text up to `scalar` and the scalar with a space on each side.
        private mutating func space(_ scalar: Range<Int>) {
            if spaced == nil { spaced = []; spaced!.reserveCapacity(bytes.count + bytes.count / 2) }
            spaced!.append(contentsOf: bytes[copied..<scalar.lowerBound])
            spaced!.append(UInt8(ascii: " "))
            spaced!.append(contentsOf: bytes[scalar])
            spaced!.append(UInt8(ascii: " "))
            copied = scalar.upperBound
        }
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
        // Whether the last letter written is split (the marks after it belong to it).
        var lastWasSplit = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{200B}" || scalar.properties.isWhitespace, lastWasSplit {
                var next = index
                while next < scalars.count, scalars[next] == "\u{200B}" || scalars[next].properties.isWhitespace { next += 1 }
                if next < scalars.count, isSplitCJK(scalars[next]) {
                    index = next
                    continue
                }
            }
            if scalar != "\u{200B}" {
                output.append(scalar)
                if !WordFolding.isMarkScalar(scalar) { lastWasSplit = isSplitCJK(scalar) }
            }
            index += 1
        }
        return String(output)
    }
}
