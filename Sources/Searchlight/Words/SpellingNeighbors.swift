/// The words a mistyped word may have meant: every word one edit away — a letter left out,
/// added, replaced, or two neighbours swapped (a transposition counts as one edit) — and, for
/// words of 8 letters or more, the words two edits away made of two of the slips people make
/// most (a letter typed twice or left out, a doubled letter typed once, two neighbours swapped:
/// `acomodation` → `accommodation`).
///
/// Each backend looks the candidates up in its own vocabulary (an exact look-up each: no scan
/// of the vocabulary, so the cost does not grow with the index) and keeps the best one
/// (``best(of:for:)``).
public enum SpellingNeighbors {
    /// Words shorter than this are never corrected: too many words lie one edit from them.
    public static let minimumLength = 4

    /// The edit distance allowed for a word: one up to 7 letters, two from 8.
    public static func allowedEdits(_ word: String) -> Int { word.unicodeScalars.count >= 8 ? 2 : 1 }

    /// The candidate spellings of a folded word, without the word itself; empty for a word
    /// too short, or of letters that the index keeps one by one (Han, kana, Thai…).
    ///
    /// - Parameters:
    ///   - knownPrefix: How many of the word's first letters some indexed word starts
    ///   with: a correction keeps the letters before its first edit, so edits can start only
    ///   up to there (the whole word when unknown). A typo in the fifth letter of `lumnieni`,
    ///   whose `lum` alone starts an indexed word, needs no edit of its later letters.
    ///   - edits: 1 for the words one edit away; 2 for those two edits away (only for words of
    ///     8 letters or more; a backend asks for them when none of the first is indexed);
    ///     `nil` for both.
    public static func candidates(of word: String, knownPrefix: Int? = nil, edits: Int? = nil) -> [String] {
        let letters = Array(word.unicodeScalars)
        guard letters.count >= minimumLength, !letters.contains(where: WordFolding.isUnspacedLetter) else { return [] }
        let alphabet = self.alphabet(for: letters)
        let last = min(knownPrefix ?? letters.count, letters.count)
        // An array sorted once: a set of strings' type is made at first use (start-up).
        var found: [String] = []
        // Encoded by hand: a string made from a view of scalars appends them through generic
        // code, a tenth of a search that finds nothing (Benchmarks/README.md, "Start-up").
        var bytes: [UInt8] = []
        func add(_ scalars: [Unicode.Scalar]) {
            guard scalars.count >= minimumLength - 1 else { return }
            bytes.removeAll(keepingCapacity: true)
            for scalar in scalars { UTF8.encode(scalar) { bytes.append($0) } }
            found.append(String(decoding: bytes, as: UTF8.self))
        }
        if edits != 2 { oneEdit(letters, alphabet: alphabet, upTo: last).forEach(add) }
        if allowedEdits(word) == 2 && edits != 1 {
            // Two slips of the kinds people make most: a letter left out or typed twice, a
            // doubled letter typed once, two neighbours swapped; the first within the known prefix.
            let slips: [([Unicode.Scalar], Int) -> [[Unicode.Scalar]]] = [deletions, transpositions, doublings]
            for first in slips {
                for once in first(letters, last) {
                    for second in slips { second(once, once.count).forEach(add) }
                }
            }
        }
        found.sort()
        var unique: [String] = []
        for candidate in found where candidate != word && unique.last != candidate { unique.append(candidate) }
        return unique
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
    public static func knownPrefix(of word: String, firstFrom: (String) throws -> String?) rethrows -> Int {
        let letters = Array(word.unicodeScalars)
        func shared(_ other: String) -> Int {
            zip(letters, other.unicodeScalars).prefix { $0 == $1 }.count
        }
        var known = try firstFrom(word).map(shared) ?? 0
        while known < letters.count {
            let start = String(String.UnicodeScalarView(letters.prefix(known + 1)))
            guard let next = try firstFrom(start), shared(next) > known else { break }
            known = shared(next)
        }
        return known
    }

    /// The best of the candidates found in a vocabulary, with how many items hold each: the
    /// fewest edits, then the most items, then the first in order.
    public static func best(of found: [(word: String, holders: Int)], for word: String) -> String? {
        let typed = Array(word.unicodeScalars)
        return found.map { (word: $0.word, holders: $0.holders, edits: distance(typed, Array($0.word.unicodeScalars))) }
            .filter { $0.edits <= allowedEdits(word) }
            .min { ($0.edits, -$0.holders, $0.word) < ($1.edits, -$1.holders, $1.word) }?.word
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours each count one.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
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

    /// Letters to add or put in place of another: a–z and digits, the word's own letters, and,
    /// for a word of another script, the letters of the blocks its letters are in.
    private static func alphabet(for letters: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var alphabet = Set<Unicode.Scalar>((UInt8(ascii: "a")...UInt8(ascii: "z")).map { Unicode.Scalar($0) })
        alphabet.formUnion(letters)
        for block in Set(letters.filter { !$0.isASCII }.map { $0.value & ~0x7F }) {
            for value in block..<(block + 0x80) {
                if let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic, !WordFolding.isFoldedAway(scalar),
                   WordFolding.fold(String(scalar)) == String(scalar) {
                    alphabet.insert(scalar)
                }
            }
        }
        return alphabet.sorted { $0.value < $1.value }
    }

    /// Every word one edit away whose edit is at or before letter `last` (0-based index).
    private static func oneEdit(_ letters: [Unicode.Scalar], alphabet: [Unicode.Scalar], upTo last: Int) -> [[Unicode.Scalar]] {
        var edits = deletions(letters, last) + transpositions(letters, last)
        for index in letters.indices where index <= last {
            for letter in alphabet where letter != letters[index] {
                var replaced = letters
                replaced[index] = letter
                edits.append(replaced)
            }
        }
        for index in 0...min(last, letters.count) {
            for letter in alphabet {
                var inserted = letters
                inserted.insert(letter, at: index)
                edits.append(inserted)
            }
        }
        return edits
    }

    private static func deletions(_ letters: [Unicode.Scalar], _ last: Int) -> [[Unicode.Scalar]] {
        letters.indices.filter { $0 <= last }.map { index in
            var shorter = letters
            shorter.remove(at: index)
            return shorter
        }
    }

    private static func doublings(_ letters: [Unicode.Scalar], _ last: Int) -> [[Unicode.Scalar]] {
        letters.indices.filter { $0 <= last }.map { index in
            var doubled = letters
            doubled.insert(letters[index], at: index)
            return doubled
        }
    }

    private static func transpositions(_ letters: [Unicode.Scalar], _ last: Int) -> [[Unicode.Scalar]] {
        guard letters.count > 1 else { return [] }
        return (0..<(letters.count - 1)).filter { $0 <= last }.compactMap { index in
            guard letters[index] != letters[index + 1] else { return nil }
            var swapped = letters
            swapped.swapAt(index, index + 1)
            return swapped
        }
    }
}
