import Foundation
import GRDB
import GRDBSQLite

/// A search over every field, text included (Docs/Contract.md#search), inside one read.
///
/// Ranking is name search's, extended: for each word, the best field it matches — a whole
/// word before a prefix, then name, title, authors and keywords, folders, text; items are
/// ordered by how many words matched only as prefixes, then by the sum of the words' field
/// ranks, then newest first, then by identifier. Two refinements of the text:
/// - an item whose text holds the query words as a phrase (adjacent, in the order typed) ranks
///   as if every word were in its title (``phraseRank``);
/// - items that match only in their text, alike in rank, are ordered by ``TextRelevance``
///   (phrase, proximity, BM25), newest first among equals.
///
/// Candidates come in two groups:
/// - **rich** candidates: items where some word matches a name, title, keywords or folder
///   word (`item_words`) or an author (`item_content`'s `authors` column). Few; each is ranked
///   exactly on its fields' bytes (``CandidateRank``), and the words it lacks there are
///   looked up in its text.
/// - **text-only** items: every word matches only in their text. They rank last within their
///   number of prefix-only words; for the first page only the newest of them are needed, which
///   a walk of the date index finds (``SearchableIndex/pageByDate(filter:limit:in:isMember:)``)
///   when they are many.
///
/// Han and kana words are matched as their characters in the index, then checked as a
/// substring of the stored text (``ContentWords``).
///
/// A value made for one search, inside one read transaction, and thrown away after it: the
/// entry points are ``SearchableIndex``'s (``SearchableIndex/search(words:domain:limit:scope:)``,
/// ``SearchableIndex/searchResults(words:domain:limit:scope:)``,
/// ``SearchableIndex/countMatches(words:domain:scope:)``, and `--explain`'s plan), which make
/// one when the index holds text; name search alone answers an index without any. It is not `Sendable`: it runs on the reading thread, and its ``Memo`` keeps what it
/// read for the rest of that search only.
///
/// With a limit, ``SearchableIndex`` asks for a page in this order, and takes the first answer
/// that is not `nil`: ``oneWordPage(limit:sampling:)`` (one word),
/// ``severalWordsPage(limit:sampling:candidatesAtMost:)`` (several words),
/// ``firstMatches(limit:)`` (the page settled by the items with a word whole in a rich field),
/// ``tieredMatches(limit:rankingAtMost:sortingAtMost:)`` (rank by rank), and at last the first
/// `limit` of ``allMatches()``. Each shortcut returns exactly what ``allMatches()`` would put
/// first, or `nil`; none of them is taken for Han and kana words or compounds (``hasCJK``).
/// Without a limit, ``allMatches()``. ``count()`` ranks nothing when it can.
///
/// Every method reads through ``db`` and throws GRDB's `DatabaseError` when a read fails.
struct ContentSearch {
    /// The read transaction's connection (GRDB's: content search needs its FTS5 functions).
    let db: Database
    /// The search's words, folded as the index folds them.
    let tokens: [String]
    /// What every result must be besides a match: in the domain asked for, and not expired.
    let filter: ItemFilter
    /// What one search reads once and asks twice.
    let memo = Memo()

    /// A search of `tokens` over the items `filter` admits, read through `db`; nothing is read
    /// until it is asked.
    init(db: Database, tokens: [String], filter: ItemFilter) {
        self.db = db
        self.tokens = tokens
        self.filter = filter
    }

    /// The text tier's scores and phrases (``textTier()``).
    struct TextTier {
        /// The items of the tier, by row id.
        var members: [Int64]
        /// Each member's ``TextRelevance`` score.
        var scores: [Int64: Double]
        /// The members whose text holds the words as a phrase.
        var phrases: Set<Int64>
    }

    /// What the search read, kept for its later questions: a class, so that the methods of
    /// the value can fill it.
    final class Memo {
        /// What ``textTier()`` found: read once, whatever it found.
        /// `nil`: not read yet; `.some(nil)`: too many to score.
        var textTier: TextTier??
        /// The rows of each full-text match read so far, by table and expression.
        ///
        /// Keyed by the table, a NUL character and the expression: ``rowIDs(_:_:)`` fills it, and
        /// ``readLists(of:)`` fills it ahead for the expressions it answers.
        var rows: [String: RowSet] = [:]
        /// ``everyWord()``, once read.
        var everyWord: RowSet?
        /// Each word's ranks by row (``columnRanks(of:)``), once read.
        var ranks: [String: RowRanks] = [:]
        /// Each long prefix as it is sought (``seekablePrefix(_:)``), once asked.
        var seekableTerms: [String: String] = [:]
        /// ``longerWords(startingWith:in:atMost:)``, by word, limit and tables, once asked
        /// (`.some(nil)`: more than the limit).
        var longerWords: [String: [String]?] = [:]
    }

    /// One ranked result.
    struct Match {
        /// The match's place in the order (``NameMatch``): words matched only as a prefix, the sum
        /// of the words' field ranks, then newest first and the identifier.
        var rank: NameMatch
        /// The field of the match's worst-placed word (`.content` for the text): what a result says
        /// it matched in, and whether it gets a snippet.
        var matchedIn: SearchResult.Field
    }

