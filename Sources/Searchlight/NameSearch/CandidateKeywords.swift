import GRDB
import GRDBSQLite

/// The keywords name search ranks a candidate by (``SearchableIndex/rankedKeywordsSQL``), put
/// together from the candidate's row instead of by SQLite for every row.
///
/// The kind's keywords are read once per kind and length (a common word's thousands of
/// candidates have a few dozen kinds, and `substr` and `||` on every row cost more than the
/// ranking); most items have no tags, comment or addresses, and then their keywords are the
/// kind's alone, which ``key`` names so that their matches are worked out once.
final class CandidateKeywords {
    /// What identifies keywords made of a kind's alone: its row and ``StoredText/kindCharacters``.
    struct Key: Equatable {
        let kind: Int64
        let characters: Int64
    }

    private let kindStatement: ReadStatement
    /// The kinds that have no row: the join this replaces left their items out (rare: an
    /// array, and no set's type made at every start, ``MemberIDs``).
    private var missingKinds: [Int64] = []
    /// The UTF-8 of a kind's keywords as an item has them, by ``Key``.
    private var kindBytes = KindTable<[UInt8]>()
    private var last: (key: Key, bytes: [UInt8])?
    private var buffer: [UInt8] = []

    init(in db: any ReadConnection) throws {
        kindStatement = try db.readStatement("SELECT keywords FROM content_kind WHERE id = ?")
    }

    /// The keywords of the current row of `statement`, whose columns `kind`, `derived` and
    /// `user` (tags, comment, addresses) are read in place, handed to `body` with their
    /// ``Key`` when they are the kind's alone; `nil` when the item's kind has no row.
    func withKeywords<T>(_ statement: SQLiteStatement, kind: Int32, derived: Int32, user: [Int32],
                                  _ body: (UnsafeBufferPointer<UInt8>, Key?) throws -> T) throws -> T? {
        let kindID = sqlite3_column_int64(statement, kind)
        let column = sqlite3_column_int64(statement, derived)
        let key = Key(kind: kindID, characters: column >> Int64(StoredText.kindCharactersShift))
        let own: [UInt8]
        if let last, last.key == key {
            // Candidates come in row order, in which a folder's items (often of one kind) follow each other.
            own = last.bytes
        } else if let known = kindBytes[key] {
            own = known
        } else {
            guard !missingKinds.contains(kindID),
                  let keywords = try kindStatement.firstRow(.integer(kindID), read: { SearchableIndex.optionalText($0, 0) }) else {
                missingKinds.append(kindID)
                return nil
            }
            own = Array((StoredText.kindKeywords(keywords, column: Int(column)) ?? "").utf8)
            kindBytes[key] = own
        }
        last = (key, own)
        guard user.contains(where: { sqlite3_column_type(statement, $0) != SQLITE_NULL }) else {
            return try own.withUnsafeBufferPointer { try body($0, key) }
        }
        // As SQL's `coalesce(kind, '') || coalesce(char(31) || tags, '') || …`.
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: own)
        for column in user where sqlite3_column_type(statement, column) != SQLITE_NULL {
            buffer.append(UInt8(SearchableIndex.keywordSeparator.asciiValue!))
            buffer.append(contentsOf: UnsafeBufferPointer(start: sqlite3_column_text(statement, column),
                                                          count: Int(sqlite3_column_bytes(statement, column))))
        }
        return try buffer.withUnsafeBufferPointer { try body($0, nil) }
    }
}

/// Values by ``CandidateKeywords/Key``, in a dictionary keyed by the kind's row (a kind has
/// one length of keywords or a few). Keyed by `Int64` rather than by a key type of its own:
/// the first use of a dictionary looks its key's `Hashable` conformance up, at every start,
/// by scanning the executable's seven thousand conformances (60 µs of a search with hits,
/// Benchmarks/README.md); `Int64`'s is looked up once for every table keyed so.
struct KindTable<Value> {
    private var byKind: [Int64: [(characters: Int64, value: Value)]] = [:]

    subscript(key: CandidateKeywords.Key) -> Value? {
        get { byKind[key.kind]?.first { $0.characters == key.characters }?.value }
        set {
            var values = byKind[key.kind] ?? []
            values.removeAll { $0.characters == key.characters }
            if let newValue { values.append((key.characters, newValue)) }
            byKind[key.kind] = values
        }
    }
}
