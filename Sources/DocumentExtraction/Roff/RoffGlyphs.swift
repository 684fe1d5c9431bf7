import Foundation

/// The characters that roff names rather than writes: special characters (`\(em`,
/// `\[u00E9]`, `\[char233]`) and the predefined strings of the man and mdoc packages (`\*R`,
/// `\*(lq`), as groff_char(7) and mandoc_char(7) list them — the common ones; a name not in
/// the table gives nothing.
enum RoffGlyphs {
    /// The text of the special character `name` (the part between `\[` and `]`, or the two
    /// characters after `\(`), nil when unknown.
    ///
    /// ```swift
    /// RoffGlyphs.character(named: "em")        // "—"
    /// RoffGlyphs.character(named: "u00E9")     // "é"
    /// RoffGlyphs.character(named: "char233")   // "é"
    /// ```
    static func character(named name: String) -> String? {
        if let text = characters[name] { return text }
        if name.count >= 2, name.hasPrefix("*"), let text = greek(name.dropFirst()) { return text }
        if name.count == 2, let text = accented(name) { return text }
        if name.hasPrefix("u"), name.count >= 5 { return unicode(name.dropFirst()) }
        if name.hasPrefix("char"), let code = UInt32(name.dropFirst(4)), code < 256, let scalar = Unicode.Scalar(code) {
            return String(scalar)
        }
        return nil
    }

    /// The text of the predefined string `name` (`\*R`, `\*(Tm`, `\*[lq]`), nil when unknown.
    static func string(named name: String) -> String? { strings[name] }