    /// Fields in rank order, with their rank (authors and keywords share one).
    ///
    /// Also the order in which ``richMatches(among:lookingInText:seekingAtMost:)`` reads a
    /// candidate's fields: an index of this list is the place of that field's match bits.
    private static let richFields: [(rank: Int, field: SearchResult.Field)] =
        [(0, .name), (1, .title), (2, .authors), (2, .keywords), (3, .folders)]
    /// The rank of a match in the text: after every rich field.
    static let textRank = 4

    /// Whether matches in the text are checked on the stored text: Han and kana words (as
    /// written), compounds of several runs (``CompoundWords``: `x86_64` as `x86` then `64`).
    ///
    /// When `true`, no page is settled without ranking every match: ``oneWordPage(limit:sampling:)``,
    /// ``firstMatches(limit:)`` and ``tieredMatches(limit:rankingAtMost:sortingAtMost:)`` return
    /// `nil`, ``phraseHolders()`` looks for no phrase, and the matches in the text are checked on the
    /// stored text (``verified(_:)``).
    var hasCJK: Bool {
        tokens.contains {
            ContentWords.tokens(of: $0).count > 1 || $0.unicodeScalars.contains(where: ContentWords.isSplitCJK)
                || CompoundWords.runs(of: $0).count > 1
        }
    }

    // MARK: FTS5 expressions

    /// A token as an FTS5 term: a prefix query, or its characters (Han, kana); a compound
    /// (``CompoundWords``) as its runs, each whole but the last (`d 70` → `"d70"*`,
    /// `x 86_64` → `("x86" AND "64"*)`).
    ///
    /// Han and kana characters are whole terms whatever `whole` says: each is a word of its own in
    /// the index.
    ///
    /// - Parameters:
    ///   - token: One folded query word.
    ///   - whole: Whether the word must be whole; otherwise its last run is a prefix.
    /// - Returns: The term, quoted (never read as FTS5 syntax), parenthesised when it is several.
    static func term(_ token: String, whole: Bool) -> String {
        if CompoundWords.isCompound(token) {
            let runs = CompoundWords.runs(of: token)
            guard runs.count > 1 else { return term(runs[0], whole: whole) }
            return "(" + runs.indices.map { term(runs[$0], whole: whole || $0 < runs.count - 1) }.joined(separator: " AND ") + ")"
        }
        let parts = ContentWords.tokens(of: token)
        if parts.count > 1 || parts.first?.unicodeScalars.contains(where: ContentWords.isSplitCJK) == true {
            return "(" + parts.map(SearchableIndex.quoted).joined(separator: " AND ") + ")"
        }
        return SearchableIndex.quoted(token) + (whole ? "" : "*")
    }

    /// The FTS5 expression that asks the text column for every token (or `subset`), each as
    /// a prefix unless `whole`.
    ///
    /// - Parameters:
    ///   - whole: Whether every word must be whole.
    ///   - subset: The words to ask for, when not all of ``tokens``.
    /// - Returns: An expression for `item_content`, as ``rowIDs(_:_:)`` takes it.
    func textExpression(whole: Bool, only subset: [String]? = nil) -> String {
        "text : (" + (subset ?? tokens).map { Self.term($0, whole: whole) }.joined(separator: " AND ") + ")"
    }

    /// The rows of `table` that match `expression`, read once per search: the same word is
    /// asked for the candidates, the text-only items and each word's whole matches.
    ///
    /// The first time, one read of every list the expression names (and, for a prefix, its merge);
    /// after that, a dictionary look-up. The rows are not filtered: items of other domains and
    /// expired ones are among them, which the ranking leaves out (``ItemFilter``).
    ///
    /// - Parameters:
    ///   - table: `item_words` or `item_content`.
    ///   - expression: An FTS5 query of `table`.
    /// - Returns: Every row id that matches.
    /// - Throws: A `DatabaseError` when the read fails (or FTS5 refuses the expression).
    func rowIDs(_ table: String, _ expression: String) throws -> RowSet {
        let key = table + "\u{0}" + expression
        if let known = memo.rows[key] { return known }
        var rows = RowSet()
        try db.readStatement("SELECT rowid FROM \(table) WHERE \(table) MATCH ?").forEachRow(.text(expression)) { row in
            rows.insert(sqlite3_column_int64(row, 0))
            return true
        }
        memo.rows[key] = rows
        return rows
    }

    /// Whether more than `limit` rows of `table` match `expression`: at most `limit + 1` of
    /// them read (FTS5 reads a list from its start and stops there), none when the search
    /// read them already.
    ///
    /// The rows read here are not kept: a list found short is read again, whole, when asked.
    ///
    /// - Parameters:
    ///   - limit: How many rows the list may hold and still be told short.
    ///   - table: `item_words` or `item_content`.
    ///   - expression: An FTS5 query of `table`.
    /// - Throws: A `DatabaseError` when the read fails.
    func holds(moreThan limit: Int, _ table: String, _ expression: String) throws -> Bool {
        try firstRows(table, expression, atMost: limit).count > limit
    }

