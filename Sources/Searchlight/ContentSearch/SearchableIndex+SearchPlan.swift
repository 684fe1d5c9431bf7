import Foundation
import GRDB

extension SearchableIndex {
    /// How each word of a search is read (`search --explain`): one line per word, then one for
    /// the items that hold them all.
    ///
    /// A word of one to three characters is one list of a prefix index; a longer one is the
    /// merge of the lists of every indexed word that starts with it, which the line counts
    /// (names and text apart, up to 10 000): a word with thousands of such words is
    /// what made a search slow before prefix indexes, and this shows whether it still can.
    ///
    /// ```
    /// word "d": as a prefix: the prefix index of 1 letter; 2 items by name, title, keywords or folder, 5827 items by author or text
    /// word "libr": as a prefix: merges 12 name words and 310 text words; 40 items by name, title, keywords or folder, 388 items by author or text
    /// every word: 5 items (the lists intersected; only a page of them is ranked when a limit is given)
    /// ```
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - domain: The search's domain. The counts of each word and of every word are of the
    ///     full-text lists, over every domain and expired items included; an unknown domain only
    ///     leaves out the line of every word. The compounds' line counts in this domain.
    ///   - scope: Everything, or names only (then no text is counted).
    /// - Returns: The lines, for people; one line when no word has a letter or digit.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    ///
    /// Costs, for each word, a count of its matches in `item_words` and, where text is searched,
    /// in `item_content` (each reads the word's lists), and for a word of more than three
    /// characters a walk of up to 10 001 terms of each vocabulary; where text is searched, the
    /// lists of every word once more, intersected. Nothing is ranked. A query with compounds
    /// gets one line more, saying whether they find items as typed, which costs counting their
    /// matches.
    public func searchPlan(words: [String], domain: String? = nil, scope: SearchScope = .all) throws -> [String] {
        let tokens = Self.nameQueryTokens(words)
        guard !tokens.isEmpty else { return ["no word with a letter or digit: nothing is searched"] }
        var lines = try read { db in
            let hasText = try scope == .all && Self.hasContent(in: db)
            var lines: [String] = []
            for token in tokens {
                let letters = token.unicodeScalars.count
                var line = "word \"\(CompoundWords.display(token))\": "
                if CompoundWords.isCompound(token) {
                    let runs = CompoundWords.runs(of: token)
                    line += "a compound, as typed: its parts " + CompoundWords.parts(of: token).joined(separator: " ")
                        + " as consecutive words of a name, title, keywords or folder (each whole but the last)"
                        + (hasText ? ", its " + (runs.count == 1 ? "run " : "runs ") + runs.joined(separator: " ")
                            + " in the text" + (runs.count > 1 ? " (checked in order on the stored text)" : "") : "")
                } else if ContentWords.tokens(of: token).count > 1 || token.unicodeScalars.contains(where: ContentWords.isSplitCJK) {
                    line += "as its characters (Han, kana, Thai…), then checked as written in the text"
                } else if letters <= 3 {
                    line += "as a prefix: the prefix index of \(letters) \(letters == 1 ? "letter" : "letters")"
                } else {
                    let names = try Self.wordsStarting(with: token, in: "item_words_vocab", db)
                    let texts = hasText ? try Self.wordsStarting(with: token, in: "item_content_vocab", db) : 0
                    line += "as a prefix: merges \(Self.plural(names, "name word")) and \(Self.plural(texts, "text word"))"
                }
                let named = try Int.fetchOne(db, sql: "SELECT count(*) FROM item_words WHERE item_words MATCH ?",
                                             arguments: [SearchableIndex.nameTerm(token, whole: false)]) ?? 0
                line += "; \(Self.plural(named, "item")) by name, title, keywords or folder"
                    + (CompoundWords.isCompound(token) ? " with every part (in any order)" : "")
                if hasText {
                    let texts = try Int.fetchOne(db, sql: "SELECT count(*) FROM item_content WHERE item_content MATCH ?",
                                                 arguments: [ContentSearch.term(token, whole: false)]) ?? 0
                    line += ", \(Self.plural(texts, "item")) by author or text"
                }
                lines.append(line)
            }
            if hasText, let filter = try ItemFilter(domain: domain, in: db) {
                let every = try ContentSearch(db: db, tokens: tokens, filter: filter).everyWord()
                lines.append("every word: \(Self.plural(every.count, "item")) (the lists intersected; only a page of them is ranked when a limit is given)")
            }
            return lines
        }
        if let parts = CompoundWords.partTokens(tokens) {
            let found = try countMatches(tokens: tokens, domain: domain, scope: scope)
            lines.append(found > 0
                ? "compounds as typed: \(Self.plural(found, "item")); their parts alone are not searched"
                : "compounds as typed: no item; searched as the words " + parts.joined(separator: " ") + " instead")
        }
        return lines
    }

    /// Which way ``search(words:domain:limit:scope:)`` finds its results, as
    /// a line for `search --explain`: the search is made, its results are not fetched.
    ///
    /// ```
    /// results: the first page tier by tier: items with a word in a name, … each newest first; …
    /// ```
    ///
    /// Costs what the search costs, less reading the items.
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - domain: Only this domain, when given.
    ///   - limit: The limit the search would run with: it decides the way.
    ///   - scope: Everything, or names only.
    /// - Returns: The line, or `nil` when the search took no path worth saying: no word with a
    ///   letter or digit, or an unknown domain in an index that holds text.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func searchPath(words: [String], domain: String?, limit: Int?, scope: SearchScope) throws -> String? {
        var taken: SearchPath?
        try rankedMatches(words: words, domain: domain, limit: limit, scope: scope, path: { taken = $0 }) { _, _, _ in }
        return taken?.explanation
    }

    /// How many words of a vocabulary ``searchPlan(words:domain:scope:)`` counts at most.
    static let planCountLimit = 10_000

    /// How many words of `vocabulary` start with `prefix` (at most ``planCountLimit`` + 1).
    ///
    /// One walk of the vocabulary (`item_words_vocab` or `item_content_vocab`) from `prefix` on,
    /// stopped after that many terms.
    ///
    /// `prefix` itself counts when it is an indexed word: the count is of the lists a prefix
    /// query merges.
    ///
    /// - Throws: GRDB's `DatabaseError` when the read fails.
    private static func wordsStarting(with prefix: String, in vocabulary: String, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: """
            SELECT count(*) FROM (SELECT 1 FROM \(vocabulary) WHERE term >= ? AND term < ? LIMIT ?)
            """, arguments: [prefix, prefix + "\u{10FFFF}", planCountLimit + 1]) ?? 0
    }

    /// `count` and `noun`, plural unless one (`1 item`, `3 items`); past ``planCountLimit``,
    /// `over 10000 items`: the count stopped there.
    private static func plural(_ count: Int, _ noun: String) -> String {
        let number = count > planCountLimit ? "over \(planCountLimit)" : String(count)
        return "\(number) \(noun)\(count == 1 ? "" : "s")"
    }
}
