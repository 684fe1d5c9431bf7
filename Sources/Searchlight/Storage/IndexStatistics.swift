import Foundation

/// What an index holds, per domain.
public struct IndexStatistics: Sendable {
    /// Counts of one domain. What an indexer keeps about a domain beside its items is the
    /// indexer's own (the file indexer's `DomainState`).
    public struct Domain: Sendable {
        /// The domain's name (``SearchableItem/domainIdentifier``).
        public var name: String
        /// Its items.
        public var itemCount: Int
        /// Its items whose attributes could not all be derived (``SearchableItem/failure``).
        public var failureCount: Int
        /// Its items with a thumbnail.
        public var thumbnailCount: Int
        /// When the domain's indexer last brought it up to date (``IndexWriter/markUpdated(domain:date:)``).
        public var lastUpdateDate: Date?
    }

    /// The index file, or the database's URL without password.
    public var path: String
    /// The size of the database, in bytes.
    public var byteCount: Int64
    /// Every domain of the index, with its counts.
    public var domains: [Domain]
}
