/// The item table as PostgreSQL's planner knows it, from `pg_class` (updated by `VACUUM` and
/// `ANALYZE`, readable by every reader): what chooses between ways of searching.
struct PlannedTable: Sendable {
    /// The rows (`reltuples`): -1 before the first `ANALYZE`.
    var items: Int
    /// Whether the TOAST table is under a tenth of the table's pages: the texts' vectors are in
    /// their rows, and testing a row costs what the planner thinks (500 000 short notes: no TOAST
    /// page; 2 000 documents: 2.4 times the table).
    var textsInline: Bool
}
