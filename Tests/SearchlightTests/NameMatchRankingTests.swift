import SearchlightTestSupport
import Testing
@testable import Searchlight

/// `ranked(limit:)` orders matches as `sorted()` does, through groups of one rank and its own
/// stable merge (``Array/stablySorted(_:by:)``): checked against the standard library on
/// random matches full of ties, at every size a merge handles differently.
@Suite struct NameMatchRankingTests {
    @Test func rankedIsSortedAndCutAtTheLimit() {
        var generator = SeededGenerator(seed: 41)
        for size in [0, 1, 2, 3, 7, 8, 9, 31, 64, 65, 200, 1_000] {
            let matches = (0..<size).map { id in
                NameMatch(id: Int64(id), identifier: ItemIdentifier("file \(generator.next() % 6)"),
                          modificationDate: Double(generator.next() % 5), prefixOnlyCount: Int(generator.next() % 2),
                          fieldRank: Int(generator.next() % 3))
            }
            let expected = matches.sorted()
            #expect(matches.ranked().map(\.id) == expected.map(\.id), "\(size)")
            for limit in [0, 1, size / 3, size, size + 5] {
                #expect(matches.ranked(limit: limit).map(\.id) == expected.prefix(limit).map(\.id), "\(size), limit \(limit)")
            }
        }
    }

    @Test func theMergeIsStable() {
        var generator = SeededGenerator(seed: 42)
        for size in [0, 1, 5, 16, 17, 100, 777] {
            let keys = (0..<size).map { _ in Int(generator.next() % 4) }
            let places = Array(0..<size).shuffled(using: &generator)
            let merged = [NameMatch].stablySorted(places) { keys[$0] < keys[$1] }
            // Equal keys keep the order they came in: the standard library's sort is stable too.
            #expect(merged == places.sorted { keys[$0] < keys[$1] }, "\(size)")
        }
    }
}
