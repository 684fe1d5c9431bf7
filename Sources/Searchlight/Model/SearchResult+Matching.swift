extension SearchResult {
    /// The result for an item that another index found for `words` (the PostgreSQL index
    /// ranks in SQL and returns items): where the words matched, worked out from the item's
    /// attributes as ``SearchableIndex/searchResults(words:domain:limit:scope:)`` works it out
    /// (each word's best field, whole word before prefix, in rank order; the last of those),
    /// and for a match in the text or its keywords, the snippet around it. `item` must hold its text.
    ///
    /// The returned item does not hold its text, as the SQLite index's results do not.
    ///
    /// - Parameter checkingPhrase: whether to read the text for the words as a phrase
    ///   (``matchesLikeTitle``): for the first results only, those a blend with meaning reads
    ///   (``RankedSearch/meaningCandidates``), so that a long list costs no more than before.
    public init(found item: IndexedItem, words: [String], scope: SearchScope, checkingPhrase: Bool = true) throws {
        let tokens = SearchableIndex.nameQueryTokens(words)
        let attributes = item.item.attributeSet
        var fields: [(field: Field, words: [String])] = [
            (.name, NameTokenizer.words(in: attributes.displayName ?? "")),
            (.title, NameTokenizer.words(in: attributes.title ?? "")),
            (.authors, scope == .all ? attributes.authors.flatMap(NameTokenizer.words(in:)) : []),
            (.keywords, attributes.rankedKeywords.flatMap(NameTokenizer.words(in:))),
            (.folders, item.item.uniqueIdentifier.parentComponents.flatMap(NameTokenizer.words(in:))),
        ]
        fields.append((.content, []))
        var worst = 0
        func best(_ token: String) -> Int? {
            let found = fields.map { CompoundWords.match(token, in: $0.words) }
            return found.firstIndex { $0.whole } ?? found.firstIndex { $0.prefix }
        }
        for token in tokens {
            // A compound found in no field: in the text as typed, or its parts apart (when
            // as typed it found nothing: ``CompoundWords``).
            let parts = CompoundWords.parts(of: token).map { best($0) ?? fields.count - 1 }
            worst = Swift.max(worst, best(token) ?? (parts.allSatisfy { $0 < fields.count - 1 } ? parts.max() ?? 0 : fields.count - 1))
        }
        let field = fields[worst].field
        var bare = item
        bare.item.attributeSet.textContent = nil
        let snippet = field.isDescribedByText
            ? attributes.textContent.flatMap(SnippetMatcher(tokens: tokens).snippet(of:)) : nil
        self.init(item: bare, matchedIn: field, snippet: snippet)
        matchesLikeTitle = Self.matchesLikeTitle(tokens, fields: fields, text: checkingPhrase ? attributes.textContent : nil)
    }

    /// ``matchesLikeTitle`` from the item's own fields, ranked as the SQLite index ranks them
    /// (name 0, title 1, authors and keywords 2, folders 3, text 4 a word; a phrase in the text
    /// as the title): every word whole, summing to at most one a word, or the words adjacent
    /// and in order in the text (its first 64 KiB: ``TextPhrase``).
    static func matchesLikeTitle(_ tokens: [String], fields: [(field: Field, words: [String])], text: String?) -> Bool {
        guard !tokens.isEmpty else { return false }
        let ranks: [Field: Int] = [.name: 0, .title: 1, .authors: 2, .keywords: 2, .folders: 3]
        var sum = 0
        for token in tokens {
            let whole = fields.filter { ranks[$0.field] != nil && CompoundWords.match(token, in: $0.words).whole }
            sum += whole.compactMap { ranks[$0.field] }.min() ?? 4
        }
        if sum <= tokens.count, tokens.allSatisfy({ token in fields.contains { CompoundWords.match(token, in: $0.words).whole } }) {
            return true
        }
        guard tokens.count > 1, let text else { return false }
        return TextPhrase.holds(tokens.flatMap(CompoundWords.parts(of:)), in: text)
    }
}
