import Foundation
import PostgresNIO
import Searchlight

/// Migration 10 (`v10-meaning`): the vectors of search by meaning (Docs/Contract.md#search-by-meaning),
/// as the SQLite index keeps them (`SearchableIndex.addMeaning`): `meaning_vector` holds each
/// text's chunk vectors once, by digest (bytea, ``Searchlight/StoredVectors``); `item_meaning`
/// says which an item has, goes with its item (and follows it when it moves), is marked stale
/// when the item's text changes and dropped when the text goes; vectors no item uses any more
/// are swept at the end of each round of the pass (``PostgresIndex/forgetUnusedMeaning()``). A person reads the vectors of the items they may read, no other
/// (row-level security, as `thumbnail`'s).
///
/// The trigger `item_meaning_text` does on the server what the SQLite index's trigger does:
/// a text that changes marks its item's vectors stale, a text that becomes empty drops them.
/// Vectors are shared by digest, so two items with the same text (a copied file) store one
/// set of vectors.
///
/// ## The tables
///
/// - `meaning_vector`: `digest` (the key: ``Searchlight/MeaningVectors/digest``), `chunks` (how
///   many vectors), `vectors` (their bytes, ``Searchlight/StoredVectors``).
/// - `item_meaning`: the item's key (`domain_id`, `identifier`, a foreign key to `item` that
///   cascades deletes and moves), the `digest` of its vectors, the `model` that made them, and
///   `stale` (its text changed since).
///
/// A vector row is not tied to an item by a foreign key: several items may share it, and it
/// stays after its last item goes until ``PostgresIndex/forgetUnusedMeaning()`` sweeps it.
enum PostgreSQLMeaning {
    /// The schema version these statements bring the database to (see
    /// ``PostgresIndex/migrations``).
    static let version = 10

    /// The statements of migration 10, in order: the two tables, the index by digest, the
    /// trigger on the item's text, the row-level security policies (a vector is visible when an
    /// item that uses it is), and the grants to every role.
    static let statements: [String] = [
        """
        CREATE TABLE meaning_vector (
            digest bytea PRIMARY KEY,
            chunks integer NOT NULL,
            vectors bytea NOT NULL
        )
        """,
        """
        CREATE TABLE item_meaning (
            domain_id bigint NOT NULL,
            identifier bytea NOT NULL,
            digest bytea NOT NULL,
            model text NOT NULL,
            stale boolean NOT NULL DEFAULT false,
            PRIMARY KEY (domain_id, identifier),
            FOREIGN KEY (domain_id, identifier) REFERENCES item (domain_id, identifier)
                ON DELETE CASCADE ON UPDATE CASCADE
        )
        """,
        """
        CREATE INDEX item_meaning_by_digest ON item_meaning (digest)
        """,
        """
        CREATE FUNCTION searchlight_meaning_text_changed() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                IF coalesce(new.text_content, '') = '' THEN
                    DELETE FROM item_meaning WHERE domain_id = new.domain_id AND identifier = new.identifier;
                ELSE
                    UPDATE item_meaning SET stale = true WHERE domain_id = new.domain_id AND identifier = new.identifier;
                END IF;
                RETURN NULL;
            END $$
        """,
        """
        CREATE TRIGGER item_meaning_text AFTER UPDATE OF text_content ON item
            FOR EACH ROW WHEN (old.text_content IS DISTINCT FROM new.text_content)
            EXECUTE FUNCTION searchlight_meaning_text_changed()
        """,
        """
        ALTER TABLE item_meaning ENABLE ROW LEVEL SECURITY
        """,
        """
        CREATE POLICY searchlight_person_reads ON item_meaning FOR SELECT USING (
            EXISTS (SELECT 1 FROM item i WHERE i.domain_id = item_meaning.domain_id AND i.identifier = item_meaning.identifier))
        """,
        """
        ALTER TABLE meaning_vector ENABLE ROW LEVEL SECURITY
        """,
        """
        CREATE POLICY searchlight_person_reads ON meaning_vector FOR SELECT USING (
            EXISTS (SELECT 1 FROM item_meaning m WHERE m.digest = meaning_vector.digest))
        """,
        """
        GRANT SELECT ON item_meaning, meaning_vector TO PUBLIC
        """,
    ]
}

