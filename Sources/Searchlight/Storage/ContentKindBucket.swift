import GRDB

/// The `content_kind` rows of one content type and description, read once per batch, with
/// what ``BatchWriter/kind(_:sharing:)`` looks up in them found by hashing instead of by a walk.
///
/// A bucket can hold one row per item: the keywords of a kind are the item's own beyond its
/// name (``StoredText/keywords``), and a text's telling words differ from file to file. Reading
/// and comparing the whole bucket for every new kind made a first scan of many texts of one
/// type quadratic (10 000 short notes: 38 s instead of 2).
struct ContentKindBucket {
    /// What finds a bucket: the columns ``ContentKind/digest`` is made of.
    struct Key: Hashable {
        let type: [UInt8]?
        let description: [UInt8]?

        init(_ kind: ContentKind) {
            type = kind.type.map { Array($0.utf8) }
            description = kind.description.map { Array($0.utf8) }
        }
    }

    /// The rows' ids and keywords' bytes, in id order: "the first row" below means this order.
    private var rows: [(id: Int64, keywords: [UInt8]?)] = []
    /// Where each row is in ``rows``.
    private var positions: [Int64: Int] = [:]
    /// The positions in ``rows`` of the rows with these keywords (`nil`: none), ascending.
    private var byKeywords: [[UInt8]?: [Int]] = [:]
    /// The positions of the rows whose keywords start with these words and have more after
    /// them (each start that ends before a ``SearchableIndex/keywordSeparator``), ascending.
    private var byStart: [[UInt8]: [Int]] = [:]

    init(_ kind: ContentKind, in db: Database) throws {
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT id, keywords FROM content_kind
            WHERE contentType IS ? AND digest = ? AND contentDescription IS ? ORDER BY id
            """), arguments: [kind.type, kind.digest, kind.description])
        while let row = try cursor.next() {
            let keywords: String? = row[1]
            append(id: row[0], keywords: keywords.map { Array($0.utf8) })
        }
    }

    /// The first row with exactly these keywords.
    func exact(_ keywords: [UInt8]?) -> Int64? {
        byKeywords[keywords]?.first.map { rows[$0].id }
    }

    /// The first row whose keywords start with the words of `keywords` and have more
    /// (with `nil` keywords, the first row of all).
    func longer(than keywords: [UInt8]?) -> Int64? {
        guard let keywords else { return rows.first?.id }
        return byStart[keywords]?.first.map { rows[$0].id }
    }

    /// The first row whose keywords are the start of the words of `keywords` (a row without
    /// keywords is the start of every kind's).
    func shorter(than keywords: [UInt8]?) -> (id: Int64, keywords: [UInt8]?)? {
        var best = byKeywords[nil]?.first
        if let keywords {
            for start in Self.starts(of: keywords) {
                if let position = byKeywords[start]?.first, position < best ?? .max { best = position }
            }
        }
        return best.map { rows[$0] }
    }

    /// A row just inserted (its id is larger than every other's).
    mutating func append(id: Int64, keywords: [UInt8]?) {
        rows.append((id, keywords))
        positions[id] = rows.count - 1
        index(rows.count - 1)
    }

    /// The row `id` now has `keywords`, which start with its old ones.
    mutating func extend(id: Int64, to keywords: [UInt8]?) {
        guard let position = positions[id] else { return }
        byKeywords[rows[position].keywords]?.removeAll { $0 == position }
        for start in rows[position].keywords.map(Self.starts) ?? [] {
            byStart[start]?.removeAll { $0 == position }
        }
        rows[position].keywords = keywords
        index(position)
    }

    private mutating func index(_ position: Int) {
        Self.insert(position, into: &byKeywords[rows[position].keywords, default: []])
        for start in rows[position].keywords.map(Self.starts) ?? [] {
            Self.insert(position, into: &byStart[start, default: []])
        }
    }

    private static func insert(_ position: Int, into positions: inout [Int]) {
        // A new row comes last: a common start (the type's own words) is shared by every row.
        guard let last = positions.last, last > position else { return positions.append(position) }
        positions.insert(position, at: positions.firstIndex { $0 > position }!)
    }

    /// The starts of `keywords` that end before a separator: those whose words they extend.
    private static func starts(of keywords: [UInt8]) -> [[UInt8]] {
        let separator = SearchableIndex.keywordSeparator.asciiValue!
        return keywords.indices.filter { keywords[$0] == separator }.map { Array(keywords[..<$0]) }
    }
}
