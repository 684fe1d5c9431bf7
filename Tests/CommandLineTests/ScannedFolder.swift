import Foundation
import SearchlightTestSupport
import Testing

/// A folder to scan and its index, for tests that run the built binary on documents.
struct ScannedFolder {
    /// The committed document fixtures of DocumentExtractionTests.
    static let fixtures = URL(filePath: #filePath).deletingLastPathComponent()
        .appending(path: "../DocumentExtractionTests/Fixtures").standardized
    let tree: TemporaryTree
    let work: TemporaryTree
    var index: String { work.path + "/index.sqlite" }

    init(_ label: String) {
        tree = TemporaryTree(label)
        work = TemporaryTree(label + "-index")
    }

    func run(_ arguments: [String]) throws -> CommandResult {
        try Searchlight.run(arguments, index: index)
    }

    /// `show ID --json`, parsed.
    func json(_ id: String) throws -> [String: Any] {
        let result = try run(["show", id, "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
    }
}
