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

    /// Items with text that wait for vectors of `model`, by key (the row id, big-endian), after
    /// `key`, at most `limit`.
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
    public func hasMeaning(digest: [UInt8]) throws -> Bool {
        try read { db in
            try db.readStatement("SELECT 1 FROM meaning_vector WHERE digest = ?").firstRow(.blob(digest)) { _ in true } ?? false
        }
    }

    /// Stores vectors, in one transaction: each item's only if it still has the text they were
    /// made from (else it waits again, with its new text). Returns how many were stored.
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
                } else if try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM meaning_vector WHERE digest = ?"),
                                           arguments: [Data(result.digest)]) == nil {
                    continue
                }
                try db.cachedStatement(sql: """
                    INSERT INTO item_meaning(itemId, digest, model, stale) VALUES (?, ?, ?, 0)
                    ON CONFLICT(itemId) DO UPDATE SET digest = excluded.digest, model = excluded.model, stale = 0
                    """).execute(arguments: [Self.rowID(meaningKey: result.key), Data(result.digest), result.model])
                stored += 1
            }
            return stored
        }
    }

    /// Deletes the vectors no item uses any more (their items removed, their texts changed);
    /// returns how many texts' vectors went.
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
    static let meaningMapSize = 1 << 30

    /// The row ids of the `limit` items nearest to `question`, with their similarity.
    static func nearestItems(to question: [Float], model: String, domain: String?, limit: Int,
                             in db: any ReadConnection) throws -> [(element: Int64, similarity: Float)] {
        guard limit > 0 else { return [] }
        var best = NearestMatches<Int64>(limit: limit)
        let question = StoredVectors.Question(question)
        // Every vector is read: mapped, the file's pages are read in place rather than copied
        // by a read(2) each (100 000 chunks: 38 → 24 ms, Benchmarks/README.md, "Search by
        // meaning"). Only for this statement: other searches read scattered rows, which the
        // page cache serves as well.
        try db.readStatement("PRAGMA mmap_size = \(Self.meaningMapSize)").forEachRow { _ in false }
        defer { _ = try? db.readStatement("PRAGMA mmap_size = 0").forEachRow { _ in false } }
        try db.readStatement("""
            SELECT item_meaning.itemId, meaning_vector.vectors FROM item_meaning
            JOIN meaning_vector ON meaning_vector.digest = item_meaning.digest
            WHERE item_meaning.model = :model
              AND (:domain IS NULL OR item_meaning.itemId IN (SELECT id FROM item WHERE domainId = (SELECT id FROM domain WHERE name = :domain)))
            """).forEachRow(named: ["model": .text(model), "domain": .text(domain)]) { row in
                if let found = StoredVectors.similarity(of: question, in: blob(row, 1)) {
                    best.offer(sqlite3_column_int64(row, 0), similarity: found.similarity)
                }
                return true
            }
        return best.ranked
    }
}
