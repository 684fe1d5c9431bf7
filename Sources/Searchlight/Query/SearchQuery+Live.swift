import Foundation

extension SearchQuery {
    /// The results of the query, then how they change as the index changes, until the task
    /// that iterates is cancelled: `mdfind -live`.
    ///
    /// The first element holds every current result in ``QueryResultChange/added``. Afterwards
    /// the index is checked every `interval`; when any process has committed a change (its
    /// ``IndexReader/changeMarker()``: SQLite's `PRAGMA data_version`, the PostgreSQL index's
    /// batch counts), the query runs again and an element is delivered if its results differ.
    /// Changes committed together arrive together.
    ///
    /// ```swift
    /// for try await change in SearchQuery(queryString: #"displayName == "*.pdf"c"#).liveResults(in: index) {
    ///     for item in change.added { print("+", item.item.uniqueIdentifier) }
    ///     for item in change.removed { print("-", item.item.uniqueIdentifier) }
    /// }
    /// ```
    ///
    /// Each change costs a run of the whole query without a limit, and the comparison of every
    /// result with the last ones, in memory: keep live queries selective on a large index. While
    /// the index does not change, a check costs one small read of the marker. The query is run
    /// again only when the index changes, so a query relative to the clock (`$time.now(-3600)`)
    /// does not drop results as time passes without a write, nor does an item that expires.
    ///
    /// The work runs in a task of its own, cancelled when the stream is dropped or its consumer's
    /// task is cancelled; the stream then finishes without an error.
    ///
    /// - Parameters:
    ///   - index: The index to watch: an SQLite file, or any other ``IndexReader``.
    ///   - domain: Only this domain, when given.
    ///   - interval: How often to check the index for changes.
    /// - Returns: A stream that throws ``QueryParseError`` when the query is malformed and the
    ///   index's error when it cannot be read.
    public func liveResults(in index: any IndexReader, domain: String? = nil,
                            checkingEvery interval: Duration = .seconds(1)) -> AsyncThrowingStream<QueryResultChange, any Error> {
        let queryString = self.queryString
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    _ = try QueryExpression(parsing: queryString)
                    var marker: [Int64]?
                    var current: [ItemKey: IndexedItem] = [:]
                    while !Task.isCancelled {
                        // The marker first: a change committed while the query runs is seen next time.
                        let newMarker = try await index.changeMarker()
                        if newMarker != marker {
                            let isInitial = marker == nil
                            marker = newMarker
                            let items = try await index.query(queryString, domain: domain, limit: nil)
                            let change = Self.change(from: &current, to: items, isInitial: isInitial)
                            if isInitial || !change.added.isEmpty || !change.removed.isEmpty || !change.updated.isEmpty {
                                continuation.yield(change)
                            }
                        }
                        try await Task.sleep(for: interval)
                    }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// What identifies a result across runs: its domain and identifier. Two runs' items with the
    /// same key but different contents are an update.
    private struct ItemKey: Hashable {
        var domain: String
        var identifier: ItemIdentifier
        init(_ item: IndexedItem) {
            domain = item.item.domainIdentifier
            identifier = item.item.uniqueIdentifier
        }
    }

    /// The difference between the last results (`current`, replaced by `items`) and the new
    /// ones: added and updated items in the new results' order, removed ones by domain, then
    /// identifier.
    ///
    /// - Parameters:
    ///   - current: The last results by key; on return, the new ones.
    ///   - items: The new results, in query order.
    ///   - isInitial: Whether this is the first run (every result is then added).
    /// - Returns: The change to deliver; empty lists when nothing differs.
    private static func change(from current: inout [ItemKey: IndexedItem], to items: [IndexedItem],
                               isInitial: Bool) -> QueryResultChange {
        var added: [IndexedItem] = [], updated: [IndexedItem] = []
        var next: [ItemKey: IndexedItem] = [:]
        for item in items {
            let key = ItemKey(item)
            next[key] = item
            if let previous = current[key] {
                if previous != item { updated.append(item) }
            } else {
                added.append(item)
            }
        }
        let removed = current.filter { next[$0.key] == nil }.map(\.value).sorted {
            $0.item.domainIdentifier != $1.item.domainIdentifier
                ? $0.item.domainIdentifier < $1.item.domainIdentifier
                : $0.item.uniqueIdentifier < $1.item.uniqueIdentifier
        }
        current = next
        return QueryResultChange(isInitial: isInitial, added: added, removed: removed, updated: updated)
    }
}
