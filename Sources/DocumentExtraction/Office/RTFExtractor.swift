import ExtractionProtocol

/// Reads RTF with a tokenizer of our own: groups, control words and symbols, `\'hh` bytes in
/// the document's code page (`\ansicpg`, or a font's `\fcharset`), `\uN` characters with their
/// `\ucN` fallbacks, and the `\info` group's title, author, subject, keywords and dates.
/// Pictures, font and colour tables, style sheets, field instructions and every destination
/// marked `\*` are skipped.
///
/// The whole file is in memory, read once from start to end in linear time; parsing stops
/// as soon as the text limit is reached, so metadata written after the body would be missed
/// (the RTF specification puts `\info` in the header, before it). Groups nest on a heap stack, so no
/// document can exhaust the thread's stack. Stateless: it may run on several threads at once.
///
/// ```swift
/// let document = try RTFExtractor.extract(bytes: Array(rtfData), textLimit: 1 << 20)
/// ```
public enum RTFExtractor {
    /// Reads an RTF document's metadata and at most `textLimit` bytes of its text.
    ///
    /// Dates of `\creatim` and `\revtim` are read as UTC (RTF gives no zone). The author is one
    /// person: the `\author` field as written; `\doccomm` is the subject when there is no
    /// `\subject`.
    ///
    /// - Throws: ``ExtractionFailure/Reason-swift.enum/decodeFailed`` when `bytes` do not start
    ///   with `{\rtf`.
    /// - Parameters:
    ///   - bytes: The whole RTF file.
    ///   - textLimit: The most UTF-8 bytes of text kept.
    /// - Returns: The metadata of the `\info` group and the text of the body.
    public static func extract(bytes: [UInt8], textLimit: Int) throws(ExtractionFailure) -> ExtractedDocument {
        guard bytes.starts(with: Array("{\\rtf".utf8)) else {
            throw ExtractionFailure(.decodeFailed, "not an RTF document (no {\\rtf header)")
        }
        var parser = RTFParser(bytes: bytes, textLimit: textLimit)
        parser.run()
        var result = ExtractedDocument()
        result.title = parser.info["title"].nonBlank
        if let author = parser.info["author"].nonBlank { result.authors = [author] }
        result.subject = parser.info["subject"].nonBlank ?? parser.info["doccomm"].nonBlank
        result.keywords = MetadataList.keywords(parser.info["keywords"] ?? "")
        result.creationDate = parser.creationDate
        result.modificationDate = parser.revisionDate
        result.setText(parser.text)
        return result
    }
}

/// The state machine behind ``RTFExtractor``.
///
/// One parser reads one document, once: ``run()`` walks the bytes, and the results are in
/// ``text``, ``info``, ``creationDate`` and ``revisionDate``. Bytes of the current code page
/// are gathered and decoded together (``flush()``) whenever the code page, the destination or
/// the group may change, so a multi-byte character split across `\'hh` escapes (Shift-JIS,
/// GBK) decodes whole.
struct RTFParser {
    /// What a group inherits from its parent and may change for itself: saved on `{`, restored
    /// on `}`.
    private struct GroupState {
        /// Text of this group goes nowhere (a skipped destination).
        var skipping = false
        /// The `\info` field this group's text goes to, if any.
        var infoField: String?
        /// Fallback characters to skip after `\uN` (`\ucN`).
        var unicodeSkip = 1
        /// The code page of the current font.
        var codePage: Int?
        /// Inside `\fonttbl`: the font being declared.
        var inFontTable = false
        /// Inside `\creatim` or `\revtim`.
        var dateField: String?
        /// Inside `\ud`: the Unicode version of the `\upr` group's text, which replaces the
        /// ANSI version read before it (Word writes `\info` fields in a non-Latin code page so).
        var isUnicodeVersion = false
    }

    /// Destinations whose text is not document text.
    ///
    /// Headers, footers, comments and list numbers (`listtext`, `pntext`) are skipped too:
    /// repeated on every page, or generated, they are not the body's text.
    private static let skippedDestinations: Set<String> = [
        "fonttbl", "colortbl", "stylesheet", "pict", "listtable", "listoverridetable", "rsidtbl",
        "generator", "xmlnstbl", "themedata", "colorschememapping", "datastore", "latentstyles",
        "fldinst", "object", "objdata", "header", "footer", "headerl", "headerr", "headerf",
        "footerl", "footerr", "footerf", "filetbl", "revtbl", "bkmkstart", "bkmkend", "nonshppict",
        "shpinst", "private", "operator", "company", "category", "manager", "hlinkbase", "comment",
        "pgdsctbl", "wgrffmtfilter", "mmathPr", "listtext", "pntext",
    ]
    /// The `\info` fields read; the others (`\operator`, `\company`…) are skipped.
    private static let infoFields: Set<String> = ["title", "author", "subject", "keywords", "doccomm"]
    /// `\fcharset` values and their Windows code pages.
    ///
    /// A charset not listed leaves the font in the document's code page.
    private static let charsetCodePages: [Int: Int] = [
        0: 1252, 77: 10000, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254,
        163: 1258, 177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250,
    ]

