import Foundation
import GRDB
import Searchlight

extension OCRStore {
    /// Queues, once per domain, the pictures and PDFs of `domain` whose text OCR never read:
    /// items indexed before OCR existed, or while it was off, which the first pass queues only
    /// when they change. Returns how many were queued, nil when the domain's were queued before.
    ///
    /// The second pass takes them like any entry, in the background (at idle priority in
    /// `watch`): a picture read before comes from the cache by its bytes, a PDF without a
    /// scanned page costs a look at its pages' text layers, and every item is queued with the
    /// change stamp it has, so that one changed meanwhile is dropped (its new version is queued
    /// by the first pass). An empty domain (a first scan) records only that it was done.
    /// - Throws: The index's error when its items cannot be read; GRDB's `DatabaseError` when
    ///   the store cannot be written.
    @discardableResult
    public func queueOlderItems(of index: any IndexWriter, domain: String, root: String) throws -> Int? {
        let done = try database.read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM older_queued WHERE indexPath = ? AND domain = ?",
                              arguments: [indexPath, domain]) ?? false
        }
        if done { return nil }
        let recognized = try database.read { db in
            Set(try Data.fetchAll(db, sql: "SELECT identifier FROM item_text WHERE indexPath = ? AND domain = ?",
                                  arguments: [indexPath, domain]).map { Array($0) })
        }
        var entries: [Entry] = []
        let now = Date()
        try index.forEachItem(domain: domain) { indexed in
            let item = indexed.item
            guard item.failure == nil, let type = item.attributeSet.contentType,
                  ItemExtraction.ocrImageTypes.contains(type) || type == "application/pdf",
                  !recognized.contains(item.uniqueIdentifier.bytes) else { return true }
            entries.append(Entry(domain: domain, identifier: item.uniqueIdentifier, root: root, contentType: type,
                                 changeStamp: item.changeStamp, queued: now))
            return true
        }
        try enqueue(entries)
        try database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO older_queued (indexPath, domain, queued, count) VALUES (?, ?, ?, ?)",
                           arguments: [indexPath, domain, now.timeIntervalSince1970, entries.count])
        }
        return entries.count
    }
}
