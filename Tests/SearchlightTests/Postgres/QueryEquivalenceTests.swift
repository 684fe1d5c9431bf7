import Foundation
@testable import Searchlight
import SearchlightTestSupport
import Testing

/// One query language, proven equal on both backends: thousands of generated queries
/// (``QueryGenerator``) over the same items (``QueryEquivalenceFixture``) give the same items on
/// SQLite, on PostgreSQL (its own compiler, `PostgresQueryCompiler`) and in the query's
/// evaluation in Swift (`QueryTextMatcher`, which `--explain` uses).
@Suite("One query language on both backends", .needsPostgres)
struct QueryEquivalenceTests {
    static let queryCount = 3_000

    @Test func generatedQueriesFindTheSameItemsEverywhere() async throws {
        let fixture = try await QueryEquivalenceFixture.shared.value
        var generator = QueryGenerator(seed: 20_261_206, items: fixture.items.keys.sorted().map { fixture.items[$0]! })
        var disagreements: [String] = []
        var parseErrors: [String] = []
        var nonEmpty = 0
        for _ in 0..<Self.queryCount {
            let query = generator.next()
            do {
                let answers = try await fixture.answers(query)
                if !answers.swift.isEmpty { nonEmpty += 1 }
                if answers.sqlite != answers.swift || answers.postgres != answers.swift {
                    disagreements.append("\(query)\n  Swift \(answers.swift)\n  SQLite \(answers.sqlite)\n  PostgreSQL \(answers.postgres)")
                }
            } catch let error as QueryParseError {
                parseErrors.append("\(query): \(error)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(Self.queryCount) disagree:\n\(disagreements.prefix(25).joined(separator: "\n"))")
        #expect(parseErrors.isEmpty, "\(parseErrors.prefix(10).joined(separator: "\n"))")
        // The queries cover what they should, and enough of them find something.
        #expect(generator.attributesUsed.count == QueryAttribute.allCases.count,
                "unused: \(Set(QueryAttribute.allCases).subtracting(generator.attributesUsed))")
        #expect(generator.operatorsUsed == ["==", "!=", "<", ">", "<=", ">="])
        #expect(generator.modifiersUsed.count == 16, "\(generator.modifiersUsed.sorted())")
        #expect(nonEmpty > Self.queryCount / 3, "only \(nonEmpty) queries found anything")
    }
}
