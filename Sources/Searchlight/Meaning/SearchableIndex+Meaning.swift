import Foundation
import GRDB
import GRDBSQLite

extension SearchableIndex {
    /// Migration `v11-meaning`: the vectors of search by meaning (Docs/Contract.md#search-by-meaning).
    ///
    /// - `meaning_vector`: the chunks' vectors of one text, by digest (``MeaningVectors/digest``:
    ///   the model and the text), all in one value (``StoredVectors``): items with the same text
    ///   share them, and a scan reads one row per text, not per chunk. A table with row ids, the
    ///   digest a unique key: a text's eight chunks (3 104 bytes) fit in one page of it, where
    ///   a `WITHOUT ROWID` table (whose rows are kept in the key's B-tree, at most about a quarter
    ///   of a page each) spills every row to overflow pages that SQLite copies back together —
    ///   reading 100 000 chunks took 4.5 times as long (Benchmarks/README.md, "Search by meaning").
    /// - `item_meaning`: which vectors an item's text has, of which model; `stale` once its text
    ///   changed (until the pass embeds the new text). It goes with its item, or with its text.
    ///   Vectors that no item uses any more stay until the pass's round ends
    ///   (``forgetUnusedMeaning()``): a file a scan sees renamed (removed, then added) finds
    ///   its vectors again by its text's digest.
    ///
    /// Two triggers keep `item_meaning` true to the text without any Swift code on the write
    /// path: an update of `item_text.text` marks its row stale, a deletion of the text drops it.
    ///
    /// - Parameter db: The migration's connection, inside its transaction.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    static func addMeaning(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE meaning_vector (
                id INTEGER PRIMARY KEY,
                digest BLOB NOT NULL UNIQUE,
                chunks INTEGER NOT NULL,
                vectors BLOB NOT NULL
            );
            CREATE TABLE item_meaning (
                itemId INTEGER PRIMARY KEY REFERENCES item(id) ON DELETE CASCADE,
                digest BLOB NOT NULL,
                model TEXT NOT NULL,
                stale INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX item_meaning_by_digest ON item_meaning(digest);
            CREATE TRIGGER item_text_meaning_stale AFTER UPDATE OF text ON item_text WHEN old.text IS NOT new.text BEGIN
                UPDATE item_meaning SET stale = 1 WHERE itemId = new.itemId;
            END;
            CREATE TRIGGER item_text_meaning_delete AFTER DELETE ON item_text BEGIN
                DELETE FROM item_meaning WHERE itemId = old.itemId;
            END;
            """)
    }

    /// Migration `v12-meaning-rows`: each `item_meaning` row names the row of its text's vectors
    /// (`vectorId`, `meaning_vector.id`, beside the digest), so that a search by meaning reads
    /// the items and then the vectors each in one pass over its table, without looking a digest
    /// up per item (``nearestItems(to:model:domain:limit:in:)``). A text's row keeps its id
    /// while any item uses it (new vectors of the same digest update it in place; unused rows
    /// are deleted only when no item names them, ``forgetUnusedMeaning()``).
    ///
    /// Rows whose digest has no vectors stored are left with a `NULL` `vectorId`; the search
    /// looks the digest up for them.
    ///
    /// - Parameter db: The migration's connection, inside its transaction.
    /// - Throws: GRDB's `DatabaseError` when a statement fails.
    static func nameVectorRows(_ db: Database) throws {
        try db.execute(sql: """
            ALTER TABLE item_meaning ADD COLUMN vectorId INTEGER;
            UPDATE item_meaning SET vectorId = (SELECT id FROM meaning_vector WHERE meaning_vector.digest = item_meaning.digest);
            """)
    }

    /// Items with text that wait for vectors of `model`, by key (the row id, big-endian), after
    /// `key`, at most `limit`.
    ///
    /// An item waits when it has text and no vectors yet, vectors of another model, or
    /// vectors of a text it no longer has. The pass (`SearchlightFiles`' `MeaningIndexer`)
    /// pages through them, each page after the last key it got, so a page costs the same
    /// wherever it starts; each text comes inflated, with its stored bytes beside it.
    ///
    /// ```swift
    /// var after: [UInt8] = []
    /// while true {
    ///     let work = try index.meaningWork(model: model, after: after, limit: 64)
    ///     guard let last = work.last else { break }
    ///     // embed each text, then storeMeaning(_:)
    ///     after = last.key
    /// }
    /// ```
    ///
    /// One read transaction, on one of the handle's reading connections; safe to call from any
    /// thread while writers write. A text that cannot be inflated is left out of the page: the
    /// page may then hold fewer than `limit` items although more wait.
    ///
    /// - Parameters:
    ///   - model: The model's identifier.
    ///   - key: The last key of the previous page; empty for the first page.
    ///   - limit: At most this many items.
    /// - Returns: The items that wait, by key.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func meaningWork(model: String, after key: [UInt8], limit: Int) throws -> [MeaningWork] {
        let after = key.isEmpty ? 0 : Self.rowID(meaningKey: key)
        return try read { db in
            let domains = try DomainNames(in: db)
            var work: [MeaningWork] = []
            try db.readStatement("""
                SELECT item_text.itemId, item.identifier, item_text.text FROM item_text
                JOIN item ON item.id = item_text.itemId
                LEFT JOIN item_meaning ON item_meaning.itemId = item_text.itemId
                WHERE item_text.itemId > ? AND item_text.text IS NOT NULL
                  AND (item_meaning.itemId IS NULL OR item_meaning.stale OR item_meaning.model != ?)
                ORDER BY item_text.itemId LIMIT ?
                """).forEachRow(.integer(after), .text(model), .integer(Int64(limit))) { row in
                    let id = sqlite3_column_int64(row, 0)
                    let stored = Self.blob(row, 2)
                    guard let text = StoredContent.decompress(stored) else { return true }
                    work.append(MeaningWork(key: Self.meaningKey(id), reference: ItemReference(
                        domain: try domains.name(ofItem: id), identifier: ItemIdentifier(bytes: Array(Self.blob(row, 1)))),
                        text: text, storedText: Array(stored)))
                    return true
                }
            return work
        }
    }

    /// A row id as a ``MeaningWork/key``: big-endian, so that keys sort as their rows.
    static func meaningKey(_ id: Int64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: id >> (8 * (7 - $0))) } }

    /// The row id of a ``MeaningWork/key``; -1 (no row) for bytes that are not one.
    static func rowID(meaningKey key: [UInt8]) -> Int64 { key.count == 8 ? key.reduce(Int64(0)) { $0 << 8 | Int64($1) } : -1 }

    /// Whether vectors of `digest` are stored (an item with the same text has them).
    ///
    /// The pass asks before it embeds: a copy of a text already embedded costs nothing but a
    /// ``MeaningVectors`` without vectors.
    ///
    /// One look-up in the digest's unique index.
    ///
    /// - Parameter digest: The model's identifier and the text, hashed (``MeaningVectors/digest``).
    /// - Returns: Whether the vectors are stored.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func hasMeaning(digest: [UInt8]) throws -> Bool {
        try read { db in
            try db.readStatement("SELECT 1 FROM meaning_vector WHERE digest = ?").firstRow(.blob(digest)) { _ in true } ?? false
        }
    }

    /// Stores vectors, in one transaction: each item's only if it still has the text they were
    /// made from (else it waits again, with its new text). Returns how many were stored.
    ///
    /// An item whose text changed or that was deleted while its vectors were being made is
    /// skipped, not an error: the next page of ``meaningWork(model:after:limit:)`` offers its
    /// new text. Vectors of a digest already stored are replaced in place.
    ///
    /// Costs three or four statements per result (all cached), in one write transaction that
    /// waits for the index's other writers. A result without vectors whose digest has none stored
    /// (forgotten meanwhile by ``forgetUnusedMeaning()``) is skipped.
    ///
    /// - Parameter results: The vectors of a page of work; those without vectors reuse the
    ///   stored ones of their digest.
    /// - Returns: How many items got vectors.
    /// - Throws: ``SearchlightError`` when the index cannot be written; then nothing of it is.
    @discardableResult
    public func storeMeaning(_ results: [MeaningVectors]) throws -> Int {
        guard !results.isEmpty else { return 0 }
        return try write { db in
            var stored = 0
            for result in results {
                let current = try Data.fetchOne(db.cachedStatement(sql: "SELECT text FROM item_text WHERE itemId = ?"),
                                                arguments: [Self.rowID(meaningKey: result.key)])
                guard let current, current.elementsEqual(result.storedText) else { continue }
                if let vectors = result.vectors {
                    try db.cachedStatement(sql: """
                        INSERT INTO meaning_vector(digest, chunks, vectors) VALUES (?, ?, ?)
                        ON CONFLICT(digest) DO UPDATE SET chunks = excluded.chunks, vectors = excluded.vectors
                        """).execute(arguments: [Data(result.digest), vectors.count, Data(vectors.bytes)])
                }
                guard let vectorID = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM meaning_vector WHERE digest = ?"),
                                                        arguments: [Data(result.digest)]) else {
                    continue
                }
                try db.cachedStatement(sql: """
                    INSERT INTO item_meaning(itemId, digest, model, stale, vectorId) VALUES (?, ?, ?, 0, ?)
                    ON CONFLICT(itemId) DO UPDATE SET digest = excluded.digest, model = excluded.model, stale = 0,
                        vectorId = excluded.vectorId
                    """).execute(arguments: [Self.rowID(meaningKey: result.key), Data(result.digest), result.model, vectorID])
                stored += 1
            }
            return stored
        }
    }

    /// Deletes the vectors no item uses any more (their items removed, their texts changed);
    /// returns how many texts' vectors went.
    ///
    /// Kept until now on purpose: a file that a scan sees renamed (removed, then added) finds
    /// its vectors again by its text's digest, if this has not run in between.
    ///
    /// One statement in a write transaction: a scan of `meaning_vector` with one look-up in
    /// `item_meaning`'s digest index per row.
    ///
    /// - Returns: How many texts' vectors were deleted.
    /// - Throws: ``SearchlightError`` when the index cannot be written.
    @discardableResult
    public func forgetUnusedMeaning() throws -> Int {
        try write { db in
            try db.execute(sql: """
                DELETE FROM meaning_vector WHERE NOT EXISTS (SELECT 1 FROM item_meaning WHERE item_meaning.digest = meaning_vector.digest)
                """)
            return db.changesCount
        }
    }

    /// How far the meaning pass is for `model`.
    ///
    /// Counts every text and every item with current vectors of `model`, and sums the stored
    /// vectors' chunks and bytes (of every model): a scan of the tables, for `status`.
    ///
    /// - Parameter model: The model whose embedded items are counted; `nil`: none is.
    /// - Returns: The items with text, those embedded with `model`, the chunks and bytes
    ///   stored, and the models that made vectors.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func meaningProgress(model: String?) throws -> MeaningProgress {
        try read { db in
            var progress = MeaningProgress()
            progress.items = try Int.fetchOne(db, sql: "SELECT count(*) FROM item_text WHERE text IS NOT NULL") ?? 0
            progress.embedded = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM item_meaning WHERE NOT stale AND model = ?
                """, arguments: [model ?? ""]) ?? 0
            let row = try Row.fetchOne(db, sql: "SELECT coalesce(sum(chunks), 0), coalesce(sum(length(vectors)), 0) FROM meaning_vector")
            progress.chunks = row?[0] ?? 0
            progress.bytes = row?[1] ?? 0
            progress.models = try String.fetchAll(db, sql: "SELECT DISTINCT model FROM item_meaning ORDER BY model")
            return progress
        }
    }

    /// The items whose text is nearest to `question` (a unit vector of `model`), best first, at
    /// most `limit`: every stored vector of the model compared (brute force, ``StoredVectors``),
    /// each item scored by its chunks (``StoredVectors/similarity(of:in:)``). Results say `.meaning`, with their similarity.
    ///
    /// The cost grows with the texts embedded with `model`: every vector is read (the file is
    /// mapped for it), unless the domain's texts are few, which are looked up one by one.
    ///
    /// ```swift
    /// let (vector, model) = try encoder.encode("how do I renew my passport")   // a QuestionEncoder
    /// let results = try index.meaningResults(question: vector, model: model, domain: nil, limit: 20)
    /// ```
    ///
    /// Vectors marked stale (their text changed since they were made) still take part until the
    /// pass replaces them. Runs in one read transaction, so the vectors and the items come from
    /// the same snapshot.
    ///
    /// - Parameters:
    ///   - question: The question's vector, of unit length, made by `model`.
    ///   - model: The model's identifier: only its vectors are compared.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results.
    /// - Returns: The nearest items, best first, each with its ``SearchResult/similarity``.
    /// - Throws: ``SearchlightError`` when the index cannot be read.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) throws -> [SearchResult] {
        try read { db in
            let nearest = try Self.nearestItems(to: question, model: model, domain: domain, limit: limit, in: db)
            // Every row has its item (a foreign key, in one read): the items come in the ids' order.
            let items = try Self.fetchItems(ids: nearest.map(\.element), in: db)
            guard items.count == nearest.count else {
                throw SearchlightError(.database, "vectors without their item", path: path)
            }
            return zip(nearest, items).map { near, item in
                var result = SearchResult(item: item, matchedIn: .meaning)
                result.similarity = near.similarity
                return result
            }
        }
    }

    /// How much of the index file the ranking by meaning maps (SQLite's `mmap_size`).
    ///
    /// 1 GiB of address space, not of memory: pages are read in as the scan touches them, and
    /// a file smaller than this is mapped whole. Set on the reading connection, where it stays.
    static let meaningMapSize = 1 << 30

    /// The row ids of the `limit` items nearest to `question`, with their similarity, in three
    /// steps: the items of the model (and domain) and the row of their text's vectors, in one
    /// pass over `item_meaning`; every text's vectors in the table's order, one pass over its
    /// pages, each text compared once (``StoredVectors/similarity(of:in:)``); the items offered
    /// in their order. The same similarities and the same order of offers as the join of each
    /// item with its vectors it replaces, which looked the digest up in two B-trees per item
    /// (Benchmarks/README.md, "Search by meaning").
    ///
    /// When the texts wanted are fewer than a sixteenth of the stored rows (a small domain of a
    /// large index), each is looked up by its id instead of reading every page.
    ///
    /// - Parameters:
    ///   - question: The question's vector, of unit length.
    ///   - model: Only the vectors of this model are compared.
    ///   - domain: Only the items of this domain, when given.
    ///   - limit: At most this many; zero or less gives none.
    ///   - db: A connection inside a read transaction.
    /// - Returns: The item row ids and their similarity, best first.
    /// - Throws: ``SearchlightError`` or GRDB's error when a statement fails.
    static func nearestItems(to question: [Float], model: String, domain: String?, limit: Int,
                             in db: any ReadConnection) throws -> [(element: Int64, similarity: Float)] {
        guard limit > 0 else { return [] }
        let question = StoredVectors.Question(question)
        var items: [(item: Int64, text: Int64)] = []
        var largest: Int64 = 0
        // `vectorId` is set by every write since v12-meaning-rows; the digest finds the row otherwise.
        try db.readStatement("""
            SELECT itemId, coalesce(vectorId, (SELECT id FROM meaning_vector WHERE meaning_vector.digest = item_meaning.digest))
            FROM item_meaning
            WHERE model = :model
              AND (:domain IS NULL OR itemId IN (SELECT id FROM item WHERE domainId = (SELECT id FROM domain WHERE name = :domain)))
            """).forEachRow(named: ["model": .text(model), "domain": .text(domain)]) { row in
                guard sqlite3_column_type(row, 1) != SQLITE_NULL else { return true }
                let text = sqlite3_column_int64(row, 1)
                items.append((sqlite3_column_int64(row, 0), text))
                largest = Swift.max(largest, text)
                return true
            }
        guard !items.isEmpty else { return [] }
        var similarities = TextSimilarities(largest: largest, texts: items.count)
        for item in items { similarities.want(item.text) }
        // Every vector is read: mapped, the file's pages are read in place rather than copied
        // by a read(2) each (100 000 chunks: 38 → 24 ms). The map stays for the connection's
        // next search: unmapping it after each, as first built, made each search fault the
        // pages in again.
        try db.readStatement("PRAGMA mmap_size = \(Self.meaningMapSize)").forEachRow { _ in false }
        func compare(_ row: SQLiteStatement) {
            let text = sqlite3_column_int64(row, 0)
            guard similarities.wants(text) else { return }
            similarities[text] = StoredVectors.similarity(of: question, in: blob(row, 1))?.similarity
        }
        let rows = try db.readStatement("SELECT coalesce(max(id), 0) FROM meaning_vector").firstRow { sqlite3_column_int64($0, 0) } ?? 0
        if Int64(similarities.wanted.count) * 16 < rows {
            // A few texts among many (a small domain's): each looked up rather than every page read.
            let vectors = try db.readStatement("SELECT id, vectors FROM meaning_vector WHERE id = ?")
            for text in similarities.wanted { try vectors.firstRow(.integer(text)) { compare($0) } }
        } else {
            try db.readStatement("SELECT id, vectors FROM meaning_vector").forEachRow { row in
                compare(row)
                return true
            }
        }
        var best = NearestMatches<Int64>(limit: limit)
        for (item, text) in items {
            if let similarity = similarities[text] { best.offer(item, similarity: similarity) }
        }
        return best.ranked
    }
}

