import Foundation
import GRDB

/// What every result must be besides a match: in the domain asked for, if any, and not expired.
struct ItemFilter {
    let domainID: Int64?
    let now = Date().timeIntervalSince1970

    /// The filter for `domain`, or `nil` when no such domain exists (nothing can match).
    init?(domain: String?, in db: any ReadConnection) throws {
        guard let domain else {
            domainID = nil
            return
        }
        guard let id = try SearchableIndex.domainID(named: domain, in: db) else {
            return nil
        }
        domainID = id
    }

    func admits(domainID: Int64, expiration: Double?) -> Bool {
        if let wanted = self.domainID, wanted != domainID { return false }
        if let expiration, expiration <= now { return false }
        return true
    }
}
