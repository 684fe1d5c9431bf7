import Foundation

/// Splits names into searchable words.
///
/// A word boundary is any character that is neither a letter nor a digit, a change from a
/// lowercase to an uppercase letter (`testWORD` → `test word`), the last capital of a run of
/// capitals followed by a lowercase letter (`HTMLParser` → `html parser`), a change between
/// letters and digits (`report2024` → `report 2024`), and a change into or out of ideographs.
/// Words are folded by ``WordFolding/fold(_:)``, so `Résumé` gives `resume`; a word folded to
/// nothing (marks alone) is left out.
///
/// ```swift
/// NameTokenizer.words(in: "testWORD_various-2024.docx") // ["test", "word", "various", "2024", "docx"]
/// ```
///
/// The one splitter of names: the SQLite index's word triggers (`searchlight_words`), the
/// PostgreSQL rows' stored words and query words all come from it, so a name and a search
/// split the same way. Pure functions of their argument: safe from any thread. A name that is
/// all ASCII is split on its bytes without a look-up of Unicode properties; other names cost
/// one general-category look-up per scalar and a fold per word.
///
/// ## Topics
///
/// ### Splitting
///
/// - ``words(in:)``
/// - ``joinedWords(in:)``
/// - ``fold(_:)``
public enum NameTokenizer {
    /// The folded words of `name`, in order.
    ///
    /// - Parameter name: A file name, a title, any short text.
    /// - Returns: Its words, lowercase and folded, in the order they appear; empty when it has
    ///   no letter or digit.
    public static func words(in name: String) -> [String] {
        words(in: name, folding: WordFolding.foldWord)
    }

    /// The words of `name`, each non-ASCII one folded by `fold`: a caller splitting many names
    /// can remember the folds of the words it has met (``fold(_:)`` is slow on non-ASCII text).
    ///
    /// A run of ideographs stays one word; a
    /// combining mark at the start of the name, or after a separator, is dropped.
    static func words(in name: String, folding fold: (String) -> String) -> [String] {
        if let words = asciiWords(in: name) { return words }
        var words: [String] = []
        var current = String.UnicodeScalarView()
        var previous: CharacterClass = .separator
        let scalars = Array(name.unicodeScalars)
        func flush() {
            guard !current.isEmpty else { return }
            let word = fold(String(current))
            if !word.isEmpty { words.append(word) }
            current = String.UnicodeScalarView()
        }
        for (index, scalar) in scalars.enumerated() {
            let kind = CharacterClass(scalar)
            if kind == .mark {
                // A combining mark belongs to the letter before it.
                if previous == .separator { continue }
                current.append(scalar)
                continue
            }
            if kind == .separator {
                flush()
                previous = kind
                continue
            }
            var boundary = false
            switch (previous, kind) {
            case (.lowercase, .uppercase), (.digit, .uppercase), (.digit, .lowercase), (.digit, .other),
                 (.uppercase, .digit), (.lowercase, .digit), (.other, .digit),
                 (.ideograph, .uppercase), (.ideograph, .lowercase), (.ideograph, .other), (.ideograph, .digit),
                 (.uppercase, .ideograph), (.lowercase, .ideograph), (.other, .ideograph), (.digit, .ideograph):
                boundary = true
            case (.uppercase, .uppercase):
                // "HTMLParser": the "P" starts a new word when a lowercase letter follows it
                // (after any combining marks).
                var next = index + 1
                while next < scalars.count, CharacterClass(scalars[next]) == .mark { next += 1 }
                if next < scalars.count, CharacterClass(scalars[next]) == .lowercase { boundary = true }
            default:
                break
            }
            if boundary { flush() }
            current.append(scalar)
            previous = kind
        }
        flush()
        return words
    }

    /// The same split for a name that is all ASCII, on its bytes: most names, several times faster.
    ///
    /// - Returns: The lowercased words, or `nil` when the name holds a byte above `0x7F`.
    static func asciiWords(in name: String) -> [String]? {
        var name = name
        name.makeContiguousUTF8()
        return name.utf8.withContiguousStorageIfAvailable { bytes -> [String]? in
            var words: [String] = []
            let isASCII = forEachASCIIWord(in: bytes) { range in
                words.append(String(unsafeUninitializedCapacity: range.count) { buffer in
                    for offset in 0..<range.count { buffer[offset] = lowercased(bytes[range.lowerBound + offset]) }
                    return range.count
                })
            }
            return isASCII ? words : nil
        } ?? nil
    }

