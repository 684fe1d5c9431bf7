import Foundation
import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// Items whose name words contain, for every query word, a word that starts with it.
    ///
    /// Query words are split like names (`quarterlyRep` counts as `quarterly rep`); matching
    /// ignores case and diacritics. Results are ranked: items where every word matches a whole
    /// word come before prefix matches; then matches in the name before the title, keywords and
    /// folder names; then the most recently modified; then by identifier.
    ///
    /// - Parameters:
    ///   - words: The query words.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results, when given.
    /// - Throws: ``SearchlightError`` `.invalidQuery` when the words hold no letter or digit.
    public func search(words: [String], domain: String? = nil, limit: Int? = nil) throws -> [IndexedItem] {
        try rankedMatches(words: words, domain: domain, limit: limit) { db, matches in
            try Self.fetchItems(ids: matches.map(\.id), in: db)
        }
    }

    /// The domains and identifiers of what ``search(words:domain:limit:)`` returns, in the same
    /// order, without fetching the items: for output that prints paths only.
    public func searchIdentifiers(words: [String], domain: String? = nil, limit: Int? = nil) throws -> [ItemIdentifier] {
        try rankedMatches(words: words, domain: domain, limit: limit) { _, matches in matches.map(\.identifier) }
    }

    /// The ranked matches of a name query, best first, handed to `body` inside the read.
    private func rankedMatches<T>(words: [String], domain: String?, limit: Int?,
                                  _ body: (Database, [NameMatch]) throws -> T) throws -> T {
        let tokens = try Self.nameQueryTokens(words)
        return try read { db in
            var wholeInName: Set<Int64>?
            if let limit, limit > 0, let best = try Self.bestMatchesByDate(tokens, domain: domain, limit: limit, in: db,
                                                                            wholeInName: { wholeInName = $0 }) {
                return try body(db, best)
            }
            var candidates = try Self.nameCandidates(tokens, domain: domain, wholeInName: wholeInName, in: db)
            candidates.sort()
            if let limit, candidates.count > limit { candidates.removeLast(candidates.count - limit) }
            return try body(db, candidates)
        }
    }

    /// The number of items ``search(words:domain:limit:)`` would return without a limit.
    public func countMatches(words: [String], domain: String? = nil) throws -> Int {
        let tokens = try Self.nameQueryTokens(words)
        return try read { db in
            if try Self.everyItemCounts(domain: domain, in: db) {
                // The full-text index has one row per item: no item needs looking up.
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM item_words WHERE item_words MATCH ?",
                                        arguments: [Self.nameMatchExpression(tokens)]) ?? 0
            }
            return try Int.fetchOne(db, sql: """
                SELECT count(*) FROM item_words JOIN item ON item.id = item_words.rowid
                WHERE item_words MATCH :match AND \(Self.inDomain) AND \(Self.notExpired)
                """, arguments: Self.nameArguments(tokens, domain: domain)) ?? 0
        }
    }

    /// Whether every item is in `domain` (any, when `nil`) and none has expired: then counting
    /// matches needs no look at the items.
    static func everyItemCounts(domain: String?, in db: Database) throws -> Bool {
        let expired = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM item WHERE expirationDate IS NOT NULL AND expirationDate <= ?)
            """, arguments: [Date().timeIntervalSince1970]) ?? true
        guard !expired else { return false }
        guard let domain else { return true }
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM domain WHERE name = ?", arguments: [domain]) else {
            return false
        }
        // Two seeks in the (domainId, identifier) index.
        let otherDomains = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM item WHERE domainId < :id) OR EXISTS (SELECT 1 FROM item WHERE domainId > :id)
            """, arguments: ["id": id]) ?? true
        return !otherDomains
    }

    static let inDomain = "(:domain IS NULL OR item.domainId = (SELECT id FROM domain WHERE name = :domain))"

    /// The folded words of a name query.
    static func nameQueryTokens(_ words: [String]) throws -> [String] {
        let tokens = words.flatMap(NameTokenizer.words(in:))
        guard !tokens.isEmpty else {
            throw SearchlightError(.invalidQuery, "the search words contain no letter or digit")
        }
        return tokens
    }

    /// An FTS5 query asking every token as a prefix of a word in any column.
    static func nameMatchExpression(_ tokens: [String]) -> String {
        tokens.map { quoted($0) + "*" }.joined(separator: " AND ")
    }

    /// A token as an FTS5 string: never query syntax.
    static func quoted(_ token: String) -> String {
        "\"" + token.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func nameArguments(_ tokens: [String], domain: String?) -> StatementArguments {
        ["match": nameMatchExpression(tokens), "domain": domain, "now": Date().timeIntervalSince1970]
    }

    /// Every candidate of a name query, ranked, in no order.
    ///
    /// - Parameter known: The items that have every word whole in their name, when already read.
    static func nameCandidates(_ tokens: [String], domain: String?, wholeInName known: Set<Int64>? = nil,
                               in db: Database) throws -> [NameMatch] {
        // The full-text index knows which items have every word whole in their name, the best
        // rank: those need no splitting of their fields here.
        let wholeInName = try known ?? Set(Int64.fetchAll(db, sql: "SELECT rowid FROM item_words WHERE item_words MATCH ?",
                                                          arguments: ["name : (" + tokens.map(quoted).joined(separator: " AND ") + ")"]))
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT item.id, item.identifier, item.displayName, item.title, item.keywords, item.modificationDate
            FROM item_words JOIN item ON item.id = item_words.rowid
            WHERE item_words MATCH :match AND \(Self.inDomain) AND \(Self.notExpired)
            """, arguments: nameArguments(tokens, domain: domain))
        var matches: [NameMatch] = []
        // Candidates share words (their folders' above all): each is folded once.
        var folds = NameFolds()
        func words(_ text: String?) -> [String] { NameTokenizer.words(in: text ?? "") { folds.fold($0) } }
        while let row = try cursor.next() {
            let identifier: Data = row[1]
            let id = ItemIdentifier(bytes: Array(identifier))
            let rowID: Int64 = row[0]
            if wholeInName.contains(rowID) {
                matches.append(NameMatch(best: rowID, identifier: id, modificationDate: row[5] ?? 0))
                continue
            }
            let title: String? = row[3]
            let keywords: String? = row[4]
            matches.append(NameMatch(id: row[0], identifier: id, modificationDate: row[5] ?? 0, tokens: tokens,
                                     name: words(row[2])) {
                [words(title), words(keywords), id.parentComponents.flatMap(words)]
            })
        }
        return matches
    }

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
    static func bestMatchesByDate(_ tokens: [String], domain: String?, limit: Int, in db: Database,
                                  strategy forced: PageStrategy? = nil,
                                  wholeInName: (Set<Int64>) -> Void = { _ in }) throws -> [NameMatch]? {
        let tier = try BestNameTier(tokens, in: db)
        let members = try Int64.fetchCursor(db, sql: "SELECT rowid FROM item_words WHERE item_words MATCH ?",
                                            arguments: [tier.expression])
        var sample: [Int64] = []
        while sample.count < PageStrategy.sampleSize, let id = try members.next() { sample.append(id) }
        guard sample.count >= limit else {
            if tier.prefixTokens.isEmpty, sample.count < PageStrategy.sampleSize { wholeInName(Set(sample)) }
            return nil
        }
        guard let filter = try ItemFilter(domain: domain, in: db) else { return [] }
        switch try forced ?? PageStrategy(sample: sample, limit: limit, in: db) {
        case .sortMembers:
            // The rest of the members follow the sample: the match is evaluated once.
            while let id = try members.next() { sample.append(id) }
            return try pageSorting(members: sample, filter: filter, limit: limit, in: db)
        case .walkReadingNames(let budget):
            if let page = try pageReadingNames(tier, filter: filter, limit: limit, budget: budget, in: db) { return page }
            fallthrough
        case .walkCheckingMembers:
            let members = Set(try Int64.fetchAll(db, sql: "SELECT rowid FROM item_words WHERE item_words MATCH ?",
                                                 arguments: [tier.expression]))
            return try pageByDate(filter: filter, limit: limit, in: db) { id, _ in members.contains(id) }
        }
    }

    /// The page among few items: SQLite looks each one up and sorts them newest first.
    static func pageSorting(members: [Int64], filter: ItemFilter, limit: Int, in db: Database) throws -> [NameMatch]? {
        // The row ids travel as one JSON array; `ifnull` keeps SQLite from walking the date
        // index, since the members are few.
        let newestFirst = try Row.fetchCursor(db, sql: """
            SELECT id, ifnull(modificationDate, 0), identifier FROM item
            WHERE id IN (SELECT value FROM json_each(:members))
              AND (:domainID IS NULL OR domainId = :domainID) AND \(notExpired)
            ORDER BY 2 DESC
            """, arguments: ["members": "[" + members.map(String.init).joined(separator: ",") + "]",
                             "domainID": filter.domainID, "now": filter.now])
        var page = PageCollector(limit: limit)
        while let row = try newestFirst.next() {
            let date: Double = row[1]
            guard page.wants(date) else { break }
            let identifier: Data = row[2]
            page.add(NameMatch(best: row[0], identifier: ItemIdentifier(bytes: Array(identifier)), modificationDate: date))
        }
        return page.result
    }

    /// The page met walking the date index newest first and checking each item's name words
    /// against `tier`; `nil` when `budget` items are visited first.
    static func pageReadingNames(_ tier: BestNameTier, filter: ItemFilter, limit: Int, budget: Int,
                                 in db: Database) throws -> [NameMatch]? {
        let statement = try db.makeStatement(sql: """
            SELECT id, modificationDate, displayName, domainId, expirationDate, identifier
            FROM item INDEXED BY item_by_modification_date
            WHERE modificationDate > 0 ORDER BY modificationDate DESC
            """)
        let newestFirst = try Row.fetchCursor(statement)
        // Most visited rows are not admitted: their columns are read in place, without decoding.
        let columns = statement.sqliteStatement
        var page = PageCollector(limit: limit)
        var folds = NameFolds()
        var visited = 0
        while let row = try newestFirst.next() {
            visited += 1
            if visited > budget { return nil }
            let date = sqlite3_column_double(columns, 1)
            guard page.wants(date) else { break }
            let name = UnsafeBufferPointer(start: sqlite3_column_text(columns, 2),
                                           count: Int(sqlite3_column_bytes(columns, 2)))
            let expiration = sqlite3_column_type(columns, 4) == SQLITE_NULL ? nil : sqlite3_column_double(columns, 4)
            guard tier.admits(nameBytes: name, folds: &folds),
                  filter.admits(domainID: sqlite3_column_int64(columns, 3), expiration: expiration) else { continue }
            let identifier: Data = row[5]
            page.add(NameMatch(best: row[0], identifier: ItemIdentifier(bytes: Array(identifier)), modificationDate: date))
        }
        return page.result
    }

    /// The page met walking the date index newest first, keeping the items `isMember` admits.
    /// The index alone holds the row ids: only members are looked up in the table.
    static func pageByDate(filter: ItemFilter, limit: Int, in db: Database,
                           isMember: (Int64, Double) -> Bool) throws -> [NameMatch]? {
        let newestFirst = try Row.fetchCursor(db, sql: """
            SELECT id, modificationDate FROM item INDEXED BY item_by_modification_date
            WHERE modificationDate > 0 ORDER BY modificationDate DESC
            """)
        let details = try db.cachedStatement(sql: "SELECT identifier, domainId, expirationDate FROM item WHERE id = ?")
        var page = PageCollector(limit: limit)
        while let row = try newestFirst.next() {
            let id: Int64 = row[0]
            let date: Double = row[1]
            guard page.wants(date) else { break }
            guard isMember(id, date), let detail = try Row.fetchOne(details, arguments: [id]),
                  filter.admits(domainID: detail[1], expiration: detail[2]) else { continue }
            let identifier: Data = detail[0]
            page.add(NameMatch(best: id, identifier: ItemIdentifier(bytes: Array(identifier)), modificationDate: date))
        }
        return page.result
    }

    /// Full items for `ids`, in the order of `ids`.
    static func fetchItems(ids: [Int64], in db: Database) throws -> [IndexedItem] {
        guard !ids.isEmpty else { return [] }
        var byID: [Int64: IndexedItem] = [:]
        for chunk in stride(from: 0, to: ids.count, by: 500).map({ ids[$0..<min($0 + 500, ids.count)] }) {
            let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            let rows = try Row.fetchAll(db, sql: """
                SELECT item.id AS rowID, \(itemColumns) FROM item \(itemJoins) WHERE item.id IN (\(placeholders))
                """, arguments: StatementArguments(Array(chunk)))
            for row in rows { byID[row["rowID"]] = IndexedItem(row: row) }
        }
        return ids.compactMap { byID[$0] }
    }
}

/// How well one item matches a name query; sorts best first.
struct NameMatch: Comparable {
    let id: Int64
    let identifier: ItemIdentifier
    let modificationDate: Double
    /// Query words matched only as a prefix, never as a whole word.
    let prefixOnlyCount: Int
    /// For each query word, the best field it matched (0 name, 1 title, 2 keywords, 3 folders), summed.
    let fieldRank: Int

    /// A candidate known to match every word whole in its name: the best rank.
    init(best id: Int64, identifier: ItemIdentifier, modificationDate: Double) {
        self.id = id
        self.identifier = identifier
        self.modificationDate = modificationDate
        prefixOnlyCount = 0
        fieldRank = 0
    }

    /// Ranks a candidate. Most candidates match every word as a whole word of their name, the
    /// best rank there is: the other fields are only split into words when that is not so.
    init(id: Int64, identifier: ItemIdentifier, modificationDate: Double, tokens: [String], name: [String],
         otherFields: () -> [[String]]) {
        self.id = id
        self.identifier = identifier
        self.modificationDate = modificationDate
        if tokens.allSatisfy(name.contains) {
            prefixOnlyCount = 0
            fieldRank = 0
            return
        }
        let fields = [name] + otherFields()
        var prefixOnly = 0
        var rank = 0
        for token in tokens {
            let whole = fields.firstIndex { $0.contains(token) }
            let prefix = fields.firstIndex { $0.contains { $0.hasPrefix(token) } }
            if whole == nil { prefixOnly += 1 }
            rank += whole ?? prefix ?? fields.count
        }
        prefixOnlyCount = prefixOnly
        fieldRank = rank
    }

    static func < (lhs: NameMatch, rhs: NameMatch) -> Bool {
        if lhs.prefixOnlyCount != rhs.prefixOnlyCount { return lhs.prefixOnlyCount < rhs.prefixOnlyCount }
        if lhs.fieldRank != rhs.fieldRank { return lhs.fieldRank < rhs.fieldRank }
        if lhs.modificationDate != rhs.modificationDate { return lhs.modificationDate > rhs.modificationDate }
        return lhs.identifier < rhs.identifier
    }

    static func == (lhs: NameMatch, rhs: NameMatch) -> Bool { lhs.id == rhs.id }
}

/// The best rank a candidate of a name query can have, and which items have it.
///
/// A query word that no item has as a whole word, in any field, can only ever match as a
/// prefix; any other word may match whole. So no candidate ranks better than one with every
/// word in its name, whole when the word can be: the items of ``expression``.
struct BestNameTier {
    /// Words the best items have whole in their name.
    let wholeTokens: [String]
    /// Words no item has whole: the best items have a name word starting with each.
    let prefixTokens: [String]
    private let wholeBytes: [[UInt8]]
    private let prefixBytes: [[UInt8]]
    /// The query words that are ASCII: a name word they match, folded, holds them as they are.
    private let asciiTokens: [[UInt8]]

    init(_ tokens: [String], in db: Database) throws {
        var whole: [String] = []
        var prefix: [String] = []
        for token in tokens {
            let somewhereWhole = try Int64.fetchOne(db, sql: "SELECT rowid FROM item_words WHERE item_words MATCH ? LIMIT 1",
                                                    arguments: [SearchableIndex.quoted(token)]) != nil
            if somewhereWhole { whole.append(token) } else { prefix.append(token) }
        }
        wholeTokens = whole
        prefixTokens = prefix
        wholeBytes = whole.map { Array($0.utf8) }
        prefixBytes = prefix.map { Array($0.utf8) }
        asciiTokens = (wholeBytes + prefixBytes).filter { $0.allSatisfy { $0 < 0x80 } }
    }

    /// An FTS5 query for the items of this rank.
    var expression: String {
        let words = wholeTokens.map(SearchableIndex.quoted) + prefixTokens.map { SearchableIndex.quoted($0) + "*" }
        return "name : (" + words.joined(separator: " AND ") + ")"
    }

    /// Whether an item with this name, as UTF-8 bytes, has this rank: an ASCII name (most of
    /// them) is checked on its bytes, without making strings; the others are split into words
    /// only when their folded text holds every ASCII query word.
    func admits(nameBytes bytes: UnsafeBufferPointer<UInt8>, folds: inout NameFolds) -> Bool {
        // One bit per query word found, whole words first: no allocation per name.
        let tokens = wholeBytes.count + prefixBytes.count
        var found: UInt64 = 0
        let checkedOnBytes = tokens <= 64 && NameTokenizer.forEachASCIIWord(in: bytes) { range in
            let word = UnsafeBufferPointer(rebasing: bytes[range])
            for (index, token) in wholeBytes.enumerated() where token.count == word.count {
                if Self.word(word, startsWith: token) { found |= 1 << index }
            }
            for (index, token) in prefixBytes.enumerated() where token.count <= word.count {
                if Self.word(word, startsWith: token) { found |= 1 << (wholeBytes.count + index) }
            }
        }
        guard checkedOnBytes else {
            let folded = folds.foldedScalars(of: bytes)
            guard asciiTokens.allSatisfy({ folded.contains($0) }) else { return false }
            return admits(words: NameTokenizer.words(in: String(decoding: bytes, as: UTF8.self)) { folds.fold($0) })
        }
        return found.nonzeroBitCount == tokens
    }

    private func admits(words: [String]) -> Bool {
        wholeTokens.allSatisfy(words.contains) && prefixTokens.allSatisfy { token in
            words.contains { $0.hasPrefix(token) }
        }
    }

    /// Whether `word` (ASCII, any case) starts with `token` (folded), which is no longer.
    private static func word(_ word: UnsafeBufferPointer<UInt8>, startsWith token: [UInt8]) -> Bool {
        for index in token.indices where NameTokenizer.lowercased(word[index]) != token[index] { return false }
        return true
    }
}

/// What every result must be besides a match: in the domain asked for, if any, and not expired.
struct ItemFilter {
    let domainID: Int64?
    let now = Date().timeIntervalSince1970

    /// The filter for `domain`, or `nil` when no such domain exists (nothing can match).
    init?(domain: String?, in db: Database) throws {
        guard let domain else {
            domainID = nil
            return
        }
        guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM domain WHERE name = ?", arguments: [domain]) else {
            return nil
        }
        domainID = id
    }

    func admits(domainID: Int64, expiration: Double?) -> Bool {
        if let wanted = self.domainID, wanted != domainID { return false }
        if let expiration, expiration <= now { return false }
        return true
    }
}

/// The first `limit` results of one rank, offered newest first.
///
/// Items dated like the `limit`-th are all taken, since ties on date are ordered by identifier;
/// the result is then sorted and cut to `limit`.
struct PageCollector {
    let limit: Int
    private var matches: [NameMatch] = []
    private var boundary: Double?

    init(limit: Int) { self.limit = limit }

    /// Whether an item of this date may still belong to the page.
    func wants(_ date: Double) -> Bool { boundary.map { date >= $0 } ?? true }

    mutating func add(_ match: NameMatch) {
        matches.append(match)
        if matches.count == limit { boundary = match.modificationDate }
    }

    /// The page, or `nil` when fewer than `limit` items were offered.
    var result: [NameMatch]? {
        guard boundary != nil else { return nil }
        return Array(matches.sorted().prefix(limit))
    }
}

/// The folds met so far while checking names: names share words and letters, and folding
/// non-ASCII text is slow.
struct NameFolds {
    private var words: [String: String] = [:]
    private var scalars: [UInt32: [UInt8]] = [:]
    private var buffer: [UInt8] = []

    /// ``NameTokenizer/fold(_:)``, remembered.
    mutating func fold(_ word: String) -> String {
        if let folded = words[word] { return folded }
        let folded = NameTokenizer.fold(word)
        words[word] = folded
        return folded
    }

    /// The UTF-8 of a name folded scalar by scalar (`Zürich` → `zurich`).
    ///
    /// Folding a word gives its scalars' folds in order, but for combining marks that swap
    /// places; so an ASCII query word that matches a word of the name, folded, is found in
    /// this text as it is: a name whose text lacks one needs no splitting into words.
    mutating func foldedScalars(of bytes: UnsafeBufferPointer<UInt8>) -> ArraySlice<UInt8> {
        buffer.removeAll(keepingCapacity: true)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                buffer.append(NameTokenizer.lowercased(UInt8(scalar.value)))
            } else if let folded = scalars[scalar.value] {
                buffer.append(contentsOf: folded)
            } else {
                let folded = Array(NameTokenizer.fold(String(scalar)).utf8)
                scalars[scalar.value] = folded
                buffer.append(contentsOf: folded)
            }
        }
        return buffer[...]
    }
}

extension ArraySlice<UInt8> {
    /// Whether `part` occurs in these bytes.
    func contains(_ part: [UInt8]) -> Bool {
        guard part.count <= count else { return false }
        guard !part.isEmpty else { return true }
        var start = startIndex
        while start + part.count <= endIndex {
            if self[start] == part[0] && self[start..<(start + part.count)].elementsEqual(part) { return true }
            start += 1
        }
        return false
    }
}

/// How the first page of the best rank is found, chosen by how many items have that rank.
///
/// Sorting the members costs a table lookup for each; walking the date index newest first
/// and checking row ids against the set of members costs reading every member from the
/// full-text index (cheap) and visiting about `limit / density` index entries; walking and
/// reading each visited item's name costs a table lookup per entry but reads no member
/// list. So few members are sorted, many are met by reading names, and the middle uses the
/// set. The sample is the first rows of the full-text match, in row-id order: how far into
/// the row ids it reached tells the density.
enum PageStrategy: Equatable {
    case sortMembers
    case walkCheckingMembers
    /// Gives up, for the member set, after visiting `budget` entries.
    case walkReadingNames(budget: Int)

    /// Full-text rows read to estimate how many items have the best rank.
    static let sampleSize = 1024

    init(sample: [Int64], limit: Int, in db: Database) throws {
        guard sample.count >= Self.sampleSize, let last = sample.last,
              let bounds = try Row.fetchOne(db, sql: "SELECT (SELECT min(id) FROM item), (SELECT max(id) FROM item)"),
              let first: Int64 = bounds[0], let maximum: Int64 = bounds[1] else {
            self = .sortMembers
            return
        }
        let span = Double(max(1, maximum - first + 1))
        let density = min(1, Double(sample.count) / Double(max(1, last - first + 1)))
        let members = density * span
        // Measured costs, relative to visiting one date-index entry: a member read from the
        // full-text index ~0.6, a table lookup ~6, a table lookup and name check ~8.
        let visits = Double(limit) / density
        let sorting = 6 * members
        let checking = 0.6 * members + visits
        let reading = 8 * visits
        if sorting <= min(checking, reading) {
            self = .sortMembers
        } else if checking <= reading {
            self = .walkCheckingMembers
        } else {
            self = .walkReadingNames(budget: Int(min(4 * visits, span)))
        }
    }
}
