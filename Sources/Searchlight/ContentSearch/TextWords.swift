/// What the other index backends need to know of how the SQLite index makes the words of a text
/// (``ContentWords``), to make theirs the same way.
public enum TextWords {
    /// Whether `word` holds Han or kana: characters the index keeps as words of one character,
    /// a word of which is found anywhere in a run of them.
    public static func hasSplitCJK(_ word: String) -> Bool {
        word.unicodeScalars.contains(where: ContentWords.isSplitCJK)
    }
}
