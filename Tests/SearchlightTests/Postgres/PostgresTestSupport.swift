import Foundation
import SearchlightPostgres
import SearchlightTestSupport
import Testing

/// A new, empty database of the test cluster for each test, opened as a ``PostgresIndex``.
enum PostgresTestDatabase {
    /// A URL (password included) of a database no other test uses.
    static func makeURL() async throws -> String {
        try await PostgresCluster.shared().makeDatabase()
    }

    /// An index in a database of its own.
    static func makeIndex() async throws -> (PostgresIndex, String) {
        let url = try await makeURL()
        return (try await PostgresIndex(url: url, operationTimeout: operationTimeout, environment: [:]), url)
    }

    /// Long enough for any statement of the tests on a loaded machine; short enough that a
    /// connection that never answers fails the test instead of stalling the suite.
    static let operationTimeout = Duration.seconds(60)
}