/// The similarity of each text a search by meaning compares, by the row id of its vectors: in
/// an array indexed by the id when the ids are dense (as SQLite gives them), which a scan of
/// every text looks up twice per row, a dictionary otherwise.
///
/// Items that share a text (copies of a file) share its row, so each text is compared once
/// however many items have it.
struct TextSimilarities {
    /// The similarities by row id, when the ids are dense: NaN for a text not wanted.
    private var dense: [Float]
    /// The similarities by row id, when they are not.
    private var sparse: [Int64: Float] = [:]
    /// Whether ``dense`` is used: the largest id is at most four times the texts, plus 1 024.
    private let isDense: Bool
    /// The texts wanted, each once, in the order first wanted.
    private(set) var wanted: [Int64] = []

    /// Not yet compared; `nil` once compared without a similarity, or not wanted.
    private static let unknown = -Float.infinity

    /// Room for the texts of ids up to `largest`, about `texts` of them wanted.
    ///
    /// - Parameters:
    ///   - largest: The largest row id that will be wanted.
    ///   - texts: About how many texts will be wanted (the items, which may share texts).
    init(largest: Int64, texts: Int) {
        isDense = largest >= 0 && largest <= Int64(4 * texts + 1024)
        dense = isDense ? [Float](repeating: .nan, count: Int(largest) + 1) : []
    }

    /// Marks `text` to be compared; once, whatever the items that share it.
    mutating func want(_ text: Int64) {
        guard !wants(text) else { return }
        wanted.append(text)
        if isDense { dense[Int(text)] = Self.unknown } else { sparse[text] = Self.unknown }
    }

    /// Whether `text` was marked to be compared.
    func wants(_ text: Int64) -> Bool {
        if isDense { return text >= 0 && text < dense.count && !dense[Int(text)].isNaN }
        return sparse[text].map { !$0.isNaN } ?? false
    }

    /// The text's similarity once compared.
    ///
    /// Setting `nil` (the stored bytes were not whole vectors) also stops wanting the text, so
    /// the items that share it are not offered.
    subscript(text: Int64) -> Float? {
        get {
            let value = isDense ? (text >= 0 && text < dense.count ? dense[Int(text)] : .nan) : (sparse[text] ?? .nan)
            return value.isNaN || value == Self.unknown ? nil : value
        }
        set {
            // A text compared without a similarity (bytes that are not whole vectors) is left out.
            if isDense { dense[Int(text)] = newValue ?? .nan } else { sparse[text] = newValue ?? .nan }
        }
    }
}
