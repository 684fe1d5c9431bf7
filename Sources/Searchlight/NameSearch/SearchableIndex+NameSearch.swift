import Foundation
import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// Items whose words contain, for every query word, a word that starts with it: words of
    /// their name, title, authors, keywords, folder names and text (``SearchScope/all``), or of
    /// their name, title, keywords and folder names only (``SearchScope/names``).
    ///
    /// Query words are split like names (`quarterlyRep` counts as `quarterly rep`); matching
    /// ignores case and diacritics. Results are ranked: items where every word matches a whole
    /// word come before prefix matches; then matches in the name before the title, authors and
    /// keywords, folder names, then text; then the most recently modified; then by identifier.
    ///
    /// - Parameters:
    ///   - words: The query words.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, when given.
    ///   - scope: What is searched: everything, or names only.
    /// - Returns: The items, best first, without their text and thumbnail bytes (as a list
    ///   reads them); ``searchResults(words:domain:limit:scope:)`` also says where each matched.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    ///
    /// Words with no letter or digit find nothing.
    ///
    /// A `limit` lets the search settle its page without ranking every match where it can (text-
    /// only matches of a common word: a walk of the newest items, ``ContentSearch``); without
    /// one, every match is ranked.
    ///
    /// ```swift
    /// let found = try index.search(words: ["quarterly", "rep"], limit: 20)
    /// ```
    public func search(words: [String], domain: String? = nil, limit: Int? = nil,
                       scope: SearchScope = .all) throws -> [IndexedItem] {
        try rankedMatches(words: words, domain: domain, limit: limit, scope: scope) { db, matches, _ in
            try Self.fetchItems(ids: matches.map(\.rank.id), in: db)
        }
    }

    /// What ``search(words:domain:limit:scope:)`` returns, with where each item matched and,
    /// for a match in its text, a snippet of the text around it.
    ///
    /// Parameters as ``search(words:domain:limit:scope:)``.
    ///
    /// ```swift
    /// for result in try index.searchResults(words: ["budget"], limit: 10) {
    ///     print(result.item.item.uniqueIdentifier, result.matchedIn, result.snippet ?? "")
    /// }
    /// ```
    ///
    /// The snippets are read after ranking, only for the results returned that matched in their
    /// text or keywords.
    ///
    /// - Returns: The results, best first: each item, the field it matched in
    ///   (``SearchResult/matchedIn``), and a snippet when that field is text.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func searchResults(words: [String], domain: String? = nil, limit: Int? = nil,
                              scope: SearchScope = .all) throws -> [SearchResult] {
        try rankedMatches(words: words, domain: domain, limit: limit, scope: scope) { db, matches, tokens in
            let items = try Self.fetchItems(ids: matches.map(\.rank.id), in: db)
            let content = matches.filter(\.matchedIn.isDescribedByText).map(\.rank.id)
            let snippets = try Self.snippets(of: content, matching: tokens, in: db)
            return zip(matches, items).map { match, item in
                let field = match.matchedIn == .name && match.rank.fieldRank > 0
                    ? SearchResult.Field(names: tokens, of: item) : match.matchedIn
                var result = SearchResult(item: item, matchedIn: field, snippet: field.isDescribedByText ? snippets[match.rank.id] : nil)
                result.matchesLikeTitle = match.rank.prefixOnlyCount == 0
                    && match.rank.fieldRank <= ContentSearch.phraseRank * tokens.count
                return result
            }
        }
    }

    /// The domains and identifiers of what ``search(words:domain:limit:scope:)`` returns, in
    /// the same order, without fetching the items: for output that prints paths only.
    ///
    /// Parameters as ``search(words:domain:limit:scope:)``.
    ///
    /// ```swift
    /// for reference in try index.searchReferences(words: ["invoice"], limit: 100) {
    ///     print(reference.domain, reference.identifier)
    /// }
    /// ```
    ///
    /// - Returns: The domain and identifier of each result, best first.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func searchReferences(words: [String], domain: String? = nil, limit: Int? = nil,
                                 scope: SearchScope = .all) throws -> [ItemReference] {
        try rankedMatches(words: words, domain: domain, limit: limit, scope: scope) { db, matches, _ in
            let domains = try DomainNames(in: db)
            return try matches.map { ItemReference(domain: try domains.name(ofItem: $0.rank.id), identifier: $0.rank.identifier) }
        }
    }

    /// The ranked matches of a query, best first, handed to `body` inside the read. A match
    /// from name search alone says `.name`: ``searchResults(words:domain:limit:scope:)`` works
    /// out the field of the few it returns.
    ///
    /// Name search reads through the lightest connection (``readStatements(_:)``); content
    /// search, when the index has content and it is searched, through GRDB's.
    ///
    /// Compounds (``CompoundWords``: `d70`, `x86_64`) are matched as typed; when that finds
    /// nothing, the search is made again with their parts as words of their own. `body` is
    /// told the tokens that found the matches.
    ///
    /// `path` is told the way the matches were found (``SearchPath``), for `--explain`.
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many matches; a page settled without ranking every match where it can.
    ///   - scope: Everything, or names only.
    ///   - body: Given the connection, the matches and the tokens that found them.
    /// - Returns: What `body` returns.
    /// - Throws: ``SearchlightError`` when the index cannot be read, and what `body` throws.
    func rankedMatches<T>(words: [String], domain: String?, limit: Int?, scope: SearchScope,
                          path: (SearchPath) -> Void = { _ in },
                          _ body: (any ReadConnection, [ContentSearch.Match], [String]) throws -> T) throws -> T {
        let tokens = Self.nameQueryTokens(words)
        if let parts = CompoundWords.partTokens(tokens) {
            let whole = try rankedMatches(tokens: tokens, domain: domain, limit: limit, scope: scope, path: path) { db, matches -> T? in
                matches.isEmpty ? nil : try body(db, matches, tokens)
            }
            if let whole { return whole }
            return try rankedMatches(tokens: parts, domain: domain, limit: limit, scope: scope, path: path) { try body($0, $1, parts) }
        }
        return try rankedMatches(tokens: tokens, domain: domain, limit: limit, scope: scope, path: path) { try body($0, $1, tokens) }
    }

    /// ``rankedMatches(words:domain:limit:scope:path:_:)`` of query tokens.
    ///
    /// With a limit and content, the ways are tried in order, each giving up with `nil`: the best
    /// name tier by date, a compound's name page, ``ContentSearch/oneWordPage(limit:sampling:)``,
    /// ``ContentSearch/severalWordsPage(limit:sampling:candidatesAtMost:)``,
    /// ``ContentSearch/firstMatches(limit:)``, ``ContentSearch/tieredMatches(limit:rankingAtMost:sortingAtMost:)``,
    /// then every match ranked; `path` is told the one taken. No tokens: `body` is given no match.
    /// An unknown domain: no match either.
    private func rankedMatches<T>(tokens: [String], domain: String?, limit: Int?, scope: SearchScope,
                                  path: (SearchPath) -> Void,
                                  _ body: (any ReadConnection, [ContentSearch.Match]) throws -> T) throws -> T {
        /// The name matches as ranked matches of the name alone, in the same order, for `body`.
        func named(_ matches: [NameMatch]) -> [ContentSearch.Match] {
            matches.map { ContentSearch.Match(rank: $0, matchedIn: .name) }
        }
        // `Optional<T>` when `T` is optional: `.none` says content search is needed.
        let byName = try readStatements { db -> T?? in
            guard !tokens.isEmpty else { return .some(try body(db, [])) }
            guard try scope != .all || !Self.hasContent(in: db) else { return .none }
            path(.names)
            return .some(try body(db, named(Self.nameMatches(tokens, domain: domain, limit: limit, in: db))))
        }
        if let byName { return byName! }
        return try read { db in
            // Content may have gone since the first look.
            guard try Self.hasContent(in: db) else {
                path(.names)
                return try body(db, named(Self.nameMatches(tokens, domain: domain, limit: limit, in: db)))
            }
            guard let filter = try ItemFilter(domain: domain, in: db) else { return try body(db, []) }
            let search = ContentSearch(db: db, tokens: tokens, filter: filter)
            if let limit {
                let limit = Swift.max(limit, 0)
                if limit > 0, try Self.nameTierDecides(tokens, in: db),
                   let best = try Self.bestMatchesByDate(tokens, domain: domain, limit: limit, in: db) {
                    path(.bestNameTier)
                    return try body(db, named(best))
                }
                if let page = try Self.compoundNamePage(tokens, domain: domain, limit: limit, in: db) {
                    path(.bestNameTier)
                    return try body(db, named(page))
                }
                // The ways of reading a first page, cheapest first; each gives the full
                // ranking's page or `nil` (``SearchPath``).
                let ways: [(SearchPath, () throws -> [ContentSearch.Match]?)] = [
                    (.oneWord, { try search.oneWordPage(limit: limit) }),
                    (.severalWords, { try search.severalWordsPage(limit: limit) }),
                    (.wholeWords, { try search.firstMatches(limit: limit) }),
                    (.tiers, { try search.tieredMatches(limit: limit) }),
                ]
                for (way, read) in ways {
                    if let page = try read() {
                        path(way)
                        return try body(db, page)
                    }
                }
                path(.everyMatch)
                return try body(db, Array(search.allMatches().prefix(limit)))
            }
            path(.everyMatch)
            return try body(db, search.allMatches())
        }
    }

    /// Name search's ranked matches.
    ///
    /// With a limit, a page is tried first (a compound's, then the best tier by date, then the
    /// page after it), and every candidate is ranked only when each gives up.
    private static func nameMatches(_ tokens: [String], domain: String?, limit: Int?, in db: any ReadConnection) throws -> [NameMatch] {
        if let limit, let page = try compoundNamePage(tokens, domain: domain, limit: limit, in: db) { return page }
        var wholeInName: MemberIDs?
        if let limit, limit > 0, let best = try bestMatchesByDate(tokens, domain: domain, limit: limit, in: db,
                                                                   wholeInName: { wholeInName = $0 }) {
            return best
        }
        if let limit, limit > 0, let page = try pageAfterBestTier(tokens, domain: domain, limit: limit, in: db) {
            return page
        }
        let candidates = try nameCandidates(tokens, domain: domain, wholeInName: wholeInName, in: db)
        return candidates.ranked(limit: limit.map { Swift.max($0, 0) })
    }

    /// Whether the best rank of name search is also the best rank with content: unless a word
    /// that no name has whole is a whole word of some text (then a text match outranks the
    /// name's prefix match).
    ///
    /// Costs one seek in `item_content` per word that no name holds whole (at most one row read);
    /// `false` at once for a compound.
    private static func nameTierDecides(_ tokens: [String], in db: any ReadConnection) throws -> Bool {
        guard !hasCompound(tokens) else { return false }
        let tier = try BestNameTier(tokens, in: db)
        for token in tier.prefixTokens {
            let found = try db.readStatement("SELECT rowid FROM item_content WHERE item_content MATCH ? LIMIT 1")
                .firstRow(.text(quoted(token))) { _ in } != nil
            if found { return false }
        }
        return true
    }

    /// The number of items ``search(words:domain:limit:scope:)`` would return without a limit.
    ///
    /// Nothing is ranked: the items that hold every word are counted (`search --count`).
    ///
    /// - Parameters:
    ///   - words: The words as typed.
    ///   - domain: Only this domain, when given.
    ///   - scope: What is searched: everything, or names only.
    /// - Returns: The number of matching items.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func countMatches(words: [String], domain: String? = nil, scope: SearchScope = .all) throws -> Int {
        let tokens = Self.nameQueryTokens(words)
        // Compounds as typed, else their parts (``CompoundWords``).
        if let parts = CompoundWords.partTokens(tokens) {
            let whole = try countMatches(tokens: tokens, domain: domain, scope: scope)
            return whole > 0 ? whole : try countMatches(tokens: parts, domain: domain, scope: scope)
        }
        return try countMatches(tokens: tokens, domain: domain, scope: scope)
    }

    /// ``countMatches(words:domain:scope:)`` of query tokens.
    ///
    /// 0 for no tokens or an unknown domain; through name search alone when names only are searched
    /// or the index holds no content (``countNameMatches(_:domain:in:)``), else ``ContentSearch/count()``.
    func countMatches(tokens: [String], domain: String?, scope: SearchScope) throws -> Int {
        guard !tokens.isEmpty else { return 0 }
        let byName = try readStatements { db -> Int? in
            guard try scope != .all || !Self.hasContent(in: db) else { return nil }
            return try Self.countNameMatches(tokens, domain: domain, in: db)
        }
        if let byName { return byName }
        return try read { db in
            guard try Self.hasContent(in: db) else { return try Self.countNameMatches(tokens, domain: domain, in: db) }
            guard let filter = try ItemFilter(domain: domain, in: db) else { return 0 }
            return try ContentSearch(db: db, tokens: tokens, filter: filter).count()
        }
    }

    /// The number of items name search finds.
    ///
    /// One count over the names' full-text match: of its rows alone when every item counts
    /// (``everyItemCounts(domain:in:)``), else joined to the item rows; a compound's candidates are
    /// ranked (``nameCandidates(_:domain:wholeInName:rankingOnBytes:matching:in:)``).
    private static func countNameMatches(_ tokens: [String], domain: String?, in db: any ReadConnection) throws -> Int {
        // A compound's full-text match holds items whose parts are out of order: they are read.
        if hasCompound(tokens) { return try nameCandidates(tokens, domain: domain, in: db).count }
        if try everyItemCounts(domain: domain, in: db) {
            // The full-text index has one row per item: no item needs looking up.
            return try db.readStatement("SELECT count(*) FROM item_words WHERE item_words MATCH ?")
                .firstRow(.text(nameMatchExpression(tokens))) { Int(sqlite3_column_int64($0, 0)) } ?? 0
        }
        return try db.readStatement("""
            SELECT count(*) FROM item_words JOIN item ON item.id = item_words.rowid
            WHERE item_words MATCH :match AND \(inDomain) AND \(notExpired)
            """).firstRow(named: nameKeys(tokens, domain: domain)) { Int(sqlite3_column_int64($0, 0)) } ?? 0
    }

    /// Whether every item is in `domain` (any, when `nil`) and none has expired: then counting
    /// matches needs no look at the items.
    ///
    /// Costs a seek for an expired item (in the index of expiration dates) and, for a domain,
    /// its look-up and two seeks. `false` for an
    /// unknown domain.
    static func everyItemCounts(domain: String?, in db: any ReadConnection) throws -> Bool {
        let expired = try db.readStatement("""
            SELECT EXISTS (SELECT 1 FROM item WHERE expirationDate IS NOT NULL AND expirationDate <= ?)
            """).firstRow(.real(Date().timeIntervalSince1970)) { sqlite3_column_int64($0, 0) != 0 } ?? true
        guard !expired else { return false }
        guard let domain else { return true }
        guard let id = try domainID(named: domain, in: db) else {
            return false
        }
        // Two seeks in the (domainId, identifier) index.
        let otherDomains = try db.readStatement("""
            SELECT EXISTS (SELECT 1 FROM item WHERE domainId < :id) OR EXISTS (SELECT 1 FROM item WHERE domainId > :id)
            """).firstRow(named: ["id": .integer(id)]) { sqlite3_column_int64($0, 0) != 0 } ?? true
        return !otherDomains
    }

    /// The SQL condition that an item is in `:domain`, or any domain when it is NULL: the domain's
    /// name is looked up once per statement.
    ///
    /// Spliced into the statements of the name search and of the item count; each of them must bind
    /// `:domain` (``nameKeys(_:domain:matching:)`` does), to NULL for every domain. An unknown
    /// name makes the subquery NULL, so the condition holds for no item: such a domain has nothing.
    static let inDomain = "(:domain IS NULL OR item.domainId = (SELECT id FROM domain WHERE name = :domain))"

    /// The folded words of a name query (``CompoundWords``: plain words and compounds such as
    /// `d 70`): none when the words hold no letter or digit (marks, punctuation, symbols
    /// alone), which find nothing — no typed text is an error.
    ///
    /// Reads no index: it is the same for the SQLite index and for ``SearchResult`` matching in
    /// memory, so that both split a query alike.
    ///
    /// - Parameter words: The words of the query, as typed.
    /// - Returns: The tokens, in the order of the words: plain folded words, and compounds with their
    ///   parts joined by a space within a run and `_` between runs (``CompoundWords/tokens(of:)``).
    static func nameQueryTokens(_ words: [String]) -> [String] {
        CompoundWords.tokens(of: words)
    }

    /// An FTS5 query asking every token as a prefix of a word in any column.
    ///
    /// Compounds as ``nameTerm(_:whole:)`` writes them: every part but the last whole.
    ///
    /// `["report", "d 70"]` becomes `"report"* AND ("d" AND "70"*)`. Each token is quoted
    /// (``quoted(_:)``), so no token is read as FTS5 syntax.
    ///
    /// - Parameter tokens: Tokens from ``nameQueryTokens(_:)``, at least one.
    static func nameMatchExpression(_ tokens: [String]) -> String {
        tokens.map { nameTerm($0, whole: false) }.joinedInPlace(separator: " AND ")
    }

    /// A token as an FTS5 term of `item_words`: a whole word or a prefix; a compound as its
    /// parts, each whole but the last (``CompoundWords``: the index keeps no positions, so
    /// that they are consecutive is checked on the fields).
    ///
    /// `nameTerm("report", whole: false)` is `"report"*`; `nameTerm("d 70", whole: false)` is
    /// `("d" AND "70"*)`, and with `whole: true`, `("d" AND "70")`.
    ///
    /// - Parameters:
    ///   - token: A plain word or a compound from ``nameQueryTokens(_:)``.
    ///   - whole: `true` to match the last part as a whole word only, `false` as a prefix.
    /// - Returns: The term, safe to join with `AND` or `OR` into a larger FTS5 query.
    static func nameTerm(_ token: String, whole: Bool) -> String {
        guard CompoundWords.isCompound(token) else { return quoted(token) + (whole ? "" : "*") }
        let parts = CompoundWords.parts(of: token)
        return "(" + parts.indices.map { quoted(parts[$0]) + (whole || $0 < parts.count - 1 ? "" : "*") }
            .joinedInPlace(separator: " AND ") + ")"
    }

    /// Whether any token is a compound: its items are known only once their fields are read,
    /// so the shortcuts that take a full-text match for a rank are not taken.
    ///
    /// A compound is a token with a space or `_` in it (``CompoundWords/isCompound(_:)``); the test
    /// reads the bytes only.
    static func hasCompound(_ tokens: [String]) -> Bool {
        tokens.contains(where: CompoundWords.isCompound)
    }

    /// A token as an FTS5 string: never query syntax. Its `"` are doubled byte by byte: Foundation's
    /// `replacingOccurrences` goes through `NSString`, whose first use looks up a conformance
    /// at every search's start (Benchmarks/README.md, "Start-up").
    ///
    /// - Parameter token: Any text, quotes included (`say "hi"` becomes `"say ""hi"""`).
    /// - Returns: The token between double quotes: FTS5 reads it as one string, through its
    ///   tokenizer, whatever characters it holds.
    static func quoted(_ token: String) -> String {
        var bytes: [UInt8] = [0x22]
        bytes.reserveCapacity(token.utf8.count + 2)
        for byte in token.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The named parameters of a name query (`:match`, `:domain`, `:now`).
    ///
    /// - Parameters:
    ///   - expression: The FTS5 query, when not ``nameMatchExpression(_:)`` of `tokens`.
    /// - Returns: `:match`, `:domain` (NULL for any) and `:now`, the current time, which
    ///   ``notExpired`` compares expiration dates with.
    static func nameKeys(_ tokens: [String], domain: String?, matching expression: String? = nil) -> KeyValuePairs<String, LookupKey> {
        ["match": .text(expression ?? nameMatchExpression(tokens)), "domain": .text(domain), "now": .real(Date().timeIntervalSince1970)]
    }

    /// Every candidate of a name query, ranked, in no order.
    ///
    /// - Parameters:
    ///   - known: The items that have every word whole in their name, when already read.
    ///   - onBytes: Whether candidates are ranked on their bytes (``CandidateRank``) rather
    ///     than split into words as strings: `false` for tests.
    ///   - expression: The FTS5 query of the candidates, when not every token as a prefix of
    ///     any word (``nameMatchExpression(_:)``).
    static func nameCandidates(_ tokens: [String], domain: String?, wholeInName known: MemberIDs? = nil,
                               rankingOnBytes onBytes: Bool = true, matching expression: String? = nil,
                               in db: any ReadConnection) throws -> [NameMatch] {
        // The full-text index knows which items have every word whole in their name, the best
        // rank: those need no splitting of their fields here.
        var wholeInName: MemberIDs = []
        if let known {
            wholeInName = known
        } else if !hasCompound(tokens) {
            var ids: [Int64] = []
            try db.readStatement("SELECT rowid FROM item_words WHERE item_words MATCH ?")
                .forEachRow(.text("name : (" + tokens.map(quoted).joinedInPlace(separator: " AND ") + ")")) {
                    ids.append(sqlite3_column_int64($0, 0))
                    return true
                }
            wholeInName = MemberIDs.finished(ids)
        }
        // The keywords are put together here (``CandidateKeywords``), not by SQLite for every row.
        let statement = try db.readStatement("""
            SELECT \(candidateColumns)
            FROM item_words JOIN item ON item.id = item_words.rowid
            WHERE item_words MATCH :match AND \(Self.inDomain) AND \(Self.notExpired)
            """)
        var ranker = try CandidateRanker(tokens: tokens, wholeInName: wholeInName, onBytes: onBytes, in: db)
        var matches: [NameMatch] = []
        try statement.forEachRow(named: nameKeys(tokens, domain: domain, matching: expression)) { row in
            // `nil`: the item's kind has no row, which a join with `content_kind` would leave out.
            if let match = try ranker.match(row) { matches.append(match) }
            return true
        }
        return matches
    }

    /// What ranking a candidate reads, in the order ``CandidateRanker`` reads it.
    /// The columns ``CandidateRanker`` reads, by position: the keywords are put together from
    /// the kind and the user's own fields by ``CandidateKeywords``, not by SQLite for every row.
    static let candidateColumns = """
        item.id, item.identifier, item.displayName, item.title, item.kindId, item.modificationDate,
        item.derived, item.userTags, item.comment, item.whereFroms
        """

    /// The first `limit` results when the best rank any candidate can have fills them, else `nil`.
    ///
    /// Items of the best rank come first, and among them the most recently modified, so the
    /// first page never needs the other candidates ranked (a common word matches a large part
    /// of a big index). How the page is found depends on how many items have that rank, which
    /// the first rows of the full-text match tell (see ``PageStrategy``).
    ///
    /// - Parameters:
    ///   - forced: The strategy to use whatever the estimate says: for tests.
    ///   - wholeInName: Told the items that have every word whole in their name when they are
    ///     too few for a page, so that ranking every candidate need not read them again.
    static func bestMatchesByDate(_ tokens: [String], domain: String?, limit: Int, in db: any ReadConnection,
                                  strategy forced: PageStrategy? = nil,
                                  wholeInName: (MemberIDs) -> Void = { _ in }) throws -> [NameMatch]? {
        // A compound's full-text match holds items whose parts are not consecutive: no rank
        // is known before the fields are read.
        guard !hasCompound(tokens) else { return nil }
        let tier = try BestNameTier(tokens, in: db)
        // A one-letter prefix is in no prefix index: FTS5 merges the lists of every word that
        // starts with it before giving one member. Most recent items have such a word, so the
        // date walk is tried first, for a few thousand entries (see ``PageStrategy/walkFirst``).
        if forced == nil, limit * 4 <= PageStrategy.walkFirst, tier.prefixTokens.contains(where: { $0.unicodeScalars.count < 2 }) {
            guard let filter = try ItemFilter(domain: domain, in: db) else { return [] }
            if let page = try pageReadingNames(tier, filter: filter, limit: limit, budget: PageStrategy.walkFirst,
                                               probing: true, in: db) {
                return page
            }
        }
        return try db.readStatement("SELECT rowid FROM item_words WHERE item_words MATCH ?").withRows(.text(tier.expression)) { members in
            var sample: [Int64] = []
            while sample.count < PageStrategy.sampleSize, let row = try members.next() { sample.append(sqlite3_column_int64(row, 0)) }
            guard sample.count >= limit else {
                if tier.prefixTokens.isEmpty, sample.count < PageStrategy.sampleSize { wholeInName(MemberIDs.finished(sample)) }
                return nil
            }
            guard let filter = try ItemFilter(domain: domain, in: db) else { return [] }
            switch try forced ?? PageStrategy(sample: sample, limit: limit, in: db) {
            case .sortMembers:
                // The rest of the members follow the sample: the match is evaluated once.
                while let row = try members.next() { sample.append(sqlite3_column_int64(row, 0)) }
                return try pageSorting(members: sample, filter: filter, limit: limit, in: db)
            case .walkReadingNames(let budget):
                if let page = try pageReadingNames(tier, filter: filter, limit: limit, budget: budget, in: db) { return page }
                fallthrough
            case .walkCheckingMembers:
                // The rest of the members follow the sample: the match is evaluated once.
                var memberIDs = MemberIDs(sample)
                while let row = try members.next() { memberIDs.append(sqlite3_column_int64(row, 0)) }
                memberIDs.finish()
                return try pageByDate(filter: filter, limit: limit, in: db) { id, _ in memberIDs.contains(id) }
            }
        }
    }

    /// The page among few items: SQLite looks each one up and sorts them newest first.
    ///
    /// One statement, the members given as one JSON array: each is looked up by its row id, and
    /// the rows the filter admits sorted newest first (undated ones last). The reading stops at the
    /// first row dated before the page's last.
    ///
    /// - Returns: The page, as matches of the best rank (the caller gives them theirs); `nil` when
    ///   fewer than `limit` members are admitted.
    static func pageSorting(members: [Int64], filter: ItemFilter, limit: Int, in db: any ReadConnection) throws -> [NameMatch]? {
        // The row ids travel as one JSON array; `ifnull` keeps SQLite from walking the date
        // index, since the members are few.
        var page = PageCollector(limit: limit)
        try db.readStatement("""
            SELECT id, ifnull(modificationDate, 0), identifier FROM item
            WHERE id IN (SELECT value FROM json_each(:members))
              AND (:domainID IS NULL OR domainId = :domainID) AND \(notExpired)
            ORDER BY 2 DESC
            """).forEachRow(named: ["members": .text("[" + members.map(String.init).joinedInPlace(separator: ",") + "]"),
                                    "domainID": filter.domainID.map { .integer($0) } ?? .null, "now": .real(filter.now)]) { row in
                let date = sqlite3_column_double(row, 1)
                guard page.wants(date) else { return false }
                page.add(NameMatch(best: sqlite3_column_int64(row, 0), identifier: ItemIdentifier(bytes: Array(blob(row, 2))),
                                   modificationDate: date))
                return true
            }
        return page.result
    }

    /// The page met walking the date index newest first and checking each item's name words
    /// against `tier`; `nil` when `budget` items are visited first.
    ///
    /// - Parameters:
    ///   - probing: Whether to give up a quarter of the way into `budget` when fewer than a
    ///     quarter of the page was met by then.
    ///   - match: What an admitted item is, given its row id and date: `nil` to leave it out.
    ///     Without it, every admitted item has the best rank.
    /// - Returns: The page, newest first, with the items dated like the last; `nil` when fewer
    ///   than `limit` are met among dated items, or when the walk gives up (`budget`, `probing`).
    static func pageReadingNames(_ tier: BestNameTier, filter: ItemFilter, limit: Int, budget: Int,
                                 probing: Bool = false, in db: any ReadConnection,
                                 match: ((Int64, Double) throws -> NameMatch?)? = nil) throws -> [NameMatch]? {
        let statement = try db.readStatement("""
            SELECT id, modificationDate, displayName, domainId, expirationDate, identifier
            FROM item INDEXED BY item_by_modification_date
            WHERE modificationDate > 0 ORDER BY modificationDate DESC
            """)
        // Most visited rows are not admitted: their columns are read in place, without decoding.
        return try statement.withRows { newestFirst -> [NameMatch]? in
            var page = PageCollector(limit: limit)
            var folds = NameFolds()
            var visited = 0
            while let columns = try newestFirst.next() {
                visited += 1
                if visited > budget { return nil }
                // A quarter of the way, a quarter of the page: else the walk would not end in time.
                if probing, visited == budget / 4, page.count * 4 < limit { return nil }
                let date = sqlite3_column_double(columns, 1)
                guard page.wants(date) else { break }
                let name = UnsafeBufferPointer(start: sqlite3_column_text(columns, 2),
                                               count: Int(sqlite3_column_bytes(columns, 2)))
                let expiration = sqlite3_column_type(columns, 4) == SQLITE_NULL ? nil : sqlite3_column_double(columns, 4)
                guard tier.admits(nameBytes: name, folds: &folds),
                      filter.admits(domainID: sqlite3_column_int64(columns, 3), expiration: expiration) else { continue }
                if let match {
                    if let found = try match(sqlite3_column_int64(columns, 0), date) { page.add(found) }
                    continue
                }
                page.add(NameMatch(best: sqlite3_column_int64(columns, 0), identifier: ItemIdentifier(bytes: Array(blob(columns, 5))),
                                   modificationDate: date))
            }
            return page.result
        }
    }

    /// The page met walking the date index newest first, keeping the items `isMember` admits.
    /// The index alone holds the row ids: only members are looked up in the table.
    ///
    /// Costs a step of the date index for each visited entry, and a look-up of the item row for
    /// each member (its identifier, domain and expiration). Only dated items are in the index.
    ///
    /// - Parameter isMember: Given the row id and the date of each visited entry, newest first.
    /// - Returns: The page as matches of the best rank (the caller gives them theirs), with the
    ///   items dated like the last; `nil` when fewer than `limit` are found.
    static func pageByDate(filter: ItemFilter, limit: Int, in db: any ReadConnection,
                           isMember: (Int64, Double) throws -> Bool) throws -> [NameMatch]? {
        let statement = try db.readStatement("""
            SELECT id, modificationDate FROM item INDEXED BY item_by_modification_date
            WHERE modificationDate > 0 ORDER BY modificationDate DESC
            """)
        // Most visited entries are not members: their columns are read in place, without decoding.
        let details = try db.readStatement("SELECT identifier, domainId, expirationDate FROM item WHERE id = ?")
        var page = PageCollector(limit: limit)
        try statement.withRows { newestFirst in
            while let columns = try newestFirst.next() {
                let id = sqlite3_column_int64(columns, 0)
                let date = sqlite3_column_double(columns, 1)
                guard page.wants(date) else { break }
                guard try isMember(id, date), let admitted = try details.firstRow(.integer(id), read: { detail in
                    filter.admits(domainID: sqlite3_column_int64(detail, 1),
                                  expiration: sqlite3_column_type(detail, 2) == SQLITE_NULL ? nil : sqlite3_column_double(detail, 2))
                        ? ItemIdentifier(bytes: Array(blob(detail, 0))) : nil
                }), let identifier = admitted else { continue }
                page.add(NameMatch(best: id, identifier: identifier, modificationDate: date))
            }
        }
        return page.result
    }

    /// Full items for `ids`, in the order of `ids`.
    ///
    /// - Returns: The items found, in the order of `ids`; an id without an item is left out. Empty,
    ///   without a read, for no ids.
    /// - Throws: An error of the connection when the read fails.
    static func fetchItems(ids: [Int64], in db: any ReadConnection) throws -> [IndexedItem] {
        guard !ids.isEmpty else { return [] }
        var byID: [Int64: IndexedItem] = [:]
        // One statement, prepared once per connection, whatever the number of ids: the ids
        // go in as one JSON array (a statement with a placeholder per id was prepared anew
        // for every search). Each row is read in place (an item copies what it keeps).
        var reader = ItemReader()
        try db.readStatement("""
            SELECT item.id AS rowID, \(itemColumns) FROM item \(itemJoins)
            WHERE item.id IN (SELECT value FROM json_each(?))
            """).forEachRow(.text("[" + ids.map(String.init).joinedInPlace(separator: ",") + "]")) { row in
                byID[sqlite3_column_int64(row, 0)] = reader.item(at: row)
                return true
            }
        return ids.compactMap { byID[$0] }
    }
}
