extension SearchResult {
    /// The result for an item that another index found for `words` (the PostgreSQL index
    /// ranks in SQL and returns items): where the words matched, worked out from the item's
    /// attributes as ``SearchableIndex/searchResults(words:domain:limit:scope:)`` works it out
    /// (each word's best field, whole word before prefix, in rank order; the last of those),
    /// and for a match that needed the text, the snippet around it. `item` must hold its text.
    ///
    /// The returned item does not hold its text, as the SQLite index's results do not.
    public init(found item: IndexedItem, words: [String], scope: SearchScope) throws {
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
        for token in tokens {
            let best = fields.firstIndex { $0.words.contains(token) }
                ?? fields.firstIndex { $0.words.contains { $0.hasPrefix(token) } }
                ?? fields.count - 1
            worst = Swift.max(worst, best)
        }
        let field = fields[worst].field
        var bare = item
        bare.item.attributeSet.textContent = nil
        let snippet = field == .content
            ? attributes.textContent.flatMap(SnippetMatcher(tokens: tokens).snippet(of:)) : nil
        self.init(item: bare, matchedIn: field, snippet: snippet)
    }
}
