extension SearchResult {
    /// The result for an item that another index found for `words` (the PostgreSQL index
    /// ranks in SQL and returns items): where the words matched, worked out from the item's
    /// attributes as ``SearchableIndex/searchResults(words:domain:limit:scope:)`` works it out
    /// (each word's best field, whole word before prefix, in rank order; the last of those),
    /// and for a match in the text or its keywords, the snippet around it. `item` must hold its text.
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
    }
}
