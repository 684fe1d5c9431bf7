/// The text around the first match of search words in a document's text, for a result line.
///
/// The snippet starts a few words before the first word that matches, collapses runs of
/// white space (line breaks included) into single spaces, marks every matching word with `[`
/// `]`, and cuts at a word boundary, with `…` where text was left out; brackets and ellipses
/// included, it is at most ``maximumLength`` characters (Swift `Character`s: grapheme
/// clusters, so never half a letter or half a UTF-8 sequence).
///
/// ```swift
/// Snippet(text: "The net present value of the project…", words: ["present"])
/// // "The net [present] value of the project…"
/// ```
///
/// The snippets of ``SearchableIndex/searchResults(words:domain:limit:scope:)`` are made
/// with it, from each result's stored text; a caller that holds a text of its own (a file it
/// just read, a note in memory) makes one the same way. Making one scans the text up to its
/// first match, ASCII words compared in place without making strings, then builds at most
/// ``maximumLength`` characters: the cost is that of the text before the first match.
public struct Snippet {
    /// The longest snippet, in characters.
    public static let maximumLength = 200
    /// How many characters of context come before the first match, at most.
    static let leadingContext = 60

    /// The snippet, or `nil` when no word of the text matches.
    public let text: String?

    /// The snippet of `text` for search words (split and folded as name search splits them).
    ///
    /// A word matches when it starts with a search word, ignoring case and diacritics (or one
    /// of its parts does, `testWORD` holding `word`); a search word of Han or kana characters
    /// matches a run that contains it.
    ///
    /// - Parameters:
    ///   - text: The document's text.
    ///   - words: The search words as typed; they are split and folded here.
    public init(text: String, words: [String]) {
        let matcher = SnippetMatcher(tokens: words.flatMap(NameTokenizer.words(in:)))
        self.text = matcher.snippet(of: text)
    }
}

/// Decides which words of a text match, and builds the snippet.
struct SnippetMatcher {
    /// The folded search words (a compound as its runs), but those of Han or kana.
    let tokens: [String]
    /// The folded search words of Han or kana characters, matched anywhere in a run.
    private let cjkTokens: [String]

    /// A matcher of `tokens`, folded words as ``NameTokenizer`` makes them.
    init(tokens: [String]) {
        // A compound is its runs in a text (``CompoundWords``).
        let tokens = tokens.flatMap(CompoundWords.runs(of:))
        self.tokens = tokens.filter { !$0.unicodeScalars.contains(where: ContentWords.isSplitCJK) }
        cjkTokens = tokens.filter { $0.unicodeScalars.contains(where: ContentWords.isSplitCJK) }
    }

