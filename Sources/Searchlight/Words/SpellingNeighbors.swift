/// The words a mistyped word may have meant: every word one edit away — a letter left out,
/// added, replaced, or two neighbours swapped (a transposition counts as one edit) — and, for
/// words of 8 letters or more, the words two edits away made of two of the slips people make
/// most (a letter typed twice or left out, a doubled letter typed once, two neighbours swapped:
/// `acomodation` → `accommodation`).
///
/// Each backend looks the candidates up in its own vocabulary (an exact look-up each: no scan
/// of the vocabulary, so the cost does not grow with the index) and ranks those it holds
/// (``ranked(_:for:)``).
///
/// ```swift
/// SpellingNeighbors.isCorrectable("cat")                        // false: too short
/// SpellingNeighbors.candidates(of: "raport").contains("report")  // true: a letter replaced
/// ```
///
/// Pure functions: safe from any thread. The number of candidates grows with the word's
/// length and its alphabet (a–z, plus the letters of its own script's blocks): a few hundred
/// for a word of eight Latin letters, all made as bytes without a string each.
///
/// ## Topics
///
/// ### Candidates
///
/// - ``isCorrectable(_:)``
/// - ``minimumLength``
/// - ``allowedEdits(_:)``
/// - ``candidates(of:knownPrefix:edits:)``
/// - ``knownPrefix(of:firstFrom:)``
///
/// ### Choosing among those found
///
/// - ``ranked(_:for:)``
/// - ``best(of:for:)``
public enum SpellingNeighbors {
    /// Words shorter than this are never corrected: too many words lie one edit from them.
    public static let minimumLength = 4

    /// Whether a folded word may be corrected: long enough, and of no script that the index
    /// keeps letter by letter (Han, kana, Thai…).
    ///
    /// Letters are counted as Unicode scalars: a folded word has no combining marks left.
    public static func isCorrectable(_ word: String) -> Bool {
        var letters = 0
        for letter in word.unicodeScalars {
            if WordFolding.isUnspacedLetter(letter) { return false }
            letters += 1
        }
        return letters >= minimumLength
    }

    /// The edit distance allowed for a word: one up to 7 letters, two from 8.
    ///
    /// - Parameter word: A folded word.
    /// - Returns: 1 or 2.
    public static func allowedEdits(_ word: String) -> Int { word.unicodeScalars.count >= 8 ? 2 : 1 }

    /// The candidate spellings of a folded word, without the word itself; empty for a word
    /// too short, or of letters that the index keeps one by one (Han, kana, Thai…).
    ///
    /// No candidate is shorter than three letters.
    ///
    /// - Parameters:
    ///   - knownPrefix: How many of the word's first letters some indexed word starts
    ///   with: a correction keeps the letters before its first edit, so edits can start only
    ///   up to there (the whole word when unknown). A typo in the fifth letter of `lumnieni`,
    ///   whose `lum` alone starts an indexed word, needs no edit of its later letters.
    ///   - edits: 1 for the words one edit away; 2 for those two edits away (only for words of
    ///     8 letters or more; a backend asks for them when none of the first is indexed);
    ///     `nil` for both.
    /// - Returns: The candidates, sorted, each once.
    public static func candidates(of word: String, knownPrefix: Int? = nil, edits: Int? = nil) -> [String] {
        spellings(of: word, knownPrefix: knownPrefix, edits: edits).strings.sorted()
    }

    /// ``candidates(of:knownPrefix:edits:)`` as bytes, each once, in no order: what SQLite's
    /// look-ups read (``SpellingList``).
    ///
    /// Cheaper than ``candidates(of:knownPrefix:edits:)``: no string is made and nothing sorted.
    package static func spellings(of word: String, knownPrefix: Int? = nil, edits: Int? = nil) -> SpellingList {
        guard isCorrectable(word) else { return SpellingList() }
        let letters = Array(word.unicodeScalars)
        let spelled = Spelled(letters)
        let last = min(knownPrefix ?? letters.count, letters.count)
        var writer = SpellingWriter(word: spelled.bytes)
        if edits != 2 {
            let alphabet = Spelled(alphabet(for: letters))
            spelled.writeDeletions(upTo: last, &writer)
            spelled.writeTranspositions(upTo: last, &writer)
            spelled.writeReplacements(upTo: last, from: alphabet, &writer)
            spelled.writeInsertions(upTo: last, from: alphabet, &writer)
        }
        if allowedEdits(word) == 2 && edits != 1 {
            // Two slips of the kinds people make most: a letter left out or typed twice, a
            // doubled letter typed once, two neighbours swapped; the first within the known prefix.
            for once in spelled.slips(upTo: last) {
                once.writeDeletions(upTo: once.letters.count, &writer)
                once.writeTranspositions(upTo: once.letters.count, &writer)
                once.writeDoublings(upTo: once.letters.count, &writer)
            }
        }
        return writer.found
    }

