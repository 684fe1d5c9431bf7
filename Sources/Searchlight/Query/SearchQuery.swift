import Foundation
import GRDB

/// A query whose results arrive in batches, in the shape of CoreSpotlight's `CSSearchQuery`.
///
/// Iterate ``results(in:domain:)`` as CSSearchQuery's found-items handler would be called:
/// each element is a batch of items, most recently modified first. Cancelling the task that
/// iterates stops the query (the iteration throws `CancellationError`).
///
/// ```swift
/// let query = SearchQuery(queryString: #"contentTypeTree == "image" && pixelWidth >= 1000"#,
///                         attributes: ["displayName", "pixelWidth"])
/// for try await batch in query.results(in: index) {
///     for item in batch { print(item.item.uniqueIdentifier) }
/// }
/// ```
///
/// ## Overview
///
/// A `SearchQuery` is a value: it holds the query string and how large a batch is, and reads
/// nothing until it is iterated. It exists for callers that want CoreSpotlight's shape
/// (results that arrive while the caller works on the first ones, a query that a cancelled task
/// stops); ``SearchableIndex/query(_:domain:limit:)`` answers the same query in one array, and
/// ``liveResults(in:domain:checkingEvery:)`` follows its results as the index changes.
///
/// Iterating never blocks a thread of Swift's pool: the matching rows are found, and each batch
/// is read, in GRDB's async reads. The first `next()` finds every matching row identifier at
/// once (memory for eight bytes per match); each later one reads ``batchSize`` items. The
/// query is therefore a snapshot of which items matched when it started, while each batch
/// reads the items as they are then.
///
/// ## Topics
///
/// ### Creating a query
///
/// - ``init(queryString:attributes:)``
/// - ``batchSize``
///
/// ### Reading results
///
/// - ``results(in:domain:)``
/// - ``Results``
/// - ``liveResults(in:domain:checkingEvery:)``
public struct SearchQuery: Sendable {
    /// The query string, in the syntax of ``QueryParser``.
    public let queryString: String
    /// The attributes the caller needs, as CSSearchQuery's `fetchAttributes`. Results carry
    /// every stored attribute (thumbnail bytes excepted) whatever this holds.
    public let attributes: [String]
    /// The largest number of items per batch: 100 unless set. A value below 1 reads one
    /// item per batch. A batch can hold fewer when items were deleted since the query started.
    public var batchSize: Int = 100

    /// Creates a query; the string is parsed when the results are first asked for.
    ///
    /// - Parameters:
    ///   - queryString: A query in the language of ``QueryParser``. A malformed one is not
    ///     reported here: the first `next()` of ``results(in:domain:)`` throws
    ///     ``QueryParseError``.
    ///   - attributes: The attributes the caller means to read, kept for CoreSpotlight's
    ///     shape; every result carries all of them.
    public init(queryString: String, attributes: [String] = []) {
        self.queryString = queryString
        self.attributes = attributes
    }

    /// The matching items of `index` (of `domain`, when given), in batches.
    ///
    /// The set of matching items is taken once, when the first batch is asked for; items
    /// deleted afterwards are left out of later batches.
    /// Iterating throws ``QueryParseError`` when the query is malformed, ``SearchlightError``
    /// when the index cannot be read, `CancellationError` when the task is cancelled.
    ///
    /// ```swift
    /// var query = SearchQuery(queryString: #"kMDItemFSSize > 1000000"#)
    /// query.batchSize = 20
    /// var large = 0
    /// for try await batch in query.results(in: index, domain: "home") { large += batch.count }
    /// ```
    ///
    /// - Parameters:
    ///   - index: The SQLite index to read; the sequence holds it until iteration ends.
    ///   - domain: Only this domain, when given.
    /// - Returns: An `AsyncSequence` of batches, each non-empty, most recently modified first
    ///   across batches.
    public func results(in index: SearchableIndex, domain: String? = nil) -> Results {
        Results(query: self, index: index, domain: domain)
    }

    /// The batches of results of a ``SearchQuery``.
    ///
    /// Each iterator runs the query anew at its first `next()`: two loops over the same
    /// `Results` read the index twice, and may see different items.
    public struct Results: AsyncSequence, Sendable {
        /// A batch of matching items.
        public typealias Element = [IndexedItem]
        let query: SearchQuery
        let index: SearchableIndex
        /// Only this domain, when given.
        let domain: String?

        /// An iterator that reads the matching items a batch at a time.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(query: query, index: index, domain: domain)
        }

        /// Fetches one batch per call to `next()`.
        ///
        /// The first call parses the query and collects the identifiers of every matching row,
        /// most recently modified first; each call reads the next ``SearchQuery/batchSize``
        /// of them, skipping a batch whose items were all deleted meanwhile.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let query: SearchQuery
            /// The index it reads, one async read per batch.
            let index: SearchableIndex
            /// Only this domain, when given.
            let domain: String?
            /// The row ids of every match, in result order, collected by the first `next()`: each later
            /// batch is a snapshot of its own, so an item changed in between is read as it is then.
            private var rowIDs: [Int64]?
            /// How many of ``rowIDs`` the batches returned so far covered.
            private var offset = 0

            /// An iterator that has read nothing yet.
            init(query: SearchQuery, index: SearchableIndex, domain: String?) {
                self.query = query
                self.index = index
                self.domain = domain
            }

            /// The next batch of matching items, or `nil` after the last.
            ///
            /// - Throws: ``QueryParseError`` for a malformed query, ``SearchlightError`` when the index
            ///   cannot be read, `CancellationError` when the task is cancelled.
            public mutating func next() async throws -> [IndexedItem]? {
                try Task.checkCancellation()
                if rowIDs == nil {
                    let expression = try QueryExpression(parsing: query.queryString)
                    let (index, domain) = (self.index, self.domain)
                    let now = Date()
                    rowIDs = try await index.asyncRead { db in
                        try index.queryRowIDs(expression, domain: domain, now: now, calendar: .current, in: db)
                    }
                }
                while let rowIDs, offset < rowIDs.count {
                    try Task.checkCancellation()
                    let batch = Array(rowIDs[offset..<Swift.min(offset + Swift.max(1, query.batchSize), rowIDs.count)])
                    offset += batch.count
                    let items = try await index.asyncRead { db in try SearchableIndex.fetchItems(ids: batch, in: db) }
                    if !items.isEmpty { return items }
                }
                return nil
            }
        }
    }
}

extension SearchableIndex {
    /// Runs `body` in a read transaction off the cooperative thread pool, turning database
    /// errors into ``SearchlightError``.
    func asyncRead<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await database.read(body)
        } catch let error as SearchlightError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw SearchlightError(.database, "cannot read the index", path: path, cause: SearchlightError.cause(of: error))
        }
    }
}