    /// The rows among `ids` that match `expression` in `table` (the texts', by default).
    ///
    /// A few ids are looked up one by one (`rowid IN`: FTS5 seeks each); more are met in the
    /// whole match, one read of the word's list (or of its prefix index). Seeking thousands
    /// of ids one by one took most of a one-letter search's second.
    ///
    /// A prefix longer than the prefix indexes is met in the whole match however few the ids
    /// are (``seeksCheaply(_:)``): each seek would merge its lists again.
    ///
    /// - Parameters:
    ///   - expression: An FTS5 query of `table`.
    ///   - ids: The rows to test.
    ///   - table: `item_content` unless told.
    ///   - seeking: How many ids are looked up one by one at most (``seekLimit``).
    /// - Returns: The subset of `ids` that matches; empty, without a read, when `ids` is.
    /// - Throws: A `DatabaseError` when the read fails.
    private func rowIDs(_ expression: String, among ids: RowSet, in table: String = "item_content",
                        seekingAtMost seeking: Int = Self.seekLimit) throws -> RowSet {
        guard !ids.isEmpty else { return [] }
        if ids.count > seeking || !Self.seeksCheaply(expression) {
            return try ids.intersection(rowIDs(table, expression))
        }
        return try RowSet(Int64.fetchAll(db, sql: """
            SELECT rowid FROM \(table) WHERE \(table) MATCH ? AND rowid IN (SELECT value FROM json_each(?))
            """, arguments: [expression, "[" + ids.map(String.init).joined(separator: ",") + "]"]))
    }

    /// The rows among `ids` whose text holds `token`, whole or as a prefix (``term(_:whole:)``).
    ///
    /// A compound's runs (`note_42_7_5`: `note`, `42`, `7`, `5`) are looked up one by one, each
    /// in the rows the one before kept: FTS5 seeking their conjunction at a row that lacks one
    /// walks every list on to the next row that has them all (4 ms a row on the 500 000 notes,
    /// where one word's seek costs 0.03 ms). The rows are the same: a conjunction's rows are
    /// those of each of its words.
    ///
    /// - Parameters:
    ///   - token: One folded query word.
    ///   - whole: Whether the word must be whole in the text.
    ///   - ids: The rows to test.
    ///   - seeking: How many ids are looked up one by one at most (``seekLimit``).
    /// - Returns: The subset of `ids` whose text holds the word (before the Han and kana check on
    ///   the stored text, ``verified(_:)``).
    func textRows(of token: String, whole: Bool, among ids: RowSet, seekingAtMost seeking: Int = Self.seekLimit) throws -> RowSet {
        let runs = CompoundWords.isCompound(token) ? CompoundWords.runs(of: token) : [token]
        guard runs.count > 1, ids.count <= seeking else {
            let term = whole || ids.count > seeking ? Self.term(token, whole: whole) : try seekablePrefix(token)
            return try rowIDs("text : " + term, among: ids, seekingAtMost: seeking)
        }
        var rows = ids
        for (index, run) in runs.enumerated() where !rows.isEmpty {
            let term = whole || index < runs.count - 1 ? Self.term(run, whole: true) : try seekablePrefix(run)
            rows = try rowIDs("text : " + term, among: rows, seekingAtMost: seeking)
        }
        return rows
    }

    /// `token` as a prefix, in a form FTS5 seeks row by row, for any column of either table:
    /// the prefix itself when a prefix index holds it (one to three characters); else, when at
    /// most seven longer words of the names and texts start with it, `token` or those words
    /// (`("alph" OR "alpha" OR "alphabet")`), and `token` whole when none does. Only past seven
    /// is it the prefix, which FTS5 merges whole at every seek (``seeksCheaply(_:)``).
    ///
    /// `alpha zulu` on half a million notes ranked 347 candidates: seeking `"alpha"*` among
    /// them read the list of every text (60 ms), where no other word starts with `alpha`. The
    /// pages of one word and of several read their prefix tiers through it too.
    ///
    /// Asked of the vocabularies once per search and word (``Memo/seekableTerms``).
    func seekablePrefix(_ token: String) throws -> String {
        let prefix = Self.term(token, whole: false)
        if Self.seeksCheaply(prefix) { return prefix }
        if let known = memo.seekableTerms[token] { return known }
        let term: String
        switch try longerWords(startingWith: token, in: ["item_words", "item_content"], atMost: 7) {
        case nil: term = prefix
        case []?: term = Self.term(token, whole: true)
        case let longer?: term = "(" + ([token] + longer).map(SearchableIndex.quoted).joined(separator: " OR ") + ")"
        }
        memo.seekableTerms[token] = term
        return term
    }

    /// How many rows ``rowIDs(_:among:in:)`` looks up one by one at most.
    static let seekLimit = 32

    /// Whether FTS5 finds a row of `expression` by seeking: every prefix term is one a prefix
    /// index holds (one to three characters). A longer prefix is read whole, every term it
    /// starts merged into one list, at each look-up (`fts5SetupPrefixIter`): thirteen look-ups
    /// of `note*` cost thirteen reads of the list of every note, where one read, kept for the
    /// search, serves them all.
    ///
    /// - Parameter expression: An FTS5 expression whose terms are quoted (``term(_:whole:)``).
    /// - Returns: `false` when some quoted term followed by `*` is longer than the longest indexed
    ///   prefix; `true` otherwise, whole terms included.
    static func seeksCheaply(_ expression: String) -> Bool {
        var term = "", quoted = false, previous: Character = " "
        for character in expression {
            if character == "\"" {
                // `""` inside a quoted term is a quote of the term.
                if quoted { quoted = false } else { quoted = true; if previous == "\"" { term.append("\"") } else { term = "" } }
            } else if quoted {
                term.append(character)
            } else if character == "*", previous == "\"", term.count > SearchableIndex.longestIndexedPrefix {
                return false
            }
            previous = character
        }
        return true
    }

