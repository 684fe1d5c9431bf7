/// Words of letters and digits, or joined by underscores, matched as typed (issue 47):
/// `d70`, `mp3`, `ipv6`, `2024q3`, `x86_64`, `note_7_42_5`, `α1`, `한글2024`.
///
/// A name splits `Nikon D70.jpg` into the words `nikon d 70 jpg` (``NameTokenizer``: letters
/// and digits apart), and a query word was split the same way, so `d70` asked for a word
/// starting with `d` (any of thousands) and one starting with `70`. A **compound** query
/// word is matched as typed instead: its parts, in order, as consecutive words of one field,
/// every part whole but the last, which may be a prefix (as anything typed may be) — so `d7`
/// finds `Nikon D70.jpg` too, `d70` finds no `Dune 1970.pdf`, and `note_7_42_5` no
/// `note_42_7_5.txt`. In a text, a compound is its runs (what the text's tokenizer keeps
/// whole: `d70`, or `x86` and `64`), all present; the text index keeps no positions.
/// Only when the compounds, so matched, find nothing, is a search asked again with their
/// parts as words of their own (``partTokens(_:)``): what every word was before.
///
/// No second fold: parts are ``NameTokenizer``'s words (folded by ``WordFolding``), and the
/// runs their concatenations.
///
/// A query token is a `String` (what every ranking path takes): a plain word, or a compound
/// encoded as its parts joined by a space inside a run and by `_` between runs (`d 70`,
/// `x 86_64`, `note_7_42_5`). No word holds a space or an underscore, so the two never meet.
///
/// What is a compound: a run of word characters and underscores (no other separator) that
/// splits into several parts at an underscore or between a letter and a digit. A word split
/// only where its case changes (`quarterlyRep`, `HTMLParser`) stays several plain words, as
/// does a word with Han, kana, Thai or another script written without spaces (their letters
/// are matched one by one in the text, then checked as written: ``ContentWords``).
public enum CompoundWords {
    /// The query tokens of typed words, in order: plain words and compounds.
    ///
    /// ```swift
    /// CompoundWords.tokens(of: ["Nikon", "D70.jpg"])  // ["nikon", "d 70", "jpg"]
    /// CompoundWords.tokens(of: ["x86_64"])            // ["x 86_64"]
    /// ```
    ///
    /// - Parameter words: The words as typed; each is split and folded here.
    /// - Returns: The tokens every ranking path takes.
    public static func tokens(of words: [String]) -> [String] {
        var tokens: [String] = []
        for word in words {
            for segment in segments(of: word) { tokens += self.tokens(ofSegment: segment) }
        }
        return tokens
    }

    /// The tokens with every compound replaced by its parts, each a plain word; `nil` when
    /// there is no compound (nothing else to try).
    ///
    /// ```swift
    /// CompoundWords.partTokens(["nikon", "d 70", "jpg"])  // ["nikon", "d", "70", "jpg"]
    /// CompoundWords.partTokens(["report"])                // nil
    /// ```
    ///
    /// - Parameter tokens: Query tokens, as ``tokens(of:)`` makes them.
    /// - Returns: The second attempt's tokens, or `nil`.
    public static func partTokens(_ tokens: [String]) -> [String]? {
        guard tokens.contains(where: isCompound) else { return nil }
        return tokens.flatMap(parts(of:))
    }

    /// Whether a query token is a compound.
    @inline(__always)
    public static func isCompound(_ token: String) -> Bool {
        token.utf8.contains { $0 == 0x20 || $0 == 0x5F }
    }

    /// The parts of a token, in order (a plain word is its only part).
    public static func parts(of token: String) -> [String] {
        guard isCompound(token) else { return [token] }
        return token.split(whereSeparator: { $0 == " " || $0 == "_" }).map(String.init)
    }

    /// The runs of a token: what the text's tokenizer keeps as one word (`x 86_64` → `x86`,
    /// `64`; `d 70` → `d70`).
    public static func runs(of token: String) -> [String] {
        guard isCompound(token) else { return [token] }
        return token.split(separator: "_").map { $0.split(separator: " ").joined() }
    }

    /// A token as typed, folded: `d 70` → `d70`, `x 86_64` → `x86_64`.
    public static func display(_ token: String) -> String {
        String(token.split(separator: " ").joined())
    }

    /// Whether `token` matches a field whose words (folded, in order) are `words`: as a whole
    /// word (a compound: its parts as consecutive words), or as a prefix (the last part
    /// starting a word).
    ///
    /// ```swift
    /// CompoundWords.match("d 70", in: ["nikon", "d", "70", "jpg"])  // (whole: true, prefix: true)
    /// CompoundWords.match("d 7", in: ["nikon", "d", "70", "jpg"])   // (whole: false, prefix: true)
    /// ```
    ///
    /// - Parameters:
    ///   - token: A query token.
    ///   - words: A field's words, in order.
    /// - Returns: Whether it matches whole, and whether as a prefix (a whole match is also one).
    public static func match(_ token: String, in words: [String]) -> (whole: Bool, prefix: Bool) {
        guard isCompound(token) else {
            return (words.contains(token), words.contains { $0.hasPrefix(token) })
        }
        return match(parts: parts(of: token), in: words)
    }

    /// ``match(_:in:)`` of a compound's parts.
    public static func match(parts: [String], in words: [String]) -> (whole: Bool, prefix: Bool) {
        guard let last = parts.last, words.count >= parts.count else { return (false, false) }
        var whole = false, prefix = false
        for start in 0...(words.count - parts.count) {
            guard zip(parts.dropLast(), words[start...]).allSatisfy({ $0 == $1 }) else { continue }
            let word = words[start + parts.count - 1]
            if word == last { whole = true }
            if word.hasPrefix(last) { prefix = true }
            if whole { break }
        }
        return (whole, prefix)
    }

    // MARK: Splitting

    /// The runs of word characters and underscores of a typed word: anything else separates.
    static func segments(of word: String) -> [Substring] {
        word.unicodeScalars.split { !($0 == "_" || WordFolding.isWordScalar($0)) }.map { Substring($0) }
    }

    /// The tokens of one segment: one compound, or its plain words.
    static func tokens(ofSegment segment: Substring) -> [String] {
        let runs = segment.split(separator: "_").map { NameTokenizer.words(in: String($0)) }.filter { !$0.isEmpty }
        let parts = runs.flatMap { $0 }
        guard parts.count > 1,
              !segment.unicodeScalars.contains(where: WordFolding.isUnspacedLetter),
              runs.count > 1 || runs.contains(where: mixesDigits) else { return parts }
        return [runs.map { $0.joined(separator: " ") }.joined(separator: "_")]
    }

    /// Whether the words of a run hold both a number and a word that is not one.
    private static func mixesDigits(_ words: [String]) -> Bool {
        let numbers = words.filter { $0.unicodeScalars.allSatisfy { $0.properties.numericType != nil } }.count
        return numbers > 0 && numbers < words.count
    }
}
