/// The respellings of a search's words to try, best first, when the words as typed find
/// nothing (Docs/Contract.md#search, typos): each word spelled as typed when some indexed word
/// starts with it, or as an indexed word a typo away from it (``SpellingNeighbors``).
///
/// Two rounds. First, the words that no indexed word starts with are corrected and the others
/// kept as typed. When none of those respellings finds anything, the other words are corrected
/// too, their typed spelling kept as one of their spellings: `reprot` is in some document with
/// that typo, so `quarterly reprot` finds nothing although `quarterly report` would, and
/// `quarterly reprot` is still tried first in case a document holds those words. In each round,
/// respellings are tried in the order of their edits in all, then of how far down each word's
/// spellings they reach (a word's spellings are ordered by ``SpellingNeighbors/ranked(_:for:)``),
/// at most ``maximumTries`` of them, each once. A backend looks the spellings up
/// (``IndexReader/spellings(of:correctingIndexed:)``); its caller runs each respelling's search
/// until one finds something (``IndexReader/firstRespelling(of:finding:)``):
///
/// ```swift
/// var respellings = Respellings(words: ["quartely", "reprot"])
/// while let asked = respellings.wordsToSpell() {
///     respellings.add(try index.spellings(of: asked.words, correctingIndexed: asked.correctingIndexed))
///     for words in respellings.next() { /* search `words`; stop at the first that finds something */ }
/// }
/// ```
///
/// A value that does no look-up itself: it says what to look up and what to try, so that the
/// SQLite index, the PostgreSQL index and the server share one order of respellings. Its work
/// is small: at most four spellings a word and ``maximumTries`` respellings a round.
public struct Respellings: Sendable {
    /// One way a search word may be spelled: as typed (no edit), or as an indexed word.
    public struct Spelling: Hashable, Sendable {
        /// The word as typed, or the indexed word it may have meant (folded).
        public var word: String
        /// How many edits from the typed word (``SpellingNeighbors/distance(_:_:)``).
        public var edits: Int

        /// A spelling `edits` edits away from the typed word.
        public init(word: String, edits: Int) {
            self.word = word
            self.edits = edits
        }
    }

    /// How many respellings a round tries at most: each is a search that may find nothing.
    public static let maximumTries = 6

    /// How many corrections of one word are kept, best first.
    public static let maximumCorrections = 3

    /// The search's words as the index splits and folds them (``NameTokenizer``).
    public let words: [String]
    /// Each word's spellings, best first: empty for a word nothing indexed is near.
    private var spellings: [[Spelling]]
    /// The words whose spellings ``wordsToSpell()`` asked for, and that ``add(_:)`` receives.
    private var asked: [Int] = []
    /// How many rounds ``wordsToSpell()`` has started: 0, 1 or 2.
    private var round = 0
    /// The respellings given by ``next(limit:)`` so far, and the words as typed: a few, so an array
    /// (a set's type would be made at its first use, at every start).
    private var tried: [[String]]

    /// Respellings of the words of a search as typed, split into words as names are; each
    /// starts with itself, unedited.
    public init(words: [String]) {
        self.words = words.flatMap(NameTokenizer.words(in:))
        spellings = self.words.map { [Spelling(word: $0, edits: 0)] }
        tried = [self.words]
    }

    /// The words whose spellings to look up next, and whether to look for corrections of the
    /// words that some indexed word starts with (the second round); `nil` when no respelling
    /// is left to try: after the second round, or when some word has no spelling at all.
    public mutating func wordsToSpell() -> (words: [String], correctingIndexed: Bool)? {
        if round == 0 {
            asked = Array(words.indices)
        } else if round == 1, !spellings.contains(where: \.isEmpty) {
            // The words kept as typed in the first round (corrected words have no typed spelling).
            asked = words.indices.filter { index in
                spellings[index].first?.edits == 0 && SpellingNeighbors.isCorrectable(words[index])
            }
        } else {
            asked = []
        }
        round += 1
        return asked.isEmpty ? nil : (asked.map { words[$0] }, round == 2)
    }

    /// Records the spellings of the words ``wordsToSpell()`` asked for, in its order: for each,
    /// the word as typed first when some indexed word starts with it, then at most
    /// ``maximumCorrections`` corrections, best first.
    ///
    /// - Parameter found: Each asked word's spellings, as the backend ranked them
    ///   (``SpellingNeighbors/ranked(_:for:)``); an empty list says the word has none.
    public mutating func add(_ found: [[Spelling]]) {
        for (index, spellings) in zip(asked, found) {
            self.spellings[index] = Array(spellings.prefix(Self.maximumCorrections + (spellings.first?.edits == 0 ? 1 : 0)))
        }
    }

    /// The next respellings to try, best first, at most ``maximumTries``; none tried before.
    ///
    /// The search for the best next choice walks a frontier of at most a few dozen entries: each
    /// word has at most four spellings.
    ///
    /// - Parameter limit: The most respellings to return.
    /// - Returns: The respellings, each a list of words; empty when some word has no spelling, or
    ///   none is left to try.
    public mutating func next(limit: Int = maximumTries) -> [[String]] {
        guard !spellings.contains(where: \.isEmpty) else { return [] }
        // Best first over choices (the place of each word's spelling in its list): the sum of
        // edits and of places grows with every place, so a choice comes after those it extends.
        func edits(_ choice: [Int]) -> Int { zip(spellings, choice).reduce(0) { $0 + $1.0[$1.1].edits } }
        func precedes(_ a: [Int], _ b: [Int]) -> Bool {
            let (editsA, editsB, placesA, placesB) = (edits(a), edits(b), a.reduce(0, +), b.reduce(0, +))
            return (editsA, placesA) != (editsB, placesB) ? (editsA, placesA) < (editsB, placesB) : a.lexicographicallyPrecedes(b)
        }
        let first = [Int](repeating: 0, count: words.count)
        var frontier = [first]
        var reached = [first]
        var respellings: [[String]] = []
        while respellings.count < limit, let best = frontier.indices.min(by: { precedes(frontier[$0], frontier[$1]) }) {
            let choice = frontier.remove(at: best)
            let words = zip(spellings, choice).map { $0[$1].word }
            if !tried.contains(words) {
                tried.append(words)
                respellings.append(words)
            }
            for index in choice.indices where choice[index] + 1 < spellings[index].count {
                var further = choice
                further[index] += 1
                if !reached.contains(further) {
                    reached.append(further)
                    frontier.append(further)
                }
            }
        }
        return respellings
    }
}