    /// Whether `character` belongs to a word: a letter or a digit.
    static func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber }

    /// Whether `word` of the text matches: folded, it starts with a search word, holds a Han
    /// or kana one, or one of its parts (`testWORD`: `test`, `word`) starts with a search word.
    func matches(_ word: Substring) -> Bool {
        let folded = NameTokenizer.fold(String(word))
        if tokens.contains(where: { folded.hasPrefix($0) }) { return true }
        if cjkTokens.contains(where: { folded.contains($0) }) { return true }
        let parts = NameTokenizer.words(in: String(word))
        return parts.count > 1 && parts.contains { part in tokens.contains { part.hasPrefix($0) } }
    }

    /// The range of the first matching word of `text`.
    ///
    /// Scans the UTF-8 bytes: an ASCII word (most of them) is compared with the ASCII query
    /// words in place, without making a string; a run holding other bytes is split into
    /// words as characters and folded.
    func firstMatch(in text: String) -> Range<String.Index>? {
        let asciiTokens = tokens.filter { $0.utf8.allSatisfy { $0 < 0x80 } }.map { Array($0.utf8) }
        let checksEveryWord = asciiTokens.count < tokens.count || !cjkTokens.isEmpty
        var contiguous = text
        contiguous.makeContiguousUTF8()
        let found: (Int, Int)? = contiguous.utf8.withContiguousStorageIfAvailable { bytes -> (Int, Int)? in
            NameTokenizer.firstRun(in: bytes) { run, isASCII -> (Int, Int)? in
                let (index, end) = (run.lowerBound, run.upperBound)
                if isASCII && !checksEveryWord {
                    let word = UnsafeBufferPointer(rebasing: bytes[index..<end])
                    let starts = asciiTokens.contains { $0.count <= word.count && NameTokenizer.bytes(word, at: 0, startWith: $0) }
                    // The word's parts (`testWORD` → `test`, `word`), counted and checked in
                    // place: an array of them for every word was most of a snippet's cost.
                    var parts = 0
                    var partMatches = false
                    if !starts {
                        _ = NameTokenizer.forEachASCIIWord(in: word) { part in
                            parts += 1
                            if !partMatches, asciiTokens.contains(where: {
                                $0.count <= part.count && NameTokenizer.bytes(word, at: part.lowerBound, startWith: $0)
                            }) {
                                partMatches = true
                            }
                        }
                    }
                    return starts || (parts > 1 && partMatches) ? (index, end) : nil
                }
                // Characters decide: the run may hold punctuation outside ASCII.
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                guard let range = firstMatchingWord(in: text) else { return nil }
                let start = index + text.utf8.distance(from: text.startIndex, to: range.lowerBound)
                return (start, start + text.utf8.distance(from: range.lowerBound, to: range.upperBound))
            }
        } ?? nil
        guard let (start, end) = found else { return nil }
        return text.utf8.index(text.startIndex, offsetBy: start)..<text.utf8.index(text.startIndex, offsetBy: end)
    }

    /// The range of the first matching word of `text`, by characters.
    private func firstMatchingWord(in text: String) -> Range<String.Index>? {
        var index = text.startIndex
        while index < text.endIndex {
            guard Self.isWordCharacter(text[index]) else {
                index = text.index(after: index)
                continue
            }
            var end = text.index(after: index)
            while end < text.endIndex, Self.isWordCharacter(text[end]) { end = text.index(after: end) }
            if matches(text[index..<end]) { return index..<end }
            index = end
        }
        return nil
    }

    /// The snippet of `text` around its first match, or `nil` when no word matches.
    func snippet(of text: String) -> String? {
        firstMatch(in: text).map { snippet(of: text, around: $0) }
    }

    /// The snippet of `text` around its first match, `first` (``firstMatch(in:)``).
    func snippet(of text: String, around first: Range<String.Index>) -> String {
        var start = text.index(first.lowerBound, offsetBy: -Snippet.leadingContext, limitedBy: text.startIndex)
            ?? text.startIndex
        if start > text.startIndex {
            // Start at a word, after the first space of the context.
            if let space = text[start..<first.lowerBound].firstIndex(where: { $0.isWhitespace }) {
                start = text.index(after: space)
            } else {
                start = first.lowerBound
            }
        }
        var output = start > text.startIndex ? "…" : ""
        var length = output.count
        // One character is kept for a closing ellipsis.
        let budget = Snippet.maximumLength - 1
        var index = start
        var pendingSpace = false
        while index < text.endIndex {
            let character = text[index]
            if Self.isWordCharacter(character) {
                var end = text.index(after: index)
                while end < text.endIndex, Self.isWordCharacter(text[end]) { end = text.index(after: end) }
                let word = text[index..<end]
                let piece = matches(word) ? "[" + word + "]" : String(word)
                let pieceLength = piece.count + (pendingSpace ? 1 : 0)
                guard length + pieceLength <= budget else { break }
                if pendingSpace { output += " " }
                output += piece
                length += pieceLength
                pendingSpace = false
                index = end
            } else if character.isWhitespace {
                pendingSpace = length > 0 && !output.hasSuffix("…")
                index = text.index(after: index)
            } else {
                let pieceLength = 1 + (pendingSpace ? 1 : 0)
                guard length + pieceLength <= budget else { break }
                if pendingSpace { output += " " }
                output.append(character)
                length += pieceLength
                pendingSpace = false
                index = text.index(after: index)
            }
        }
        if index < text.endIndex { output += "…" }
        return output
    }
}
