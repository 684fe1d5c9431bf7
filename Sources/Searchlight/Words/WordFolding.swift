import Foundation

/// The one normalizer of words: what the index stores and what a query looks for are both
/// folded here — names and text, SQLite (through ``SearchlightTokenizer``) and PostgreSQL
/// (whose word vectors Swift makes), the library, the page and the desktop service.
///
/// Folding is Spotlight's `cd` (case- and diacritic-insensitive), for every script:
///
/// 1. lowercase (`İ` → `i̇`, `Σ` → `σ`);
/// 2. compatibility decomposition (NFKD): `é` → `e` + U+0301, `ＡＢＣ` → `ABC`, `ﬁ` → `fi`,
///    half-width kana to full-width;
/// 3. nonspacing marks are removed (``isFoldedAway(_:)``), in every script: Latin, Greek and
///    Cyrillic diacritics (`ενάρετος` = `εναρετος`, `ёлка` = `елка`, `ї` = `і`), Hebrew points,
///    Arabic harakat and hamza marks, Thai tone marks, kana voicing (`が` = `か`), viramas; and
///    the invisible characters inside words (joiners, soft hyphens, bidi controls, variation
///    selectors). A word is found whether typed with or without them;
/// 4. what is left is recomposed (NFC): Hangul syllables come back whole (their jamo are
///    letters, not marks), and spacing vowel signs (most Indic ones) stay in their word;
/// 5. final sigma is sigma, `ß` is `ss` and the dotless `ı` is `i` (whose capital is `I`).
///
/// `fold(fold(x)) == fold(x)`, and a text folds the same whether it arrived composed or
/// decomposed.
///
/// ```swift
/// WordFolding.fold("Élan Vital")  // "elan vital"
/// WordFolding.fold("Straße")      // "strasse"
/// WordFolding.fold("ёлка")        // "елка"
/// WordFolding.foldWord("½")       // "12"
/// ```
///
/// Pure functions: safe from any thread. ASCII text costs a lowercasing; any other text a
/// decomposition, a pass over its scalars and, when needed, a recomposition, which is why
/// callers that fold many words (a name search over a whole index) remember the folds they
/// have met.
///
/// ## Topics
///
/// ### Folding
///
/// - ``fold(_:)``
/// - ``foldWord(_:)``
/// - ``isFoldedAway(_:)``
///
/// ### What a word is made of
///
/// - ``isWordScalar(_:)``
/// - ``isMarkScalar(_:)``
/// - ``isUnspacedLetter(_:)``
/// - ``unspacedParts(of:)``
public enum WordFolding {
    /// `text` folded (see the type's documentation).
    ///
    /// - Parameter text: Any text, a word or a whole document's; ASCII text is only lowercased.
    /// - Returns: The folded text: lowercase, without marks, recomposed; folding it again
    ///   changes nothing.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var scalars = String.UnicodeScalarView()
        var recompose = false
        for scalar in UnicodeNormalization.normalized(text.lowercased(), .KD).unicodeScalars {
            if isFoldedAway(scalar) { continue }
            switch scalar.value {
            case 0x3C2: scalars.append("\u{3C3}")
            case 0xDF, 0x1E9E: scalars.append(contentsOf: "ss".unicodeScalars)
            case 0x131: scalars.append("i")   // Turkish dotless ı: `ISIK` finds `Işık`
            case 0x41...0x5A: scalars.append(Unicode.Scalar(scalar.value | 0x20)!)
            case 0..<0x80: scalars.append(scalar)
            default:
                recompose = true
                // Compatibility forms may decompose to capitals (`Ⅻ` → `XII`, `㎒` → `MHz`).
                if scalar.properties.changesWhenLowercased {
                    scalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                } else {
                    scalars.append(scalar)
                }
            }
        }
        let folded = String(scalars)
        return recompose ? UnicodeNormalization.normalized(folded, .C) : folded
    }

    /// A word (a run of word scalars) folded: ``fold(_:)``, without the characters that are
    /// not word scalars which a compatibility decomposition may bring (`½` → `1⁄2` → `12`,
    /// `⑴` → `(1)` → `1`), so that a word's fold is always one word of the index.
    ///
    /// - Parameter word: A run of word scalars (``isWordScalar(_:)``).
    /// - Returns: Its fold, with only word scalars; possibly empty (a word of marks alone).
    public static func foldWord(_ word: String) -> String {
        let folded = fold(word)
        guard !folded.unicodeScalars.allSatisfy(isWordScalar) else { return folded }
        return String(String.UnicodeScalarView(folded.unicodeScalars.filter(isWordScalar)))
    }

    /// Whether a (decomposed) scalar is removed by folding: a nonspacing or enclosing mark
    /// (diacritics, points, harakat, tone marks, kana voicing, viramas, the vowel signs written
    /// above or below a letter), or a character that is invisible inside a word (joiners, soft
    /// hyphen, bidi controls, word joiner, BOM; not U+200B, which separates words).
    ///
    /// Spacing marks (Mc: most Indic vowel signs) stay: they are letters' own shapes, and a
    /// word typed without them is another word.
    @inline(__always)
    public static func isFoldedAway(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return scalar.value == 0xAD }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        case .format: return scalar.value != 0x200B
        default: return false
        }
    }

    /// Whether a scalar belongs to a word: a letter, a number, a mark, or a format character
    /// (joiners and soft hyphens are inside words; U+200B, the zero-width space, is not).
    ///
    /// The one definition of a word character, shared by ``NameTokenizer`` (query words and
    /// names) and ``SearchlightTokenizer`` (the full-text index): a query word is always one
    /// word of the index, never a phrase.
    @inline(__always)
    public static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0..<0x80, 0x200B: return false
        default:
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber,
                 .nonspacingMark, .spacingMark, .enclosingMark, .format:
                return true
            default:
                return false
            }
        }
    }

    /// Whether a scalar is a mark or a format character: it belongs to the letter before it
    /// and never starts a word.
    @inline(__always)
    public static func isMarkScalar(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return scalar.value == 0xAD }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        case .format: return scalar.value != 0x200B
        default: return false
        }
    }

    /// Whether a scalar is a letter of a script written without spaces between words — Han,
    /// hiragana, katakana, Thai, Lao, Khmer, Myanmar. The text index keeps each such letter
    /// (with the marks that follow it) as a word of its own, and a query word of these scripts
    /// is found as those letters, then checked as written in the stored text: a word is found
    /// wherever it stands, whatever breaks an extractor put in the text.
    ///
    /// Answers at once for every scalar below U+0E00 (all of Latin, Greek, Cyrillic, Arabic,
    /// Hebrew, Devanagari…), without a look-up of its properties.
    @inline(__always)
    public static func isUnspacedLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0xE00: return false
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9D: return true
        case 0xE00...0xEFF, 0x1000...0x109F, 0x1780...0x17FF, 0x19E0...0x19FF, 0xA9E0...0xA9FF, 0xAA60...0xAA7F:
            // Thai, Lao, Myanmar, Khmer: their letters, not their marks nor digits.
            switch scalar.properties.generalCategory {
            case .otherLetter, .modifierLetter: return true
            default: return false
            }
        default: return scalar.properties.isIdeographic
        }
    }

    /// A word of unspaced letters split as the text index splits it: each letter with the
    /// marks after it (`กิน` → `กิ`, `น`); other parts of the word stay runs (`東京2024` →
    /// `東`, `京`, `2024`).
    ///
    /// A word with no unspaced letter is returned whole, as the only part, without a copy.
    public static func unspacedParts(of word: String) -> [String] {
        guard word.unicodeScalars.contains(where: isUnspacedLetter) else { return [word] }
        var parts: [String] = []
        var current = String.UnicodeScalarView()
        var currentIsUnspaced = false
        for scalar in word.unicodeScalars {
            if isMarkScalar(scalar) {
                current.append(scalar)
                continue
            }
            let unspaced = isUnspacedLetter(scalar)
            if !current.isEmpty && (unspaced || currentIsUnspaced) {
                parts.append(String(current))
                current = String.UnicodeScalarView()
            }
            current.append(scalar)
            currentIsUnspaced = unspaced
        }
        if !current.isEmpty { parts.append(String(current)) }
        return parts.map(foldWord).filter { !$0.isEmpty }
    }
}