    /// How many of the first letters of `word` start some word of a vocabulary (all of them when
    /// a word starts with `word`), found with `firstFrom`: the vocabulary's first word at or
    /// after a string, in the order of their UTF-8 bytes.
    ///
    /// The words that start with a given start of `word` lie together in that order, and
    /// `word` itself would lie among them or beside them: the longest known start is shared
    /// with the first word after `word` or with the last one before it. The first is looked up
    /// at once; the last one's share, when longer, by looking up one letter more at a time (a
    /// start of `word` starts some word when the first word from it does), usually once.
    ///
    /// - Parameters:
    ///   - word: A folded word.
    ///   - firstFrom: Looks up the first word of the vocabulary at or after a string (a range
    ///     scan of one row in an index).
    /// - Returns: The number of the word's first letters (scalars) that some word starts with.
    /// - Throws: What `firstFrom` throws.
    public static func knownPrefix(of word: String, firstFrom: (String) throws -> String?) rethrows -> Int {
        let letters = Array(word.unicodeScalars)
        func shared(_ other: String) -> Int {
            zip(letters, other.unicodeScalars).prefix { $0 == $1 }.count
        }
        var known = try firstFrom(word).map(shared) ?? 0
        while known < letters.count {
            // A slice of the word's own scalars: a string made from an array of them appends
            // them through generic code (Benchmarks/README.md, "Start-up").
            let end = word.unicodeScalars.index(word.unicodeScalars.startIndex, offsetBy: known + 1)
            let start = String(Substring(word.unicodeScalars[..<end]))
            guard let next = try firstFrom(start), shared(next) > known else { break }
            known = shared(next)
        }
        return known
    }

    /// The candidates found in a vocabulary, with how many items hold each, best first: the
    /// fewest edits, then the most items, then the longest (of `nikn`, `nikon` — a letter
    /// left out — rather than `niko`, when as many items hold both), then the first in order.
    /// Those more edits away than ``allowedEdits(_:)`` are left out.
    ///
    /// - Parameters:
    ///   - found: The candidates the vocabulary holds, with how many items hold each.
    ///   - word: The word as typed, folded.
    /// - Returns: The spellings, best first, each with its distance from `word`.
    public static func ranked(_ found: [(word: String, holders: Int)], for word: String) -> [Respellings.Spelling] {
        typealias Ranked = (spelling: Respellings.Spelling, holders: Int, length: Int)
        let typed = Array(word.unicodeScalars)
        var ranked: [Ranked] = []
        for (candidate, holders) in found {
            let letters = Array(candidate.unicodeScalars)
            let edits = distance(typed, letters)
            if edits <= allowedEdits(word) { ranked.append((Respellings.Spelling(word: candidate, edits: edits), holders, letters.count)) }
        }
        ranked.sort { a, b in
            (a.spelling.edits, -a.holders, -a.length, a.spelling.word) < (b.spelling.edits, -b.holders, -b.length, b.spelling.word)
        }
        return ranked.map(\.spelling)
    }

    /// The best of the candidates found in a vocabulary (``ranked(_:for:)``).
    ///
    /// - Returns: The best spelling, or `nil` when no candidate is near enough.
    public static func best(of found: [(word: String, holders: Int)], for word: String) -> String? {
        ranked(found, for: word).first?.word
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours each count one.
    ///
    /// Costs `a.count × b.count` steps and three rows of integers; for words, a few dozen steps.
    /// Unlike the full Damerau–Levenshtein distance, a swapped pair is not edited again.
    package static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    /// Letters to add or put in place of another: a–z, the word's own letters, and, for a
    /// word of another script, the letters of the blocks its letters are in; in the order of
    /// their values, each once.
    ///
    /// Only letters that fold to themselves are offered: a candidate is compared with folded
    /// words of the vocabulary.
    private static func alphabet(for letters: [Unicode.Scalar]) -> [Unicode.Scalar] {
        // Values, not a set of scalars: a set's type is made at its first use, at every start.
        var values = (UInt32(UInt8(ascii: "a"))...UInt32(UInt8(ascii: "z"))).map { $0 }
        values += letters.map(\.value)
        var blocks = letters.filter { !$0.isASCII }.map { $0.value & ~0x7F }
        blocks.sort()
        for (index, block) in blocks.enumerated() where index == 0 || blocks[index - 1] != block {
            for value in block..<(block + 0x80) {
                if let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic, !WordFolding.isFoldedAway(scalar),
                   WordFolding.fold(String(scalar)) == String(scalar) {
                    values.append(value)
                }
            }
        }
        values.sort()
        var alphabet: [Unicode.Scalar] = []
        for (index, value) in values.enumerated() where index == 0 || values[index - 1] != value {
            if let scalar = Unicode.Scalar(value) { alphabet.append(scalar) }
        }
        return alphabet
    }
}

/// A word's letters with their UTF-8 bytes, whose edits (``SpellingNeighbors``) are written as
/// bytes: a candidate is a few slices of the word and at most one letter, copied once, with no
/// array of letters made for each.
private struct Spelled {
    let letters: [Unicode.Scalar]
    /// The word in UTF-8.
    private(set) var bytes: [UInt8] = []
    /// Where each letter's bytes start in ``bytes``, and the end after the last.
    private(set) var starts: [Int] = []