    // MARK: Rich candidates

    /// The items with some word in a name, title, keywords, folder or author: as a prefix, or
    /// (`whole`) as a whole word; of several words, only those that have every word somewhere
    /// (``everyWord()``): `nikon d` would otherwise rank every item with a `d…` word, and
    /// `note 7 42 5` every item with `note` in its name. The candidates of one word all have it.
    ///
    /// Not filtered by domain or expiration, nor ranked: ``richMatches(among:lookingInText:)`` does both.
    ///
    /// - Parameter whole: Whether a word must be whole in the field (else a prefix of a word there).
    /// - Returns: Row ids; for several words, or a compound, only items that have every word
    ///   somewhere (``everyWord()``).
    func richCandidates(whole: Bool) throws -> RowSet {
        let any = tokens.map { SearchableIndex.nameTerm($0, whole: whole) }.joined(separator: " OR ")
        // Few items with every word (`note 7 42 5`, each word in every name or none): each is
        // looked up, where the union of the words' lists held every item of the index.
        if tokens.count > 1 || SearchableIndex.hasCompound(tokens), try everyWord().count <= Self.seekLimit {
            let every = try everyWord()
            return try rowIDs(any, among: every, in: "item_words").union(try rowIDs("authors : (" + any + ")", among: every))
        }
        // The union of each word's lists: the lists ``readLists(of:)`` read once serve here too.
        var ids = RowSet()
        for token in tokens {
            let term = SearchableIndex.nameTerm(token, whole: whole)
            ids.formUnion(try rowIDs("item_words", term))
            ids.formUnion(try rowIDs("item_content", "authors : (" + term + ")"))
        }
        // One word: each candidate has it, and the intersection would read its every match.
        return tokens.count == 1 && !SearchableIndex.hasCompound(tokens) ? ids : ids.intersection(try everyWord())
    }

    /// The items that have every word, each as a prefix of a word of any field or of the
    /// text: every match is one (Han and kana words are then checked on the text).
    ///
    /// One read of each word's list in each table (one- to three-letter words read their
    /// prefix index), intersected here. A word typed as the first letter of a second word
    /// (`nikon d`) once made every item with a `d…` word in a name a candidate to rank.
    ///
    /// - Returns: Row ids, not filtered by domain or expiration; empty as soon as one word matches
    ///   nothing (the words after it are not read). Read once per search (``Memo``).
    func everyWord() throws -> RowSet {
        if let known = memo.everyWord { return known }
        var every: RowSet?
        for token in tokens {
            var ids = try rowIDs("item_words", SearchableIndex.nameTerm(token, whole: false))
            ids.formUnion(try rowIDs("item_content", Self.term(token, whole: false)))
            every = every.map { $0.intersection(ids) } ?? ids
            if every?.isEmpty == true { break }
        }
        memo.everyWord = every ?? []
        return every ?? []
    }

