import SearchlightTestSupport
import Testing
@testable import Searchlight

/// Each error says its own exit status and HTTP status: the command line and the server read
/// them instead of sorting error types.
@Suite("Exit and HTTP statuses of errors", .ownThread)
struct ReportableErrorTests {
    func statuses(_ error: any Error) -> (exit: Int32, http: Int)? {
        (error as? any ReportableError).map { ($0.exitStatus, $0.httpStatus) }
    }

    @Test("A malformed query or search is a usage error: exit 64, HTTP 400")
    func usageErrors() throws {
        let query = try #require(#expect(throws: QueryParseError.self) { try QueryExpression(parsing: "title == ") })
        #expect(statuses(query) ?? (0, 0) == (64, 400))
        #expect(statuses(SearchlightError(.invalidQuery, "unknown attribute")) ?? (0, 0) == (64, 400))
        let words = try #require(#expect(throws: SearchWordsError.self) { try SearchWords(parsing: "kind:nonsense") })
        #expect(statuses(words) ?? (0, 0) == (64, 400))
    }

    @Test("An index that is missing or cannot be reached now is 503; other failures are 500, exit 1")
    func indexErrors() throws {
        #expect(statuses(SearchlightError(.noIndex, "no index")) ?? (0, 0) == (1, 503))
        #expect(statuses(SearchlightError(.indexUnavailable, "the index is on a disconnected disk")) ?? (0, 0) == (1, 503))
        #expect(statuses(SearchlightError(.database, "cannot write", cause: .system(.noSpace))) ?? (0, 0) == (1, 503))
        #expect(statuses(SearchlightError(.cannotOpenIndex, "cannot open")) ?? (0, 0) == (1, 500))
    }

    @Test("A store's own error is a usage error, a timeout or an outage, or a plain failure")
    func storeErrors() {
        struct StoreError: IndexStoreError {
            var isUsageError = false
            var isTimeout = false
            var isUnavailable = false
            var description: String { "store" }
        }
        #expect(statuses(StoreError(isUsageError: true)) ?? (0, 0) == (64, 400))
        #expect(statuses(StoreError(isTimeout: true)) ?? (0, 0) == (1, 503))
        #expect(statuses(StoreError(isUnavailable: true)) ?? (0, 0) == (1, 503))
        #expect(statuses(StoreError()) ?? (0, 0) == (1, 500))
    }
}