    /// `\[u00E9]`, `\[u0065_0301]`: code points in hexadecimal, joined by `_`.
    private static func unicode(_ hex: Substring) -> String? {
        var text = ""
        for part in hex.split(separator: "_", omittingEmptySubsequences: false) {
            guard (4...6).contains(part.count), let value = UInt32(part, radix: 16), let scalar = Unicode.Scalar(value) else {
                return nil
            }
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    /// `\(*a` … `\(*W`: the Greek letters, in the order groff spells them.
    private static func greek(_ letter: Substring) -> String? {
        guard letter.count == 1, let character = letter.first else { return nil }
        let spelling = Array("abgdezyhiklmncoprstufxqw")
        let lower = character.lowercased().first ?? character
        guard let position = spelling.firstIndex(of: lower) else { return nil }
        // α…ρ are U+03B1…U+03C1; σ…ω skip the final sigma, U+03C2.
        var value = 0x3B1 + UInt32(position) + (position >= 17 ? 1 : 0)
        if character.isUppercase { value -= 0x20 }
        return Unicode.Scalar(value).map { String($0) }
    }

    /// `\('e`, `\(:o`, `\(^a`, `` \(`a ``, `\(~n`, `\(,c`, `\(oa`: a letter with an accent, composed.
    private static func accented(_ name: String) -> String? {
        let scalars = Array(name.unicodeScalars)
        guard let accent = accents[scalars[0]], scalars[1].properties.isAlphabetic, scalars[1].isASCII else { return nil }
        // One precomposed letter where Unicode has one (é), else the letter and its combining mark.
        return (String(scalars[1]) + String(accent)).precomposedStringWithCanonicalMapping
    }

    /// The combining marks of groff's accent prefixes.
    private static let accents: [Unicode.Scalar: Unicode.Scalar] = [
        "'": "\u{301}", "`": "\u{300}", ":": "\u{308}", "^": "\u{302}", "~": "\u{303}", ",": "\u{327}",
        "o": "\u{30A}", "v": "\u{30C}", "\"": "\u{30B}",
    ]

    private static let characters: [String: String] = [
        // Dashes, quotes, spaces.
        "em": "—", "en": "–", "hy": "-", "mi": "−", "aq": "'", "dq": "\"", "lq": "“", "rq": "”", "oq": "‘",
        "cq": "’", "Bq": "„", "bq": "‚", "Fo": "«", "Fc": "»", "fo": "‹", "fc": "›", "ga": "`", "aa": "´",
        "ha": "^", "ti": "~", "a~": "~", "a^": "^", "ad": "¨", "a-": "¯", "a.": "˙", "ab": "˘", "ac": "¸",
        "ah": "ˇ", "ao": "˚", "a\"": "˝", "ho": "˛",
        // Punctuation and symbols.
        "bu": "•", "ci": "○", "sq": "□", "co": "©", "rg": "®", "tm": "™", "de": "°", "dg": "†", "dd": "‡",
        "sc": "§", "ps": "¶", "ct": "¢", "Po": "£", "Ye": "¥", "Eu": "€", "eu": "€", "Cs": "¤", "at": "@",
        "sh": "#", "Do": "$", "bs": "\\", "rs": "\\", "sl": "/", "ba": "|", "br": "│", "bb": "¦", "ul": "_",
        "ru": "_", "rn": "‾", "r!": "¡", "r?": "¿", "pc": "·", "lB": "[", "rB": "]", "lC": "{", "rC": "}",
        "la": "⟨", "ra": "⟩", "fm": "′", "sd": "″", "%0": "‰", "OK": "✓", "ss": "ß", "ff": "ff", "fi": "fi",
        "fl": "fl", "Fi": "ffi", "Fl": "ffl", "AE": "Æ", "ae": "æ", "OE": "Œ", "oe": "œ", "/O": "Ø", "/o": "ø",
        "-D": "Ð", "Sd": "ð", "TP": "Þ", "Tp": "þ", "/L": "Ł", "/l": "ł", ".i": "ı", ".j": "ȷ", "IJ": "Ĳ",
        "ij": "ĳ",
        // Arrows and mathematics.
        "->": "→", "<-": "←", "<>": "↔", "ua": "↑", "da": "↓", "rA": "⇒", "lA": "⇐", "hA": "⇔", "uA": "⇑",
        "dA": "⇓", "lh": "☜", "rh": "☞", "pl": "+", "eq": "=", "mu": "×", "di": "÷", "+-": "±", "-+": "∓",
        "<=": "≤", ">=": "≥", "!=": "≠", "==": "≡", "=~": "≅", "~~": "≈", "ap": "∼", "pt": "∝", "if": "∞",
        "**": "∗", "sr": "√", "no": "¬", "AN": "∧", "OR": "∨", "es": "∅", "mo": "∈", "nm": "∉", "sb": "⊂",
        "sp": "⊃", "ib": "⊆", "ip": "⊇", "ca": "∩", "cu": "∪", "fa": "∀", "te": "∃", "pd": "∂", "gr": "∇",
        "is": "∫", "integral": "∫", "sum": "∑", "product": "∏", "12": "½", "14": "¼", "34": "¾", "S1": "¹",
        "S2": "²", "S3": "³", "Ah": "ℵ", "Im": "ℑ", "Re": "ℜ", "wp": "℘", "md": "⋅", "tf": "∴", "3d": "∴",
        "st": "∋", "lz": "◊", "HE": "♥", "SP": "♠", "CL": "♣", "DI": "♦", "ts": "ς", "+h": "ϑ", "+f": "ϕ",
        "+p": "ϖ", "+e": "ϵ", "ne": "≢", "Ci": "⊙", "c*": "⊗", "c+": "⊕", "lf": "⌊", "rf": "⌋", "lc": "⌈",
        "rc": "⌉", "or": "|",
        // Spaces that roff also names.
        "space": " ", "nbsp": "\u{A0}",
    ]

    private static let strings: [String: String] = [
        // man(7)
        "R": "®", "Tm": "™", "lq": "“", "rq": "”", "S": "",
        // mdoc(7)
        "q": "\"", "Ba": "|", "Ne": "≠", "Le": "≤", "Ge": "≥", "Lt": "<", "Gt": ">", "Pm": "±", "If": "∞", "Pi": "π",
        "Na": "NaN", "Am": "&", "Lq": "“", "Rq": "”", "Aq": "'",
        // Pod::Man's preamble, for the pages whose preamble defines them in branches we skip.
        "L\"": "“", "R\"": "”", "C+": "C++", "C`": "", "C'": "", "PI": "π", "--": "—",
    ]
}
