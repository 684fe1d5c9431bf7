import Testing

/// Where a test's index lives: the tests that run on both show that every command and the
/// server answer the same way on either (Docs/Contract.md#shared-index).
public enum IndexBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    /// SQLite, and PostgreSQL where its server can run (always in CI: see ``PostgresCluster``).
    public static var available: [IndexBackend] { PostgresCluster.isAvailable ? [.sqlite, .postgres] : [.sqlite] }

    public var testDescription: String { rawValue }

    /// An index of this backend for a test: a file in `folder`, or a new database of the test cluster.
    public func makeIndex(in folder: String, label: String) async throws -> String {
        switch self {
        case .sqlite: folder + "/index-\(label).sqlite"
        case .postgres: try await PostgresCluster.shared().makeDatabase(label)
        }
    }
}
