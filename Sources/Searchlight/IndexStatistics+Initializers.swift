import Foundation

extension IndexStatistics {
    /// Statistics as an index reports them; for indexes outside this module (PostgreSQL),
    /// which cannot see the memberwise initializer.
    public init(_ path: String, byteCount: Int64, domains: [Domain]) {
        self.path = path
        self.byteCount = byteCount
        self.domains = domains
    }
}

extension IndexStatistics.Domain {
    /// A domain's statistics; for indexes outside this module.
    public init(_ name: String, itemCount: Int, failureCount: Int, thumbnailCount: Int, lastUpdateDate: Date?) {
        self.name = name
        self.itemCount = itemCount
        self.failureCount = failureCount
        self.thumbnailCount = thumbnailCount
        self.lastUpdateDate = lastUpdateDate
    }
}
