import Foundation
@testable import Searchlight
@testable import SearchlightPostgres
import SearchlightTestSupport
import Testing

/// The snippets of search results on PostgreSQL, whose ranking reads no text: the start of the
/// texts the results need, then whole texts within the budget, as the SQLite index reads them.
@Suite("PostgreSQL snippets", .needsPostgres, .ownThread)
struct PostgresSnippetTests {
    /// A text document `id` holding `text`, modified `age` days before 2025-06-18.
    private func note(_ id: String, _ text: String, age: Double) -> SearchableItem {
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = id
        attributes.textContent = text
        attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_204_800 - age * 86_400)
        return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "docs", attributeSet: attributes,
                              identifierIsPath: true)
    }

    /// `count` bytes of words that are none of the searched ones.
    private func filler(_ count: Int) -> String {
        String(String(repeating: "lorem ipsum dolor sit amet ", count: count / 27 + 1).prefix(count))
    }

    /// The results' identifiers, places and snippets.
    private func described(_ results: [SearchResult]) -> [String] {
        results.map { "\($0.item.item.uniqueIdentifier.lossyString) \($0.matchedIn) \($0.snippet ?? "-")" }
    }

    @Test func snippetsAgreeWithTheSQLiteIndex() async throws {
        let megabyte = 1024 * 1024
        let shared = [
            note("short.txt", "The harbour at dawn, with gulls.", age: 1),
            // The match past the start PostgreSQL reads first (16 384 characters): its whole text is read.
            note("deep.txt", filler(40_000) + " the old harbour lights " + filler(2_000), age: 2),
            // Past the start too, and with Greek before it: characters, not bytes, are counted.
            note("greek.txt", String(repeating: "καλημέρα ", count: 3_000) + " harbour " + filler(100), age: 3),
            // Named after the word: no text is read for it.
            note("harbour.txt", filler(30_000), age: 7),
        ]
        let sqlite = try SearchableIndex(path: TestScratch.path("snippets"))
        try sqlite.indexItems(shared)
        let (postgres, _) = try await PostgresTestDatabase.makeIndex()
        try await postgres.indexItems(shared)
        // The text tier's order is each backend's relevance: the snippets are compared by item.
        for words in [["harbour"], ["harb"], ["old", "harbour"], ["gulls", "dawn"]] {
            let lite = try sqlite.searchResults(words: words)
            let found = try await postgres.searchResults(words: words, domain: nil, limit: nil, scope: .all)
            #expect(described(found).sorted() == described(lite).sorted(), "\(words)")
            #expect(found.allSatisfy { $0.item.item.attributeSet.textContent == nil })
        }

        // Texts of a megabyte each, their match past the start, read whole best first: the
        // budget (2 MiB) is spent by the first two; the texts after them have no snippet, and
        // still matched in their content.
        try await postgres.indexItems([
            note("big-1.txt", filler(20_000) + " harbour one " + filler(megabyte), age: 4),
            note("big-2.txt", filler(20_000) + " harbour two " + filler(megabyte), age: 5),
            note("big-3.txt", filler(20_000) + " harbour three " + filler(megabyte), age: 6),
        ])
        // The text tier by relevance in the start of each text (5 000 words): `deep.txt`'s word,
        // past it (7 400 words in), ranks last; the others by date.
        let found = try await postgres.searchResults(words: ["harbour"], domain: nil, limit: nil, scope: .all)
        #expect(found.map(\.item.item.uniqueIdentifier.lossyString)
                    == ["harbour.txt", "short.txt", "greek.txt", "big-1.txt", "big-2.txt", "big-3.txt", "deep.txt"])
        #expect(found[0].matchedIn == .name && found[0].snippet == nil)
        #expect(found[1].snippet == "The [harbour] at dawn, with gulls.")
        #expect(found[2].snippet?.contains("καλημέρα [harbour] lorem") == true)
        #expect(found[3].snippet?.contains("[harbour] one lorem") == true)
        #expect(found[4].snippet?.contains("[harbour] two lorem") == true)
        // Past the budget, after two texts of a megabyte: no snippet, still a match in the content.
        #expect(found[5...].allSatisfy { $0.matchedIn == .content && $0.snippet == nil })
    }
}

/// The text tier's relevance and phrases read the start of each text (v13 `text_start_words`),
/// as SQLite's (``TextRelevance``): words far into a long text neither make a phrase nor raise
/// its relevance, on both backends alike.
@Suite("PostgreSQL relevance of the start of texts", .needsPostgres, .ownThread)
struct PostgresTextStartTests {
    /// A text document `id` holding `text`, modified `age` days before 2025-06-18.
    private func note(_ id: String, _ text: String, age: Double) -> SearchableItem {
        var attributes = AttributeSet(contentType: "text/plain")
        attributes.displayName = "note \(id.prefix(1))"
        attributes.textContent = text
        attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_204_800 - age * 86_400)
        return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "docs", attributeSet: attributes,
                              identifierIsPath: true)
    }

    @Test func relevanceAndPhrasesReadTheStartOfTexts() async throws {
        // 6 000 words (36 KB): past PostgreSQL's start (5 000 words) and SQLite's (32 KB at most).
        let far = String(repeating: "lorem ", count: 6_000)
        let items = [
            // The phrase at the start: ranks as a title.
            note("a.txt", "harbour lights at dawn", age: 30),
            // The phrase far into the text, the newest: neither a phrase nor relevant.
            note("b.txt", "gulls " + far + "harbour lights " + far, age: 1),
            // Both words in the start, apart: relevant, not a phrase.
            note("c.txt", "lights over the old harbour", age: 20),
            // Both words in the start, apart, then the phrase far: as c, older.
            note("d.txt", "lights over the grey old harbour " + far + "harbour lights", age: 25),
        ]
        let sqlite = try SearchableIndex(path: TestScratch.path("text-start"))
        try sqlite.indexItems(items)
        let (postgres, url) = try await PostgresTestDatabase.makeIndex()
        defer { postgres.close() }
        try await postgres.indexItems(items)
        let expected = ["a.txt", "c.txt", "d.txt", "b.txt"]
        for words in [["harbour", "lights"], ["lights", "harbour"]] {
            let lite = try sqlite.search(words: words).map { $0.item.uniqueIdentifier.lossyString }
            #expect(Array(lite.prefix(1)) == ["a.txt"] || words != ["harbour", "lights"], "SQLite \(words): \(lite)")
            let found = try await postgres.search(words: words).map { $0.item.uniqueIdentifier.lossyString }
            #expect(found == lite, "\(words): PostgreSQL \(found), SQLite \(lite)")
            if words == ["harbour", "lights"] { #expect(found == expected) }
        }
        // The start is stored for the long texts alone, cut at 5 000 words (b's phrase is past
        // it, d's first words are in it); a short text's start is its vector.
        let database = String(url.split(separator: "/").last!.split(separator: "?").first!)
        let starts = try await PostgresCluster.shared().psql("""
            SELECT identifier, text_start_words IS NULL, (SELECT max(p) FROM unnest(text_start_words) AS w, unnest(w.positions) AS p) <= \(PostgreSQLTextStart.words),
                   text_start_words @@ 'lorem & harbour & lights'::tsquery,
                   (SELECT max(p) FROM unnest(text_words) AS w, unnest(w.positions) AS p) > \(PostgreSQLTextStart.words)
            FROM item ORDER BY identifier
            """, database: database)
        #expect(starts.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).dropFirst().joined(separator: "|") }
                == ["t|||f", "f|t|f|t", "t|||f", "f|t|t|t"], "\(starts)")
    }
}
