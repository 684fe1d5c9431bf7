import GRDB
import GRDBSQLite

/// How the first page of the best rank is found, chosen by how many items have that rank.
///
/// Sorting the members costs a table lookup for each; walking the date index newest first
/// and checking row ids against the set of members costs reading every member from the
/// full-text index (cheap) and visiting about `limit / density` index entries; walking and
/// reading each visited item's name costs a table lookup per entry but reads no member
/// list. So few members are sorted, many are met by reading names, and the middle uses the
/// set. The sample is the first rows of the full-text match, in row-id order: how far into
/// the row ids it reached tells the density.
enum PageStrategy: Equatable {
    case sortMembers
    case walkCheckingMembers
    /// Gives up, for the member set, after visiting `budget` entries.
    case walkReadingNames(budget: Int)

    /// Full-text rows read to estimate how many items have the best rank.
    static let sampleSize = 1024

    /// Date-index entries walked reading names before the members of a one-letter prefix
    /// are read: about what merging the full-text lists of every word with that first letter
    /// costs (1.5–2.5 ms for 20 000 members of 100 000 items); a letter most recent names
    /// have fills a page long before (and a walk that met under a quarter of the page in the
    /// first quarter gives up then).
    static let walkFirst = 2048

    /// - Parameter checkCost: What checking one visited entry costs when walking, relative to
    ///   visiting it: 8 for a table lookup and a name check (name search); more for a lookup in
    ///   the content index.
    /// - Parameter sampleSize: How many rows make a full sample (for tests: ``sampleSize``).
    init(sample: [Int64], limit: Int, checkCost: Double = 8, sampleSize: Int = Self.sampleSize, in db: any ReadConnection) throws {
        guard sample.count >= sampleSize, let estimate = try Self.density(of: sample, in: db) else {
            self = .sortMembers
            return
        }
        let (density, span) = estimate
        let members = density * span
        // Measured costs, relative to visiting one date-index entry: a member read from the
        // full-text index ~0.6, a table lookup ~6, a table lookup and name check ~8.
        let visits = Double(limit) / density
        let sorting = 6 * members
        let checking = 0.6 * members + visits
        let reading = checkCost * visits
        if sorting <= min(checking, reading) {
            self = .sortMembers
        } else if checking <= reading {
            self = .walkCheckingMembers
        } else {
            self = .walkReadingNames(budget: Int(min(4 * visits, span)))
        }
    }

    /// The share of row ids a full match has, from its first rows (`sample`, in row-id
    /// order), and the span of the row ids; `nil` for an empty table.
    private static func density(of sample: [Int64], in db: any ReadConnection) throws -> (density: Double, span: Double)? {
        guard let last = sample.last,
              let bounds = try db.readStatement("SELECT (SELECT min(id) FROM item), (SELECT max(id) FROM item)").firstRow(read: { row in
                  sqlite3_column_type(row, 0) == SQLITE_NULL ? nil : (sqlite3_column_int64(row, 0), sqlite3_column_int64(row, 1))
              }), let (first, maximum) = bounds else { return nil }
        let span = Double(max(1, maximum - first + 1))
        return (min(1, Double(sample.count) / Double(max(1, last - first + 1))), span)
    }

    /// How many date-index entries to walk, reading names, for `limit` members of a match
    /// whose first rows are `sample` (a full sample: the match has more): twice the expected
    /// number, or `nil` when that is more than the index holds.
    static func walkBudget(sample: [Int64], limit: Int, in db: any ReadConnection) throws -> Int? {
        guard let estimate = try density(of: sample, in: db) else { return nil }
        let (density, span) = estimate
        let visits = Double(limit) / density
        return visits <= span ? Int(min(2 * visits, span)) : nil
    }
}
