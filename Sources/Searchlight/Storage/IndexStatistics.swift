import Foundation

/// What an index holds, per domain.
public struct IndexStatistics: Sendable {
    /// Counts and state of one domain.
    public struct Domain: Sendable {
        public var name: String
        public var itemCount: Int
        public var failureCount: Int
        public var thumbnailCount: Int
        /// When the domain's indexer last brought it up to date.
        public var lastUpdateDate: Date?
        /// What the domain's indexer stored about it.
        public var state: String?
    }

    /// The index file, or the database's URL without password.
    public var path: String
    /// The size of the database, in bytes.
    public var byteCount: Int64
    public var domains: [Domain]
}