    /// The rich candidates (among `candidates`, by default all of them) that match every word, ranked.
    ///
    /// - Parameter lookingInText: Whether the words a candidate lacks whole in its fields are
    ///   looked up in its text; without, candidates are ranked on their fields alone (for
    ///   those whose text cannot rank them better, ``oneWordPage(limit:sampling:)``).
    ///
    /// Costs one statement over the candidates' item rows (their ids as one JSON array, joined to
    /// their kind and their authors), a scan of the bytes of each one's five fields, and, per word,
    /// the text look-ups of the candidates that lack it whole in every field (``textRows(of:whole:among:)``).
    ///
    /// - Parameter candidates: The row ids to rank; ``richCandidates(whole:)`` (as prefixes) when `nil`.
    /// - Returns: The candidates the filter admits that match every word, by row id. A candidate
    ///   that lacks a word in its fields and (when looked for) in its text is left out; with Han
    ///   and kana words, so is a match in the text that ``verified(_:)`` does not confirm.
    /// - Parameter seeking: How many candidates are looked up in the text one by one at most
    ///   (``seekLimit``); more are met in each word's whole list.
    func richMatches(among candidates: RowSet? = nil, lookingInText: Bool = true,
                     seekingAtMost seeking: Int = Self.seekLimit) throws -> [Int64: Match] {
        let ids = try candidates ?? richCandidates(whole: false)
        guard !ids.isEmpty else { return [:] }
        let rows = try Row.fetchCursor(db, sql: """
            SELECT item.id, item.identifier, item.displayName, item.title, \(SearchableIndex.rankedKeywordsSQL), item.modificationDate,
                item_text.authors, item.domainId, item.expirationDate, item.derived
            FROM item JOIN content_kind ON content_kind.id = item.kindId LEFT JOIN item_text ON item_text.itemId = item.id
            WHERE item.id IN (SELECT value FROM json_each(?))
            """, arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"])
        var ranker = CandidateRank(tokens)
        struct Pending { var id: Int64; var identifier: ItemIdentifier; var date: Double; var fields: [(whole: UInt64, prefix: UInt64)] }
        var pending: [Pending] = []
        // Words each candidate lacks a whole match for in its fields: looked up in the text, per word.
        var lookups: [Int: RowSet] = [:]
        while let row = try rows.next() {
            guard filter.admits(domainID: row[7], expiration: row[8]) else { continue }
            let identifierData: Data = row[1]
            let identifier = ItemIdentifier(bytes: Array(identifierData))
            let isPath = (row[9] as Int) & StoredText.pathIdentifier != 0
            let folders = isPath ? identifier.parentComponents.joined(separator: "/") : ""
            var fields: [(whole: UInt64, prefix: UInt64)] = []
            for text in [row[2] as String?, row[3] as String?, row[6] as String?, row[4] as String?, folders] {
                var bytes = Array((text ?? "").utf8)
                fields.append(bytes.withUnsafeMutableBufferPointer { buffer in
                    ranker?.matches(in: UnsafeBufferPointer(buffer)) ?? Self.matches(tokens, in: text ?? "")
                })
            }
            for index in tokens.indices where lookingInText && !fields.contains(where: { $0.whole & (1 << index) != 0 }) {
                lookups[index, default: []].insert(row[0])
            }
            pending.append(Pending(id: row[0], identifier: identifier, date: row[5] as Double? ?? 0, fields: fields))
        }
        var inText: [Int: (whole: RowSet, prefix: RowSet)] = [:]
        for (index, ids) in lookups {
            let prefix = try textRows(of: tokens[index], whole: false, among: ids, seekingAtMost: seeking)
            let whole = try textRows(of: tokens[index], whole: true, among: prefix, seekingAtMost: seeking)
            inText[index] = (whole, prefix)
        }
        var matches: [Int64: Match] = [:]
        candidates: for candidate in pending {
            var prefixOnly = 0
            var fieldRank = 0
            var worst: (rank: Int, field: SearchResult.Field) = (-1, .name)
            for index in tokens.indices {
                let bit = UInt64(1) << index
                let text = inText[index]
                let best: (rank: Int, field: SearchResult.Field)
                var isWhole = true
                if let field = Self.richFields.indices.first(where: { candidate.fields[$0].whole & bit != 0 }) {
                    best = Self.richFields[field]
                } else if text?.whole.contains(candidate.id) == true {
                    best = (Self.textRank, .content)
                } else if let field = Self.richFields.indices.first(where: { candidate.fields[$0].prefix & bit != 0 }) {
                    best = Self.richFields[field]
                    isWhole = false
                } else if text?.prefix.contains(candidate.id) == true {
                    best = (Self.textRank, .content)
                    isWhole = false
                } else {
                    continue candidates
                }
                if !isWhole { prefixOnly += 1 }
                fieldRank += best.rank
                if best.rank > worst.rank { worst = best }
            }
            matches[candidate.id] = Match(
                rank: NameMatch(id: candidate.id, identifier: candidate.identifier, modificationDate: candidate.date,
                                prefixOnlyCount: prefixOnly, fieldRank: fieldRank),
                matchedIn: worst.field)
        }
        if hasCJK { try keepVerified(&matches) }
        return matches
    }

    /// Whole and prefix bits of each token in `text`, for more tokens than ``CandidateRank`` takes.
    ///
    /// Slower than ``CandidateRank``: the text is split into words (``NameTokenizer``) and each
    /// token matched against them (``CompoundWords/match(_:in:)``). Tokens past the 64th get no
    /// bit, so they match nowhere.
    ///
    /// - Returns: Bit `i` of `whole` when token `i` is a whole word of `text`, of `prefix` when it
    ///   starts one.
    private static func matches(_ tokens: [String], in text: String) -> (whole: UInt64, prefix: UInt64) {
        let words = NameTokenizer.words(in: text)
        var whole: UInt64 = 0, prefix: UInt64 = 0
        for (index, token) in tokens.enumerated().prefix(64) {
            let found = CompoundWords.match(token, in: words)
            if found.whole { whole |= 1 << index }
            if found.prefix { prefix |= 1 << index }
        }
        return (whole, prefix)
    }

    // MARK: Text-only items

    /// The text-only items (not among `rich`) with every word whole (`whole`) or as a prefix.
    ///
    /// One read of the text expression (``rowIDs(_:_:)``); the rows are not filtered yet, and come
    /// in row-id order.
    ///
    /// - Parameters:
    ///   - whole: Whether every word must be whole in the text, else a prefix of a word there.
    ///   - rich: The rich matches, whose items are ranked already.
    /// - Throws: A `DatabaseError` when the read fails.
    private func textOnly(whole: Bool, excluding rich: [Int64: Match]) throws -> [Int64] {
        try rowIDs("item_content", textExpression(whole: whole)).filter { rich[$0] == nil }
    }

    /// Every match, ranked, best first.
    ///
    /// The full ranking, which every shortcut must agree with. It reads each word's lists whole,
    /// every rich candidate's item row (``richMatches(among:lookingInText:)``), the row of every
    /// item matched in its text only (``forEachAdmitted(_:_:)``), and, with Han and kana words or
    /// compounds, the whole text of each of those; the text tier is ordered by relevance when small enough to
    /// score (``textTier()``). The cost grows with the number of matches: a one-letter word on a
    /// large index reads every item.
    ///
    /// - Returns: Every match the filter admits, ranked as ``ContentSearch`` says.
    /// - Throws: A `DatabaseError` when a read fails.
    func allMatches() throws -> [Match] {
        let rich = try richMatches()
        var matches = Array(rich.values)
        let wholeIDs = RowSet(try textOnly(whole: true, excluding: rich))
        var textIDs = try textOnly(whole: false, excluding: rich)
        if hasCJK { textIDs = try verified(textIDs) }
        // How many words each item has only as a prefix: by word, when there are several.
        var wholeByToken: [RowSet] = []
        if tokens.count > 1 {
            let textSet = RowSet(textIDs)
            for index in tokens.indices {
                wholeByToken.append(try textRows(of: tokens[index], whole: true, among: textSet))
            }
        }
        try forEachAdmitted(textIDs) { id, identifier, date in
            let prefixOnly = tokens.count > 1 ? wholeByToken.filter { !$0.contains(id) }.count
                : (wholeIDs.contains(id) ? 0 : 1)
            matches.append(Match(rank: NameMatch(id: id, identifier: identifier, modificationDate: date,
                                                 prefixOnlyCount: prefixOnly, fieldRank: Self.textRank * tokens.count),
                                 matchedIn: .content))
        }
        if let holders = try phraseHolders() {
            matches = matches.map { holders.contains($0.rank.id) ? promoted($0) : $0 }
        }
        return try byRelevance(Self.sorted(matches))
    }

    /// The rank a phrase of the query in an item's text gives: that of every word in its title
    /// (a phrase copied from a document tells it as well as its title does).
    static let phraseRank = 1

    /// `match` ranked as an item whose text holds the query words as a phrase: every word
    /// whole, each ranking as in a title unless it ranks better already.
    ///
    /// - Returns: `match` itself when it ranks as well already (every word whole, field ranks
    ///   summing to at most that of a title match).
    func promoted(_ match: Match) -> Match {
        let rank = match.rank
        guard rank.prefixOnlyCount > 0 || rank.fieldRank > Self.phraseRank * tokens.count else { return match }
        return Match(rank: NameMatch(id: rank.id, identifier: rank.identifier, modificationDate: rank.modificationDate,
                                     prefixOnlyCount: 0, fieldRank: Self.phraseRank * tokens.count),
                     matchedIn: match.matchedIn)
    }

    /// The items whose text holds every query word, adjacent and in the order typed: `nil` for
    /// a query of one word, or when more than ``TextRelevance/maximumScored`` texts hold all
    /// the words (then no text is read for phrases).
    ///
    /// `nil` too for Han and kana words and compounds (``hasCJK``), whose phrases are not looked
    /// for. Costs what ``textTier()`` costs, once per search.
    ///
    /// - Throws: A `DatabaseError` when a read fails.
    func phraseHolders() throws -> Set<Int64>? {
        guard tokens.count > 1, !hasCJK else { return nil }
        return try textTier()?.phrases
    }

    /// The items with every word whole in their text, read once per search when there are at
    /// most ``TextRelevance/maximumScored`` of them: each one's relevance, and those that hold
    /// the words as a phrase. `nil` when they are more.
    ///
    /// Costs one read of the match of every word whole in the text, stopped after
    /// ``TextRelevance/maximumScored`` + 1 rows; when they are no more, the start of each member's
    /// text (``TextRelevance/scoredBytes(forTexts:)`` bytes, ``SearchableIndex/texts(of:limit:in:)``)
    /// and ``TextRelevance``'s analysis of them. The members are not filtered by domain or expiration.
    func textTier() throws -> TextTier? {
        if let known = memo.textTier { return known }
        let members = try Int64.fetchAll(db, sql: "SELECT rowid FROM item_content WHERE item_content MATCH ? LIMIT ?",
                                         arguments: [textExpression(whole: true), TextRelevance.maximumScored + 1])
        var tier: TextTier?
        if members.count <= TextRelevance.maximumScored {
            let texts = try SearchableIndex.texts(of: members, limit: TextRelevance.scoredBytes(forTexts: members.count), in: db)
            // One member or none: no order to make, so no word's frequency to count (counting
            // a word in every text reads its whole list); its phrase is still looked for.
            let relevance = try members.count > 1 ? TextRelevance(tokens: tokens, in: db) : TextRelevance(tokens: tokens)
            let analysis = relevance.analyze(texts)
            tier = TextTier(members: members, scores: analysis.scores, phrases: analysis.phrases)
        }
        memo.textTier = .some(tier)
        return tier
    }

    /// Calls `body` with the id, identifier and date of each of the items `ids` that the
    /// filter admits (domain, expiration).
    ///
    /// One statement, the ids given as one JSON array: `body` is called in the order SQLite reads
    /// the rows, not that of `ids`. An id with no item row is skipped; an undated item's date is 0.
    ///
    /// - Parameters:
    ///   - ids: Row ids of items, in any order.
    ///   - body: Given the row id, the identifier and the modification date of each admitted item.
    /// - Throws: A `DatabaseError` when the read fails.
    func forEachAdmitted(_ ids: [Int64], _ body: (Int64, ItemIdentifier, Double) -> Void) throws {
        let details = try Row.fetchCursor(db, sql: """
            SELECT id, identifier, ifnull(modificationDate, 0), domainId, expirationDate FROM item
            WHERE id IN (SELECT value FROM json_each(?))
            """, arguments: ["[" + ids.map(String.init).joined(separator: ",") + "]"])
        while let row = try details.next() {
            guard filter.admits(domainID: row[3], expiration: row[4]) else { continue }
            let identifier: Data = row[1]
            body(row[0], ItemIdentifier(bytes: Array(identifier)), row[2])
        }
    }

    /// `matches` (ranked) with the text tier ordered by ``TextRelevance`` (newest first among
    /// equals), with the scores ``textTier()`` read once, when it is small enough to score.
    ///
    /// - Returns: `matches` unchanged when no match, or one alone, is of the text tier, or when
    ///   the tier is too large to score.
    func byRelevance(_ matches: [Match]) throws -> [Match] {
        // The text tier: items whose every word matched whole, only in their text (a word
        // typed as a prefix says too little to read texts for). Ranked, they stand together.
        let tier = Self.textRank * tokens.count
        guard let start = matches.firstIndex(where: { $0.rank.prefixOnlyCount == 0 && $0.rank.fieldRank == tier }) else {
            return matches
        }
        let end = matches[start...].firstIndex { $0.rank.prefixOnlyCount != 0 || $0.rank.fieldRank != tier } ?? matches.endIndex
        guard end - start > 1, let scores = try textTier()?.scores else { return matches }
        var ordered = matches
        ordered[start..<end] = ArraySlice(TextRelevance.ordered(Array(matches[start..<end]), by: scores, id: \.rank.id))
        return ordered
    }

    /// `matches` in rank order (``NameMatch``'s: prefix-only words, field ranks, date,
    /// identifier).
    ///
    /// The ranks are ordered as name search orders them (grouped by rank, each group newest
    /// first), and each match found again by its row id: the matches must have distinct ids.
    static func sorted(_ matches: [Match]) -> [Match] {
        let order = matches.map(\.rank).ranked()
        let byID = Dictionary(matches.map { ($0.rank.id, $0) }, uniquingKeysWith: { a, _ in a })
        return order.compactMap { byID[$0.id] }
    }

    /// How many items with a word whole in a rich field ``firstMatches(limit:)`` ranks at most:
    /// a few thousand cost milliseconds; tens of thousands (a telling keyword of half the
    /// texts, `zulu` on the notes of issue 47) took seconds.
    static let wholeCandidateLimit = 8 * PageStrategy.sampleSize

    /// The first `limit` matches, or `nil` when they cannot be found without ranking every match.
    ///
    /// Every item that ranks above the text-only items with every word whole has every word
    /// whole somewhere and one in a rich field: the few items with a word whole in a rich
    /// field are ranked. If they are fewer than `limit`, the page goes on with the newest
    /// text-only items with every word whole (``newestTextTier(excluding:limit:)``), which is
    /// complete if they fill it. `nil` too when the items with a word whole in a rich field
    /// are more than ``wholeCandidateLimit``.
    ///
    /// Costs the lists of the words (read whole for several words), the item rows of the few
    /// candidates, the scoring of the text tier when small, and a page of the text tier: about
    /// `limit` item look-ups, or a walk of the date index (``newestTextTier(excluding:limit:)``).
    ///
    /// - Parameter limit: The size of the page.
    /// - Returns: Exactly the first `limit` of ``allMatches()``, or `nil`: for Han and kana words
    ///   and compounds (``hasCJK``), for one word whole in more rich fields than
    ///   ``wholeCandidateLimit``, or when the text tier cannot fill the page.
    /// - Throws: A `DatabaseError` when a read fails.
    func firstMatches(limit: Int) throws -> [Match]? {
        guard !hasCJK else { return nil }
        // One word whole in more names, titles, keywords, folders or authors than that: told
        // by the first rows of its lists, before reading them whole for nothing (the tiers
        // read them again, with their columns).
        if tokens.count == 1, !SearchableIndex.hasCompound(tokens) {
            let term = SearchableIndex.nameTerm(tokens[0], whole: true)
            if try holds(moreThan: Self.wholeCandidateLimit, "item_words", term)
                || holds(moreThan: Self.wholeCandidateLimit, "item_content", "authors : (" + term + ")") {
                return nil
            }
        }
        // Several words: every word's lists are read whole to intersect them (``everyWord()``);
        // read once with their columns, they serve the tiers too, when this page gives up.
        if tokens.count > 1 { for token in tokens { try readLists(of: token) } }
        var wholeCandidates = try richCandidates(whole: true)
        // Many (a telling keyword of half the texts): ranking each costs what ranking every
        // match does; ``tieredMatches(limit:)`` ranks only those the page takes.
        guard wholeCandidates.count <= Self.wholeCandidateLimit else { return nil }
        let textTier = (prefixOnly: 0, fieldRank: Self.textRank * tokens.count)
        var ranked = try richMatches(among: wholeCandidates)
        // Items whose text holds the words as a phrase rank as a title match would.
        if let holders = try phraseHolders() {
            var missing: [Int64] = []
            for id in holders {
                if let match = ranked[id] { ranked[id] = promoted(match) } else { missing.append(id) }
            }
            try forEachAdmitted(missing) { id, identifier, date in
                ranked[id] = promoted(Match(rank: NameMatch(id: id, identifier: identifier, modificationDate: date,
                                                            prefixOnlyCount: 0, fieldRank: textTier.fieldRank),
                                            matchedIn: .content))
            }
            wholeCandidates.formUnion(holders)
        }
        let above = Self.sorted(Array(ranked.values))
            .filter { ($0.rank.prefixOnlyCount, $0.rank.fieldRank) < textTier }
        if above.count >= limit { return Array(above.prefix(limit)) }
        guard let page = try relevantTextTier(excluding: wholeCandidates, limit: limit - above.count)
            ?? newestTextTier(excluding: wholeCandidates, limit: limit - above.count) else { return nil }
        let tier = page.map {
            Match(rank: NameMatch(id: $0.id, identifier: $0.identifier, modificationDate: $0.modificationDate,
                                  prefixOnlyCount: 0, fieldRank: textTier.fieldRank),
                  matchedIn: .content)
        }
        return above + tier
    }

    /// The `limit` items with every word whole in their text, not among `excluded`, most
    /// relevant first (``TextRelevance``, then newest): `nil` when they are too many to score
    /// (then the newest come first) or fewer than `limit`.
    ///
    /// Reads nothing more than ``textTier()`` and the members' item rows (``forEachAdmitted(_:_:)``).
    /// An empty page, without a read, for a `limit` of 0.
    private func relevantTextTier(excluding excluded: RowSet, limit: Int) throws -> [NameMatch]? {
        guard limit > 0 else { return [] }
        guard let tier = try textTier() else { return nil }
        var matches: [NameMatch] = []
        try forEachAdmitted(tier.members.filter { !excluded.contains($0) }) { id, identifier, date in
            matches.append(NameMatch(id: id, identifier: identifier, modificationDate: date,
                                     prefixOnlyCount: 0, fieldRank: Self.textRank * tokens.count))
        }
        let newest = matches.ranked()
        // Fewer than the page: the page goes on past this tier, which only a full ranking knows.
        guard newest.count >= limit else { return nil }
        return Array(TextRelevance.ordered(newest, by: tier.scores, id: \.id).prefix(limit))
    }

    /// The newest `limit` items (and those dated like the last) with every word whole in their
    /// text, not among `excluded`, newest first; `nil` when there are fewer.
    ///
    /// How depends on how many there are, which the first rows of the full-text match tell
    /// (``newestMembers(of:sample:excluding:limit:)``).
    ///
    /// An empty page, without a read, for a `limit` of 0.
    private func newestTextTier(excluding excluded: RowSet, limit: Int) throws -> [NameMatch]? {
        guard limit > 0 else { return [] }
        let lists = ColumnLists(table: "item_content", expression: textExpression(whole: true))
        let sample = try firstRows("item_content", lists.parts[0].expression, atMost: PageStrategy.sampleSize)
        return try newestMembers(of: lists, sample: sample, excluding: excluded, limit: limit)
    }

    /// The number of matches: the items that have every word (``everyWord()``), in the
    /// domain and not expired; no match is ranked. Han and kana words are checked on the
    /// text, as ranked search checks them.
    ///
    /// With Han and kana words or compounds every match is ranked (``allMatches()``); otherwise
    /// the cost is one read of each word's lists, and, unless no domain is asked and no item has
    /// expired (``SearchableIndex/everyItemCounts(domain:in:)``), one count of the item rows
    /// among them.
    ///
    /// - Returns: How many items ``allMatches()`` would return.
    /// - Throws: A `DatabaseError` when a read fails.
    func count() throws -> Int {
        // A compound's parts out of order in a name are no match: its candidates are ranked.
        if hasCJK || SearchableIndex.hasCompound(tokens) { return try allMatches().count }
        let every = try everyWord()
        guard !every.isEmpty else { return 0 }
        if filter.domainID == nil, try SearchableIndex.everyItemCounts(domain: nil, in: db) { return every.count }
        return try Int.fetchOne(db, sql: """
            SELECT count(*) FROM item WHERE id IN (SELECT value FROM json_each(?))
              AND (:domainID IS NULL OR domainId = :domainID) AND \(SearchableIndex.notExpired)
            """, arguments: ["[" + every.map(String.init).joined(separator: ",") + "]", filter.domainID, filter.now]) ?? 0
    }
}


extension SearchableIndex {
    /// Whether any item has authors or text: until one has, a search is a name search.
    ///
    /// One seek: the first row of `item_text`, if any.
    ///
    /// - Parameter db: Either kind of read connection.
    /// - Throws: An error of the connection when the read fails.
    static func hasContent(in db: any ReadConnection) throws -> Bool {
        try db.readStatement("SELECT EXISTS (SELECT 1 FROM item_text)").firstRow { sqlite3_column_int64($0, 0) != 0 } ?? false
    }
}
