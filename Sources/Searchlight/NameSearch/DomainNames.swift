import GRDBSQLite

/// The name of each item's domain, read inside a search's read: every domain's name once,
/// then, when there are several, each item's domain by its row (one look-up of the `item`
/// table's primary key).
struct DomainNames {
    private let names: [Int64: String]
    private let db: any ReadConnection

    init(in db: any ReadConnection) throws {
        var names: [Int64: String] = [:]
        try db.readStatement("SELECT id, name FROM domain").forEachRow { row in
            names[sqlite3_column_int64(row, 0)] = SearchableIndex.string(row, 1)
            return true
        }
        self.names = names
        self.db = db
    }

    /// The name of the domain of the item whose row is `id`.
    func name(ofItem id: Int64) throws -> String {
        if names.count == 1, let only = names.first?.value { return only }
        let domain = try db.readStatement("SELECT domainId FROM item WHERE id = ?")
            .firstRow(.integer(id)) { sqlite3_column_int64($0, 0) }
        return domain.flatMap { names[$0] } ?? ""
    }
}