    /// The word of `letters`, encoded once.
    init(_ letters: [Unicode.Scalar]) {
        self.letters = letters
        for letter in letters {
            starts.append(bytes.count)
            UTF8.encode(letter) { bytes.append($0) }
        }
        starts.append(bytes.count)
    }

    /// The bytes of letter `index`.
    private func letter(_ index: Int) -> ArraySlice<UInt8> { bytes[starts[index]..<starts[index + 1]] }
    /// The bytes before letter `index`, and those from it.
    private func before(_ index: Int) -> ArraySlice<UInt8> { bytes[..<starts[index]] }
    /// The bytes from letter `index` to the end.
    private func from(_ index: Int) -> ArraySlice<UInt8> { bytes[starts[index]...] }

    /// Each letter at or before `last` (0-based) left out.
    func writeDeletions(upTo last: Int, _ writer: inout SpellingWriter) {
        for index in letters.indices where index <= last {
            writer.write(letters: letters.count - 1, before(index), from(index + 1))
        }
    }

    /// Each pair of different neighbours, the first at or before `last`, swapped.
    func writeTranspositions(upTo last: Int, _ writer: inout SpellingWriter) {
        for index in letters.indices.dropLast() where index <= last && letters[index] != letters[index + 1] {
            writer.write(letters: letters.count, before(index), letter(index + 1), letter(index), from(index + 2))
        }
    }

    /// Each letter at or before `last` typed twice.
    func writeDoublings(upTo last: Int, _ writer: inout SpellingWriter) {
        for index in letters.indices where index <= last {
            writer.write(letters: letters.count + 1, before(index + 1), from(index))
        }
    }

    /// Each letter at or before `last` replaced by each other letter of `alphabet`.
    func writeReplacements(upTo last: Int, from alphabet: Spelled, _ writer: inout SpellingWriter) {
        for index in letters.indices where index <= last {
            for other in alphabet.letters.indices where alphabet.letters[other] != letters[index] {
                writer.write(letters: letters.count, before(index), alphabet.letter(other), from(index + 1))
            }
        }
    }

    /// Each letter of `alphabet` added before each letter at or before `last`, and at the end.
    func writeInsertions(upTo last: Int, from alphabet: Spelled, _ writer: inout SpellingWriter) {
        for index in 0...min(last, letters.count) {
            for other in alphabet.letters.indices {
                writer.write(letters: letters.count + 1, before(index), alphabet.letter(other), from(index))
            }
        }
    }

    /// The word after each slip of one letter at or before `last`: left out, typed twice, or
    /// swapped with the next (the first of two slips).
    ///
    /// Each slipped word is then edited once more by the caller: the two-edit candidates.
    func slips(upTo last: Int) -> [Spelled] {
        var slipped: [Spelled] = []
        for index in letters.indices where index <= last {
            var shorter = letters
            shorter.remove(at: index)
            slipped.append(Spelled(shorter))
        }
        for index in letters.indices.dropLast() where index <= last && letters[index] != letters[index + 1] {
            var swapped = letters
            swapped.swapAt(index, index + 1)
            slipped.append(Spelled(swapped))
        }
        for index in letters.indices where index <= last {
            var doubled = letters
            doubled.insert(letters[index], at: index)
            slipped.append(Spelled(doubled))
        }
        return slipped
    }
}

/// The candidates as they are written: long enough, not the word itself.
///
/// Leaves out the typed word itself and any candidate shorter than three letters;
/// ``SpellingList`` keeps each candidate once.
private struct SpellingWriter {
    /// The typed word's bytes, never a candidate.
    let word: [UInt8]
    private(set) var found = SpellingList()

    /// A writer with no candidate yet, for the word `word`.
    init(word: [UInt8]) {
        self.word = word
    }

    /// The candidate of `letters` letters made of the parts in turn (parameters, not a
    /// variadic list: no array for each of a few hundred candidates).
    mutating func write(letters: Int, _ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>,
                        _ third: ArraySlice<UInt8> = [], _ fourth: ArraySlice<UInt8> = []) {
        guard letters >= SpellingNeighbors.minimumLength - 1 else { return }
        found.add(except: word) { bytes in
            bytes += first
            bytes += second
            bytes += third
            bytes += fourth
        }
    }
}