    /// Calls `body` with the byte range of each word of a name held as UTF-8 `bytes`, in order,
    /// when the name is all ASCII; returns `false`, calling `body` never, when it is not.
    ///
    /// The words are those of ``words(in:)``, not yet lowercased: a name can be checked
    /// against query words without making strings.
    ///
    /// Makes no allocation: `body` gets ranges into `bytes`.
    @inline(__always)
    static func forEachASCIIWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) -> Bool {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        func kind(_ byte: UInt8) -> CharacterClass {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): .lowercase
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): .uppercase
            case UInt8(ascii: "0")...UInt8(ascii: "9"): .digit
            default: .separator
            }
        }
        var start = -1
        var previous = CharacterClass.separator
        func flush(_ end: Int) {
            if start >= 0 {
                body(start..<end)
                start = -1
            }
        }
        for index in 0..<bytes.count {
            let current = kind(bytes[index])
            if current == .separator {
                flush(index)
            } else {
                let boundary: Bool
                switch (previous, current) {
                case (.lowercase, .uppercase), (.digit, .uppercase), (.digit, .lowercase),
                     (.uppercase, .digit), (.lowercase, .digit):
                    boundary = true
                case (.uppercase, .uppercase):
                    boundary = index + 1 < bytes.count && kind(bytes[index + 1]) == .lowercase
                default:
                    boundary = false
                }
                if boundary { flush(index) }
                if start < 0 { start = index }
            }
            previous = current
        }
        flush(bytes.count)
        return true
    }

    /// The first value `body` returns for the runs of a text held as UTF-8 `bytes`, called
    /// with each run in order, and whether it is all ASCII; `nil` when it returns none.
    ///
    /// A run is bytes of ASCII letters and digits or above `0x7F`, between ASCII separators
    /// (which separate words in every script): an ASCII run is split by
    /// ``forEachASCIIWord(in:_:)`` in place, any other by ``words(in:)``, and the words of the
    /// runs are the words of the text. For scanning long texts without making their words.
    @inline(__always)
    static func firstRun<T>(in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ run: Range<Int>, _ isASCII: Bool) -> T?) -> T? {
        // A byte of a longer character, an ASCII digit, or an ASCII letter in either case:
        // three comparisons (four ranges tested one by one scanned a sixth slower).
        @inline(__always) func isWordByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte &- 0x30 < 10 || (byte | 0x20) &- 0x61 < 26
        }
        var index = 0
        while index < bytes.count {
            guard isWordByte(bytes[index]) else {
                index += 1
                continue
            }
            var end = index
            var isASCII = true
            while end < bytes.count, isWordByte(bytes[end]) {
                if bytes[end] >= 0x80 { isASCII = false }
                end += 1
            }
            if let found = body(index..<end, isASCII) { return found }
            index = end
        }
        return nil
    }

    /// An ASCII byte in lowercase.
    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    /// Whether the bytes from `start` begin with `token` (lowercase ASCII) when lowercased;
    /// the caller makes sure there are at least `token.count` of them.
    @inline(__always)
    static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, startWith token: [UInt8]) -> Bool {
        for index in token.indices where lowercased(bytes[start + index]) != token[index] { return false }
        return true
    }

    /// The words of `name` joined by single spaces: the text given to the full-text index.
    ///
    /// ```swift
    /// NameTokenizer.joinedWords(in: "HTMLParser v2.txt")  // "html parser v 2 txt"
    /// ```
    public static func joinedWords(in name: String) -> String {
        words(in: name).joined(separator: " ")
    }

    /// Lowercases `text` and removes its diacritics (`Élan` → `elan`): ``WordFolding/fold(_:)``,
    /// the one fold of the index and of queries.
    ///
    /// Kept here for callers that split and fold names; it adds nothing to
    /// ``WordFolding/fold(_:)``.
    public static func fold(_ text: String) -> String {
        WordFolding.fold(text)
    }

    /// What a scalar is to the splitter: the boundaries depend on the classes of consecutive
    /// scalars only (and, for a run of capitals, on the next one).
    private enum CharacterClass: Equatable {
        case separator, lowercase, uppercase, digit, ideograph, other, mark

        /// One general-category lookup per scalar (ASCII without any).
        init(_ scalar: Unicode.Scalar) {
            switch scalar.value {
            case 0x61...0x7A: self = .lowercase
            case 0x41...0x5A: self = .uppercase
            case 0x30...0x39: self = .digit
            case 0..<0x80: self = .separator
            default:
                switch scalar.properties.generalCategory {
                case .lowercaseLetter: self = .lowercase
                case .uppercaseLetter, .titlecaseLetter: self = .uppercase
                case .decimalNumber: self = .digit
                case .otherLetter: self = scalar.properties.isIdeographic ? .ideograph : .other
                case .modifierLetter, .letterNumber, .otherNumber: self = .other
                case .nonspacingMark, .spacingMark, .enclosingMark: self = .mark
                // Joiners, soft hyphens and bidi controls stay inside a word (folding removes
                // them); U+200B separates words (WordFolding.isWordScalar).
                case .format: self = scalar.value == 0x200B ? .separator : .mark
                default: self = .separator
                }
            }
        }
    }
}