extension PostgresIndex {
    /// A ``Searchlight/MeaningWork/key``: the domain's id (8 bytes, big-endian), then the identifier.
    ///
    /// Big-endian, so that keys compare as bytes in the order of the primary key
    /// `(domain_id, identifier)` (ids are positive): a page of work resumes after a key by
    /// comparing rows, not bytes. ``item(meaningKey:)`` reads it back.
    ///
    /// - Parameters:
    ///   - domainID: The id of the item's `domain` row.
    ///   - identifier: The item's identifier, its raw bytes.
    /// - Returns: 8 + `identifier.count` bytes.
    static func meaningKey(domainID: Int64, identifier: [UInt8]) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: domainID >> (8 * (7 - $0))) } + identifier
    }

    /// The domain id and identifier of a key made by ``meaningKey(domainID:identifier:)``, or
    /// `nil` when it is shorter than the 8 bytes of an id (an empty key, before the first page).
    ///
    /// Nothing is checked against the database: a key of another index, or made up, gives an id
    /// and an identifier that may name no item (``storeMeaning(_:)`` then skips it).
    static func item(meaningKey key: [UInt8]) -> (domainID: Int64, identifier: [UInt8])? {
        guard key.count >= 8 else { return nil }
        return (key.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }, Array(key.dropFirst(8)))
    }

    /// Items with text that wait for vectors of `model`, in key order after `key`.
    ///
    /// As ``Searchlight/SearchableIndex/meaningWork(model:after:limit:)``: an item waits when it
    /// has text and no vectors of `model` for that text. The keys are the domain's id and the
    /// identifier, so a page starts where the last ended, whatever the writers did meanwhile.
    ///
    /// One statement, which walks `item` in key order and stops at `limit`; each item's whole
    /// text comes with it, so a page of long texts is as large as they are.
    ///
    /// - Parameters:
    ///   - model: The model's identifier.
    ///   - key: The last key of the previous page; empty for the first page.
    ///   - limit: At most this many items.
    /// - Returns: The items that wait, in key order, each with its text.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func meaningWork(model: String, after key: [UInt8], limit: Int) async throws -> [MeaningWork] {
        let after = Self.item(meaningKey: key) ?? (0, [])
        let afterID = ByteBuffer(bytes: after.identifier)
        return try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT item.domain_id, item.identifier, domain.name, item.text_content FROM item
                JOIN domain ON domain.id = item.domain_id
                LEFT JOIN item_meaning m ON m.domain_id = item.domain_id AND m.identifier = item.identifier
                WHERE (item.domain_id, item.identifier) > (\(after.domainID), \(afterID))
                  AND coalesce(item.text_content, '') <> ''
                  AND (m.domain_id IS NULL OR m.stale OR m.model <> \(model))
                ORDER BY item.domain_id, item.identifier LIMIT \(limit)
                """, logger: self.logger)
            var work: [MeaningWork] = []
            for try await (domainID, identifier, domain, text) in rows.decode((Int64, ByteBuffer, String, String).self) {
                let bytes = Array(identifier.readableBytesView)
                work.append(MeaningWork(key: Self.meaningKey(domainID: domainID, identifier: bytes),
                                        reference: ItemReference(domain: domain, identifier: ItemIdentifier(bytes: bytes)),
                                        text: text, storedText: Array(text.utf8)))
            }
            return work
        }
    }

    /// Whether vectors of `digest` are stored.
    ///
    /// Lets the pass skip the model for a text that another item already has vectors of: the
    /// result is then stored without vectors and links to them (``storeMeaning(_:)``). One
    /// statement, by primary key.
    ///
    /// - Parameter digest: The model's identifier and the text, hashed (``Searchlight/MeaningVectors/digest``).
    /// - Returns: Whether vectors of that text are stored (an item with the same text has them).
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func hasMeaning(digest: [UInt8]) async throws -> Bool {
        let digest = ByteBuffer(bytes: digest)
        return try await withConnection("cannot read the index") { connection in
            try await Self.single(try await connection.query(
                "SELECT count(*)::bigint FROM meaning_vector WHERE digest = \(digest)", logger: self.logger), Int.self) ?? 0 > 0
        }
    }

    /// Stores vectors in one transaction, each item's only while it has the text they were made from.
    ///
    /// An item whose text changed meanwhile, or that is gone, is skipped: the next page of work
    /// offers it again. A result without vectors links its item to the stored vectors of its
    /// digest, or is skipped when there are none (another writer forgot them meanwhile).
    ///
    /// Costs two or three statements per result, in one transaction. The item's current text is
    /// compared with the text the vectors were made from, so a writer that changed the text while
    /// the model ran wins: its change marked the vectors stale, or its new text fails the check.
    ///
    /// - Parameter results: The vectors of a page of work.
    /// - Returns: How many items got vectors.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written, after the retries
    ///   of ``retryPolicy``; then nothing of it is.
    public func storeMeaning(_ results: [MeaningVectors]) async throws -> Int {
        guard !results.isEmpty else { return 0 }
        return try await withTransaction("cannot write to the index") { connection in
            var stored = 0
            for result in results {
                guard let item = Self.item(meaningKey: result.key) else { continue }
                let identifier = ByteBuffer(bytes: item.identifier)
                let text = String(decoding: result.storedText, as: UTF8.self)
                let digest = ByteBuffer(bytes: result.digest)
                let current = try await Self.single(try await connection.query("""
                    SELECT count(*)::bigint FROM item
                    WHERE domain_id = \(item.domainID) AND identifier = \(identifier) AND text_content = \(text)
                    """, logger: self.logger), Int.self) ?? 0
                guard current > 0 else { continue }
                if let vectors = result.vectors {
                    let bytes = ByteBuffer(bytes: vectors.bytes)
                    try await connection.query("""
                        INSERT INTO meaning_vector(digest, chunks, vectors) VALUES (\(digest), \(vectors.count), \(bytes))
                        ON CONFLICT (digest) DO UPDATE SET chunks = excluded.chunks, vectors = excluded.vectors
                        """, logger: self.logger)
                } else if try await Self.single(try await connection.query(
                    "SELECT count(*)::bigint FROM meaning_vector WHERE digest = \(digest)", logger: self.logger), Int.self) ?? 0 == 0 {
                    continue
                }
                try await connection.query("""
                    INSERT INTO item_meaning(domain_id, identifier, digest, model, stale)
                    VALUES (\(item.domainID), \(identifier), \(digest), \(result.model), false)
                    ON CONFLICT (domain_id, identifier) DO UPDATE SET digest = excluded.digest, model = excluded.model, stale = false
                    """, logger: self.logger)
                stored += 1
            }
            return stored
        }
    }

    /// Deletes the vectors no item uses any more; returns how many texts' vectors went.
    ///
    /// Over the whole shared index, every machine's domains: a text that an item of another
    /// domain still has keeps its vectors.
    ///
    /// One statement, outside a transaction of its own: a page of work stored at the same time
    /// either links its vectors before the sweep (they stay) or after it (it stores them again).
    ///
    /// - Returns: How many texts' vectors were deleted.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written.
    public func forgetUnusedMeaning() async throws -> Int {
        try await withConnection("cannot write to the index") { connection in
            try await Self.single(try await connection.query("""
                WITH gone AS (DELETE FROM meaning_vector v
                              WHERE NOT EXISTS (SELECT 1 FROM item_meaning m WHERE m.digest = v.digest) RETURNING 1)
                SELECT count(*)::bigint FROM gone
                """, logger: self.logger), Int.self) ?? 0
        }
    }

    /// How far the pass is for `model`.
    ///
    /// Four statements on one connection, not a transaction: the figures may come from slightly
    /// different moments while writers write. Each counts every row it covers, so on a large
    /// index this costs scans of `item`, `item_meaning` and `meaning_vector`.
    ///
    /// - Parameter model: The model whose embedded items are counted; `nil`: none is.
    /// - Returns: The items with text, those embedded with `model`, the chunks and bytes
    ///   stored, and the models that made vectors.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func meaningProgress(model: String?) async throws -> MeaningProgress {
        let model = model ?? ""
        return try await withConnection("cannot read the index") { connection in
            var progress = MeaningProgress()
            progress.items = try await Self.single(try await connection.query(
                "SELECT count(*)::bigint FROM item WHERE coalesce(text_content, '') <> ''", logger: self.logger), Int.self) ?? 0
            progress.embedded = try await Self.single(try await connection.query(
                "SELECT count(*)::bigint FROM item_meaning WHERE NOT stale AND model = \(model)", logger: self.logger), Int.self) ?? 0
            let sums = try await connection.query("""
                SELECT coalesce(sum(chunks), 0)::bigint, coalesce(sum(length(vectors)), 0)::bigint FROM meaning_vector
                """, logger: self.logger)
            for try await (chunks, bytes) in sums.decode((Int64, Int64).self) {
                progress.chunks = Int(chunks)
                progress.bytes = Int(bytes)
            }
            for try await name in try await connection.query(
                "SELECT DISTINCT model FROM item_meaning ORDER BY model", logger: self.logger).decode(String.self) {
                progress.models.append(name)
            }
            return progress
        }
    }

    /// The `limit` items nearest to `question` that the person may read, best first: every
    /// vector of the model compared here (brute force), each item scored by its chunks (``StoredVectors/similarity(of:in:)``).
    ///
    /// Every vector of the model (of the domain, when given) that the reader may see is read
    /// from the server and compared in this process; the nearest items are then read in one
    /// statement. The cost grows with the texts embedded.
    ///
    /// Vectors marked stale (their item's text changed since) are compared as well, until the
    /// pass makes them again. A nearest item that vanished between the two reads is left out,
    /// so fewer than `limit` results may come back.
    ///
    /// A `limit` of 0 reads nothing. The statement that reads the nearest items names each by its
    /// domain id and identifier; the results keep the order of their similarity, not of the read.
    ///
    /// - Parameters:
    ///   - question: The question's vector, of unit length, made by `model`.
    ///   - model: The model's identifier: only its vectors are compared.
    ///   - domain: Only this domain, when given.
    ///   - limit: At most this many results.
    /// - Returns: The nearest items, best first, each with its ``Searchlight/SearchResult/similarity``.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) async throws -> [SearchResult] {
        guard limit > 0 else { return [] }
        let question = StoredVectors.Question(question)
        let nearest = try await withConnection("cannot read the index") { connection in
            let rows = try await connection.query("""
                SELECT m.domain_id, m.identifier, v.vectors FROM item_meaning m
                JOIN meaning_vector v ON v.digest = m.digest
                WHERE m.model = \(model)
                  AND (\(domain)::text IS NULL OR m.domain_id = (SELECT id FROM domain WHERE name = \(domain)))
                """, logger: self.logger)
            var best = NearestMatches<(Int64, [UInt8])>(limit: limit)
            for try await (domainID, identifier, vectors) in rows.decode((Int64, ByteBuffer, ByteBuffer).self) {
                let similarity = vectors.withUnsafeReadableBytes { raw in
                    StoredVectors.similarity(of: question, in: raw.bindMemory(to: UInt8.self))?.similarity
                }
                if let similarity { best.offer((domainID, Array(identifier.readableBytesView)), similarity: similarity) }
            }
            return best.ranked
        }
        guard !nearest.isEmpty else { return [] }
        var statement = SQLStatement("SELECT \(Self.itemColumns) FROM item \(Self.itemJoins) WHERE ")
        statement.sql += nearest.map { near in
            "(item.domain_id = \(statement.bind(.integer(Int(near.element.0)))) AND item.identifier = \(statement.bind(.bytes(near.element.1))))"
        }.joined(separator: " OR ")
        let items = try await fetchItems(statement)
        let byKey = Dictionary(items.map { (ItemReference(domain: $0.item.domainIdentifier, identifier: $0.item.uniqueIdentifier), $0) },
                               uniquingKeysWith: { first, _ in first })
        let domains = try await domainNames()
        return nearest.compactMap { near in
            guard let name = domains[near.element.0],
                  let item = byKey[ItemReference(domain: name, identifier: ItemIdentifier(bytes: near.element.1))] else { return nil }
            var result = SearchResult(item: item, matchedIn: .meaning)
            result.similarity = near.similarity
            return result
        }
    }

    /// Each domain's name by id.
    ///
    /// One statement; every machine's domains. Used to name the domains of rows read by id.
    ///
    /// - Returns: Every row of `domain`, its name by its id.
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    func domainNames() async throws -> [Int64: String] {
        try await withConnection("cannot read the index") { connection in
            var names: [Int64: String] = [:]
            for try await (id, name) in try await connection.query("SELECT id, name FROM domain", logger: self.logger)
                .decode((Int64, String).self) { names[id] = name }
            return names
        }
    }
}
