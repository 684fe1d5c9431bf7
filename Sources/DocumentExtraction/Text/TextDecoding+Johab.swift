extension TextDecoding {
    /// Whether `bytes` are Korean in Johab (KS X 1001:1992 annex 3, Windows code page 1361),
    /// which ICU's detector does not know and reads as another encoding.
    ///
    /// Johab writes a Hangul syllable as 16 bits: a set high bit, then five bits each for its
    /// initial consonant, its vowel and its final consonant, each from a small set of values
    /// (a lead byte 0x84–0xD3); Hanja and symbols take lead bytes 0xD8–0xDE and 0xE0–0xF9. So
    /// the text is Johab when nearly every high byte starts such a pair, the pairs spell at
    /// least eight syllables, and one pair at least is not EUC-KR (a byte below 0xA1: EUC-KR,
    /// which ICU knows, is left to it). Cyrillic, Greek, CJK or Latin text in its own encoding
    /// makes impossible jamo within a few pairs.
    static func looksLikeJohab(_ bytes: [UInt8]) -> Bool {
        let sample = bytes.prefix(65_536)
        var syllables = 0, invalid = 0
        var outsideEUCKR = false
        var index = sample.startIndex
        while index < sample.endIndex {
            let lead = sample[index]
            guard lead >= 0x80 else {
                index += 1
                continue
            }
            guard index + 1 < sample.endIndex else { break }
            let trail = sample[index + 1]
            if let isSyllable = johabPair(lead: lead, trail: trail) {
                if isSyllable { syllables += 1 }
                if lead < 0xA1 || trail < 0xA1 { outsideEUCKR = true }
                index += 2
            } else {
                invalid += 1
                index += 1
            }
        }
        return syllables >= 8 && invalid * 50 <= syllables && outsideEUCKR
    }

    /// Whether `lead` and `trail` are a Johab character: nil when they are not, true for a
    /// Hangul syllable (initial and vowel written), false for another character (a lone jamo,
    /// a Hanja, a symbol).
    static func johabPair(lead: UInt8, trail: UInt8) -> Bool? {
        switch lead {
        case 0x84...0xD3:
            guard (0x41...0x7E).contains(trail) || (0x81...0xFE).contains(trail) else { return nil }
            let code = UInt16(lead) << 8 | UInt16(trail)
            let initial = (code >> 10) & 0x1F, vowel = (code >> 5) & 0x1F, final = code & 0x1F
            // Initial: 1 is the filler, 2–20 the 19 consonants. Vowel: 2 the filler, then the 21
            // vowels in four runs. Final: 1 the filler, 2–17 and 19–29 the 27 finals.
            guard (1...20).contains(initial), johabVowels.contains(vowel), (1...29).contains(final), final != 18 else {
                return nil
            }
            return initial != 1 && vowel != 2
        case 0xD8...0xDE, 0xE0...0xF9:
            guard (0x31...0x7E).contains(trail) || (0x91...0xFE).contains(trail) else { return nil }
            return false
        default:
            return nil
        }
    }

    /// The five bits of Johab's vowels (and 2, the filler).
    private static let johabVowels: Set<UInt16> = [2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 18, 19, 20, 21, 22, 23, 26, 27, 28, 29]

    /// The names a document may declare for Johab (ICU knows none of them).
    static let johabNames: Set<String> = ["johab", "cp1361", "ms1361", "x-johab", "windows-1361", "ks_c_5601-1992"]

    /// Johab text decoded by glibc's `iconv(3)` (ICU has no Johab converter), through the
    /// decoder RTF's code pages use; bytes it cannot convert become U+FFFD.
    static func decodeJohab(_ bytes: [UInt8]) -> Decoded {
        Decoded(text: CodePageDecoder().decode(bytes, codePage: 1361), charset: "JOHAB")
    }
}