    private let bytes: [UInt8]
    /// The position of the next byte to read in ``bytes``.
    private var index = 0
    /// The states of the enclosing groups, innermost last; at most 10 000 deep.
    private var stack: [GroupState] = []
    private var state = GroupState()
    /// The code page of `\ansicpg` (or `\mac`, `\pc`, `\pca`); Windows-1252 when none is given.
    private var documentCodePage = 1252
    /// Each font's code page, from `\fcharset` or `\cpg` in the font table.
    private var fontCodePages: [Int: Int] = [:]
    /// The font being declared in the font table.
    private var currentFont: Int?
    /// Bytes read and not yet decoded (``flush()``).
    private var pendingBytes: [UInt8] = []
    /// Fallback characters still to skip after a `\uN` (as `\ucN` said).
    private var pendingSkip = 0
    /// Decodes the bytes of Windows, Mac and DOS code pages.
    private let decoder = CodePageDecoder()
    /// The `\yr`, `\mo`, `\dy`, `\hr`, `\min` and `\sec` of the date group being read.
    private var dateParts: [String: Int] = [:]

    /// The document's text, up to the limit.
    var text: TextCollector
    /// The `\info` fields read, by control word (`title`, `author`…), undecorated.
    var info: [String: String] = [:]
    /// `\creatim`, as seconds since 1970 (UTC).
    var creationDate: Double?
    /// `\revtim`, as seconds since 1970 (UTC).
    var revisionDate: Double?

    /// A parser at the start of `bytes`, keeping at most `textLimit` bytes of text.
    init(bytes: [UInt8], textLimit: Int) {
        self.bytes = bytes
        self.text = TextCollector(limit: textLimit)
    }

