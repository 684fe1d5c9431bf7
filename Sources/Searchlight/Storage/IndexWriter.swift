import Foundation

/// An index that the library's application also writes: an ``IndexReader`` with batches,
/// deletions, the pass of search by meaning, and the space churn leaves behind, as GRDB's
/// `DatabaseWriter` refines `DatabaseReader`. Both backends conform: ``SearchableIndex`` (an
/// SQLite file) and `SearchlightPostgres`' `PostgresStore` (the shared index). The file indexer's
/// bookkeeping refines it in `SearchlightFiles` (`FileIndexWriter`).
///
/// The requirements are synchronous: the scanner's writer thread and the watcher call them
/// from threads of their own.
///
/// ```swift
/// let index: any IndexWriter = try SearchableIndex(path: path)
/// var batch = IndexBatch()
/// batch.upsert(SearchableItem(uniqueIdentifier: "note-1", domainIdentifier: "notes", attributeSet: attributes))
/// try index.apply(batch)
/// try index.markUpdated(domain: "notes")
/// ```
public protocol IndexWriter: IndexReader {
    /// Applies a batch in one transaction: all of its changes land, or none.
    ///
    /// ```swift
    /// var batch = IndexBatch()
    /// batch.upsert(SearchableItem(uniqueIdentifier: "note-1", domainIdentifier: "notes", attributeSet: attributes))
    /// batch.delete("note-0", domain: "notes")
    /// try store.apply(batch)
    /// ```
    ///
    /// - Throws: ``SearchlightError`` (the SQLite index: a full disk, a busy or read-only
    ///   database, damage) or the store's ``IndexStoreError``; nothing of the batch is applied.
    func apply(_ batch: IndexBatch) throws
    /// Deletes every item of the domains, and the domains; returns the number of items deleted.
    @discardableResult func deleteAllItems(inDomains domains: [String]) throws -> Int
    /// Deletes every item and domain; returns the number of items deleted.
    @discardableResult func deleteAllItems() throws -> Int
    /// Records when a domain was last brought up to date (``IndexStatistics/Domain/lastUpdateDate``).
    func markUpdated(domain: String, date: Date) throws

    // MARK: Meaning (Docs/Contract.md#search-by-meaning)

    /// Stores vectors in one transaction, each item's only while it has the text they were
    /// made from; returns how many items got them.
    @discardableResult func storeMeaning(_ results: [MeaningVectors]) throws -> Int
    /// Deletes the vectors no item uses any more (the pass, at the end of each round); returns
    /// how many texts' vectors went.
    @discardableResult func forgetUnusedMeaning() throws -> Int

    // MARK: Space (SearchableIndex+Space.swift)

    /// What was written since space was last reclaimed; its ``IndexChurn/note(_:)`` is called
    /// with every batch applied.
    var churn: IndexChurn { get }
    /// Gives back the space churn left (``SearchableIndex``: a packed file; PostgreSQL: a
    /// vacuum) now, whatever the churn, and resets ``churn``.
    @discardableResult func reclaimSpace() throws -> ReclaimedSpace
    /// Whether an index that has at least doubled (``IndexChurn/hasDoubled(items:)``) is worth
    /// reclaiming as well: SQLite's, whose full-text segments a first scan leaves many of; not
    /// PostgreSQL's, whose vacuum of freshly written tables would rebuild their indexes for nothing.
    var reclaimsAfterGrowth: Bool { get }
}

extension IndexWriter {
    /// ``markUpdated(domain:date:)`` now.
    public func markUpdated(domain: String) throws { try markUpdated(domain: domain, date: Date()) }

    /// Rows written and deleted since space was last reclaimed.
    public var churnedRows: Int { churn.rows }

    /// Counts the items before this process first writes: rows that only add items (a first
    /// scan) are growth, not churn. Called before each batch is applied.
    package func countItemsBeforeChurn() throws {
        try churn.countBaseline { try itemCount(domain: nil) }
    }

    /// Reclaims space when it is worth it (``IndexChurn``, and growth where
    /// ``reclaimsAfterGrowth``): what `watch` calls when it is idle, and `scan` when it is done.
    /// Returns what it did, nil when it was not worth it yet.
    @discardableResult
    public func reclaimSpaceIfChurned() throws -> ReclaimedSpace? {
        guard churn.rows >= IndexChurn.minimum else { return nil }
        let items = try itemCount(domain: nil)
        guard churn.isWorthReclaiming(items: items) || (reclaimsAfterGrowth && churn.hasDoubled(items: items)) else {
            return nil
        }
        return try reclaimSpace()
    }
}

extension SearchableIndex: IndexWriter {}
