import Foundation

extension IndexStatistics {
    /// Statistics as an index reports them; for indexes outside this module (PostgreSQL),
    /// which cannot see the memberwise initializer.
    ///
    /// - Parameters:
    ///   - path: The index's location as shown: a file's path, or a URL without password.
    ///   - byteCount: What the index takes on disk.
    ///   - domains: Each domain's figures, in the order the index lists them.
    public init(_ path: String, byteCount: Int64, domains: [Domain]) {
        self.path = path
        self.byteCount = byteCount
        self.domains = domains
    }
}

extension IndexStatistics.Domain {
    /// A domain's statistics; for indexes outside this module.
    ///
    /// - Parameters:
    ///   - name: The domain.
    ///   - itemCount: Its items, failures included.
    ///   - failureCount: Its items whose extraction failed.
    ///   - thumbnailCount: Its items with a thumbnail.
    ///   - lastUpdateDate: When it was last brought up to date, if ever recorded.
    public init(_ name: String, itemCount: Int, failureCount: Int, thumbnailCount: Int, lastUpdateDate: Date?) {
        self.name = name
        self.itemCount = itemCount
        self.failureCount = failureCount
        self.thumbnailCount = thumbnailCount
        self.lastUpdateDate = lastUpdateDate
    }
}
