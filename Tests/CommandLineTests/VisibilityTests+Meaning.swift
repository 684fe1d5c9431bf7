import Foundation
import SearchlightTestSupport
import Testing

/// Search by meaning on a shared index: a person's question is compared only with the vectors
/// of items they may read (the row-level policies of `item_meaning` and `meaning_vector`
/// follow `item`'s), so nothing they may not open answers it, nor counts in SQL.
extension VisibilityTests {
    @Test func aQuestionIsAnsweredOnlyFromWhatThePersonMayRead() async throws {
        try Self.makeUsers()
        try makeTree()
        let (writer, url) = try await makeDatabase()
        let scan = try Searchlight.run(["scan", tree.path, "--domain", "shared", "--no-thumbnails"] + Searchlight.busyMachine,
                                       index: writer, environment: ["SEARCHLIGHT_MODEL_DIR": MeaningCommandTests.modelFolder])
        try #require(scan.status == 0, "\(scan.stderr)")
        #expect(scan.output.contains("meaning: "), "\(scan.output)")

        // In SQL: each role reads the vectors of what it may read, and no others.
        func rows(_ table: String, as role: String) throws -> String { try psql("SELECT count(*) FROM \(table)", as: url(role)).output }
        let everything = try rows("item_meaning", as: "sladmin")
        #expect(Int(everything) ?? 0 >= 5, "\(everything)")
        #expect(try rows("item_meaning", as: Self.bob) == "2")
        #expect(try rows("meaning_vector", as: Self.bob) == "2")

        // Asked by meaning alone, bob's answers are his two notes at most, alice's may be hers.
        func answers(_ question: [String], as role: String) throws -> Set<String> {
            let result = try Searchlight.run(["search", "--meaning"] + question, index: url(role),
                                             environment: ["SEARCHLIGHT_MODEL_DIR": MeaningCommandTests.modelFolder])
            #expect(result.status == 0, "\(result.stderr)")
            return Set(result.paths(under: tree.path))
        }
        let question = ["private", "thoughts", "of", "a", "zephyr"]
        let bob = try answers(question, as: Self.bob)
        #expect(!bob.isEmpty && bob.isSubset(of: ["public/readme.txt", "public/acl-note.txt"]), "\(bob)")
        #expect(try answers(question, as: Self.alice).contains("alice/diary.txt"))
    }
}