    /// Reads the document to its end, or until the text is full: groups, control words and
    /// symbols, and the bytes between them. Line ends in the source are not text (`\par` is).
    mutating func run() {
        // Nested 100 000 deep or not, the stack lives on the heap; past this depth groups are
        // flattened, which is harmless for text.
        let maximumDepth = 10_000
        while index < bytes.count, !text.isFull {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                flush()
                index += 1
                if stack.count < maximumDepth { stack.append(state) }
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "*") {
                    state.skipping = true
                    index += 2
                }
            case UInt8(ascii: "}"):
                flush()
                index += 1
                finishGroup()
                if let previous = stack.popLast() { state = previous }
            case UInt8(ascii: "\\"):
                index += 1
                readControl()
            case 0x0D, 0x0A:
                index += 1
            default:
                index += 1
                if pendingSkip > 0 {
                    pendingSkip -= 1
                } else {
                    emitByte(byte)
                }
            }
        }
        flush()
    }

    /// At a `}`: a date group that ends turns its parts into ``creationDate`` or
    /// ``revisionDate``; a date without year, month or day, or with an impossible one, is
    /// dropped.
    private mutating func finishGroup() {
        if let field = state.dateField {
            let parts = dateParts
            dateParts = [:]
            if let year = parts["yr"], let month = parts["mo"], let day = parts["dy"], (1...12).contains(month), (1...31).contains(day) {
                let seconds = Double(DocumentDate.daysFromCivil(year: year, month: month, day: day)) * 86_400
                    + Double((parts["hr"] ?? 0) * 3600 + (parts["min"] ?? 0) * 60 + (parts["sec"] ?? 0))
                if field == "creatim" { creationDate = seconds } else { revisionDate = seconds }
            }
        }
    }

    /// Reads a control word (letters, an optional signed parameter of at most ten digits, and
    /// the one space that ends it) or a control symbol, after its backslash.
    private mutating func readControl() {
        guard index < bytes.count else { return }
        let first = bytes[index]
        guard isLetter(first) else {
            index += 1
            controlSymbol(first)
            return
        }
        let start = index
        while index < bytes.count, isLetter(bytes[index]) { index += 1 }
        let word = String(decoding: bytes[start..<index], as: UTF8.self)
        var parameter: Int?
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var digits = 0
        var value = 0
        while index < bytes.count, (0x30...0x39).contains(bytes[index]), digits < 10 {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            digits += 1
        }
        if digits > 0 { parameter = negative ? -value : value }
        if index < bytes.count, bytes[index] == 0x20 { index += 1 }
        controlWord(word, parameter)
    }

    /// A control symbol: `\'hh` is a byte of the code page; `\\`, `\{` and `\}` the characters
    /// themselves; `\~` a space; `\_` a hyphen; a backslash before a line end a break. Others
    /// (`\-`, `\|`…) give nothing.
    private mutating func controlSymbol(_ symbol: UInt8) {
        switch symbol {
        case UInt8(ascii: "'"):
            guard index + 2 <= bytes.count, let value = UInt8(String(decoding: bytes[index..<index + 2], as: UTF8.self), radix: 16) else { return }
            index += 2
            if pendingSkip > 0 { pendingSkip -= 1 } else { emitByte(value) }
        case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"):
            if pendingSkip > 0 { pendingSkip -= 1 } else { emitByte(symbol) }
        case UInt8(ascii: "~"):
            emitText(" ")
        case UInt8(ascii: "_"):
            emitText("-")
        case 0x0A, 0x0D:
            emitBreak()
        default:
            break
        }
    }

    /// A control word: code pages, Unicode characters and their fallbacks, breaks, typographic
    /// characters, fonts, the `\info` fields and dates, `\bin` data, and the destinations to skip.
    /// Any other word changes nothing.
    private mutating func controlWord(_ word: String, _ parameter: Int?) {
        switch word {
        case "ansicpg":
            if let parameter, parameter > 0 { documentCodePage = parameter }
        case "mac": documentCodePage = 10000
        case "pc": documentCodePage = 437
        case "pca": documentCodePage = 850
        case "uc":
            state.unicodeSkip = max(0, parameter ?? 1)
        case "u":
            guard let parameter else { return }
            flush()
            // Values above 32767 are written as negative 16-bit numbers.
            let value = parameter < 0 ? parameter + 65_536 : parameter
            emitText(UInt32(exactly: value).flatMap(Unicode.Scalar.init).map { String(Character($0)) } ?? "\u{FFFD}")
            pendingSkip = state.unicodeSkip
        case "par", "line", "row", "sect", "page":
            emitBreak()
        case "tab":
            emitText("\t")
        case "cell":
            flush()
            if !state.skipping { text.appendSpace() }
        case "emdash": emitText("—")
        case "endash": emitText("–")
        case "lquote": emitText("‘")
        case "rquote": emitText("’")
        case "ldblquote": emitText("“")
        case "rdblquote": emitText("”")
        case "bullet": emitText("•")
        case "f":
            guard let parameter else { return }
            if state.inFontTable {
                currentFont = parameter
            } else {
                flush()
                state.codePage = fontCodePages[parameter]
            }
        case "fcharset":
            if state.inFontTable, let font = currentFont, let parameter, let codePage = Self.charsetCodePages[parameter] {
                fontCodePages[font] = codePage
            }
        case "cpg":
            if state.inFontTable, let font = currentFont, let parameter, parameter > 0 { fontCodePages[font] = parameter }
        case "fonttbl":
            state.skipping = true
            state.inFontTable = true
        case "ud":
            state.isUnicodeVersion = true
        case "info":
            state.skipping = true
        case "creatim", "revtim":
            state.skipping = true
            state.dateField = word
        case "yr", "mo", "dy", "hr", "min", "sec":
            if state.dateField != nil, let parameter { dateParts[word] = parameter }
        case "bin":
            // Raw binary data follows: skip it unread.
            index = min(bytes.count, index + max(0, parameter ?? 0))
        default:
            if Self.infoFields.contains(word) && stack.count >= 2 {
                flush()
                // A field given twice (LibreOffice repeats \author) keeps its first value, but
                // for its Unicode version (`{\upr{\title ???}{\*\ud{\title \u12478…}}}`).
                if state.isUnicodeVersion {
                    info[word] = nil
                } else if info[word] != nil {
                    state.skipping = true
                    return
                }
                state.infoField = word
                state.skipping = false
            } else if Self.skippedDestinations.contains(word) {
                state.skipping = true
            }
        }
    }

    /// Whether `byte` is an ASCII letter: control words are made of them.
    private func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// Gathers a byte of text, unless the group is skipped (an `\info` field's group is not).
    private mutating func emitByte(_ byte: UInt8) {
        guard !state.skipping || state.infoField != nil else { return }
        pendingBytes.append(byte)
    }

    /// Sends text that needs no decoding to the current `\info` field or the document's text.
    private mutating func emitText(_ string: String) {
        flush()
        if let field = state.infoField {
            info[field, default: ""] += string
        } else if !state.skipping {
            text.append(string)
        }
    }

    /// Ends a line of the document's text; nothing in an `\info` field or a skipped group.
    private mutating func emitBreak() {
        flush()
        if state.infoField == nil, !state.skipping { text.appendBreak() }
    }

    /// Decodes the bytes gathered so far in the current code page.
    private mutating func flush() {
        guard !pendingBytes.isEmpty else { return }
        let decoded = decoder.decode(pendingBytes, codePage: state.codePage ?? documentCodePage)
        pendingBytes.removeAll(keepingCapacity: true)
        if let field = state.infoField {
            info[field, default: ""] += decoded
        } else if !state.skipping {
            text.append(decoded)
        }
    }
}
