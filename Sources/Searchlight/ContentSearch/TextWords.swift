/// What the other index backends need to know of how the SQLite index makes the words of a text
/// (``ContentWords``, ``SearchlightTokenizer``), to make theirs the same way: the same words,
/// folded by the same code (``WordFolding``).
public enum TextWords {
    /// Whether `word` holds letters of a script written without spaces (Han, kana, Thai…):
    /// letters the index keeps as words of one letter, a word of which is found anywhere in a
    /// run of them.
    public static func hasSplitCJK(_ word: String) -> Bool {
        word.unicodeScalars.contains(where: ContentWords.isSplitCJK)
    }

    /// The index words a folded query word of such letters stands for (``hasSplitCJK(_:)``):
    /// each letter with its marks, folded.
    public static func splitParts(of word: String) -> [String] {
        ContentWords.tokens(of: word)
    }

    /// The words of a text, in order, folded: the tokens of the SQLite index's `text` column.
    public static func words(of text: String) -> [String] {
        var folder = RunFolder()
        return folder.tokens(of: ContentWords.indexed(text))
    }

    /// The words of a text as a PostgreSQL `tsvector` literal (`'word':1,4 'other':2`), with
    /// the positions phrase queries need: made here, so that PostgreSQL's parser, whose words
    /// depend on the server's locale, never splits nor folds them again.
    ///
    /// Within a `tsvector`'s limits: a word of at most 2 046 bytes, 255 positions of a word,
    /// positions up to 16 383, and about 900 kB in all — a text of more distinct words keeps
    /// the first met.
    public static func vectorLiteral(of text: String) -> String {
        var positions: [String: [Int]] = [:]
        var order: [String] = []
        var bytes = 0
        for (index, word) in words(of: text).enumerated() {
            guard word.utf8.count <= 2_046 else { continue }
            if positions[word] == nil {
                let cost = word.utf8.count + 8
                guard bytes + cost <= 900_000 else { continue }
                bytes += cost
                order.append(word)
                positions[word] = []
            }
            if positions[word]!.count < 255 {
                positions[word]!.append(min(index + 1, 16_383))
                bytes += 2
            }
        }
        var literal = ""
        literal.reserveCapacity(bytes * 2)
        for word in order {
            if !literal.isEmpty { literal += " " }
            literal += lexeme(word)
            literal += ":"
            literal += Set(positions[word]!).sorted().map(String.init).joined(separator: ",")
        }
        return literal
    }

    /// A word as a quoted `tsvector` or `tsquery` lexeme.
    public static func lexeme(_ word: String) -> String {
        var quoted = "'"
        for character in word {
            if character == "'" { quoted += "''" } else if character == "\\" { quoted += "\\\\" } else { quoted.append(character) }
        }
        return quoted + "'"
    }
}
