import Foundation
import Testing
@testable import Searchlight

/// A query and the keys of the fixture items it must return.
struct QueryCase: Sendable, CustomTestStringConvertible {
    let query: String
    let expected: [String]
    init(_ query: String, _ expected: String) {
        self.query = query
        self.expected = expected == "*" ? QueryCase.all : expected.map(String.init).sorted()
    }
    init(_ query: String, allBut excluded: String) {
        self.query = query
        self.expected = QueryCase.all.filter { !excluded.contains($0) }
    }
    static let all = "ABCDEFGHIJKLMNOPQ".map(String.init)
    var testDescription: String { query }
}

@Suite("Query compiler")
struct QueryCompilerTests {
    static let cases: [QueryCase] = [
        // Exact strings, modifiers and the legacy form.
        QueryCase(#"displayName == "Résumé.pdf""#, "C"),
        QueryCase(#"displayName == "resume.pdf""#, ""),
        QueryCase(#"displayName == "resume.pdf"cd"#, "C"),
        QueryCase(#"displayName == "RÉSUMÉ.PDF"c"#, "C"),
        QueryCase(#"displayName == "Resume.pdf"d"#, "C"),
        QueryCase(#"displayName == "resume.pdf"c"#, ""),
        QueryCase(#"displayName ==[cd] "resume.pdf""#, "C"),
        QueryCase(#"kMDItemDisplayName ==[c] "CANONICAL.TXT""#, "I"),
        // Wildcards in every position; `_`, `%` and `[` are literal.
        QueryCase(#"displayName == "report*""#, "B"),
        QueryCase(#"displayName == "*report*"c"#, "AB"),
        QueryCase(#"displayName == "*.pdf""#, "AC"),
        QueryCase(#"displayName == "*Report*""#, "A"),
        QueryCase(#"displayName == "r*t*""#, "BP"),
        QueryCase(#"displayName == "*""#, "*"),
        QueryCase(#"displayName == "raw_1*""#, "P"),
        QueryCase(#"displayName == "*%*""#, "P"),
        QueryCase(#"displayName == "r_w*""#, ""),
        QueryCase(#"displayName == "*[d*""#, "P"),
        // Escaping and single quotes.
        QueryCase(#"displayName == "weird\*name*""#, "J"),
        QueryCase(#"displayName == 'weird*name?.txt'"#, "J"),
        QueryCase(#"displayName == 'weird*'"#, ""),
        QueryCase(#"displayName == "it's \"quoted\".txt""#, "K"),
        QueryCase(#"displayName == 'it\'s "quoted".txt'"#, "K"),
        // Word-based and tokenized matches.
        // `w` matches whole words (as Spotlight), `*` makes a prefix.
        QueryCase(#"displayName == "quart"cdw"#, ""),
        QueryCase(#"displayName == "quart*"cdw"#, "A"),
        QueryCase(#"displayName == "report"cdw"#, "AB"),
        QueryCase(#"displayName == "word"cdw"#, "G"),
        QueryCase(#"displayName == "parser"cdw"#, "M"),
        QueryCase(#"displayName == "Parser"w"#, "M"),
        QueryCase(#"displayName == "parser"w"#, ""),
        QueryCase(#"displayName == "quarterly rep"cdw"#, ""),
        QueryCase(#"displayName == "quarterly rep*"cdw"#, "A"),
        QueryCase(#"displayName == "test"cdw"#, "G"),
        QueryCase(#"displayName == "testword"cdw"#, ""),
        QueryCase(#"displayName == "report quarterly"cdw"#, ""),
        QueryCase(#"displayName == "report quarterly"cdt"#, "A"),
        QueryCase(#"displayName == "dra*t"cdw"#, "BP"),
        // A CJK word is found anywhere in a run (no ICU in the indexer to split it into words).
        QueryCase(#"displayName == "东京"cdw"#, "F"),
        QueryCase(#"displayName == "京旅"cdw"#, "F"),
        QueryCase(#"displayName == "东京*"cdw"#, "F"),
        QueryCase(#"title == "word"cdw"#, "G"),
        QueryCase(#"title == "various"cdt"#, "G"),
        QueryCase(#"textContent == "CANONICAL"cdw"#, "I"),
        QueryCase(#"textContent == "quarterly numb"cdw"#, ""),
        QueryCase(#"textContent == "quarterly numb*"cdw"#, "B"),
        QueryCase(#"textContent == "quarterly numbers"cdw"#, "B"),
        QueryCase(#"textContent == "numbers quarterly"cdw"#, ""),
        QueryCase(#"kMDItemTextContent == "canon gear"cdw"#, "B"),
        QueryCase(#"textContent == "东京"cdw"#, "F"),
        QueryCase(#"textContent == "京去"cdw"#, ""),
        // One word under `cdw` is a word of the text as the full-text index has it: a run of
        // word characters whole (`HTMLParser`) or a part name search splits off (`parser`).
        QueryCase(#"textContent == "htmlparser"cdw"#, "M"),
        QueryCase(#"textContent == "Parser"cdw"#, "M"),
        QueryCase(#"textContent == "html"cdw"#, "M"),
        QueryCase(#"textContent == "htmlpars"cdw"#, ""),
        QueryCase(#"textContent != "canonical"cdw"#, "BFMQ"),
        QueryCase(#"textContent != "htmlparser"cdw"#, "BFIQ"),
        // Any text attribute.
        QueryCase(#"* == "canon"cdw"#, "D"),
        QueryCase(#"* == "canon*"cdw"#, "DI"),
        QueryCase(#"* == "canon"cd"#, "D"),
        QueryCase(#"* != "canon"cd"#, allBut: "D"),
        // The examples of the specification.
        QueryCase(#"title == "report*"cd && contentModificationDate > $time.today(-7)"#, "B"),
        QueryCase(#"contentTypeTree == "image" && pixelWidth >= 1000"#, "D"),
        // Titles.
        QueryCase(#"title == "东京*""#, "F"),
        QueryCase(#"title == "curriculum*"c"#, "C"),
        QueryCase(#"title != "*""#, ""),
        QueryCase(#"title == """#, ""),
        QueryCase(#"title == "le cafe"cd"#, "H"),
        QueryCase(#"title == "le cafe"c"#, ""),
        QueryCase(#"kMDItemTitle == "canon*"c"#, "DI"),
        QueryCase(#"title == "testWORD*""#, "G"),
        QueryCase(#"InRange(displayName, "a", "d")"#, "IL"),
        // Content types and their tree.
        QueryCase(#"contentTypeTree == "image""#, "DE"),
        QueryCase(#"contentTypeTree == "public.text""#, "BFHIJKMN"),
        QueryCase(#"contentTypeTree == "public.content""#, "ABCDEFGHIJKMNO"),
        QueryCase(#"contentTypeTree == "public.item""#, "*"),
        QueryCase(#"contentTypeTree == "application/pdf""#, "AC"),
        QueryCase(#"kMDItemContentTypeTree == "public.archive""#, "L"),
        QueryCase(#"contentTypeTree == "imag*""#, "DE"),
        QueryCase(#"contentTypeTree != "image""#, allBut: "DE"),
        QueryCase(#"contentType == 'image/png'"#, "E"),
        QueryCase(#"contentType == "image/*""#, "DE"),
        QueryCase(#"contentType == "*/plain""#, "FIJKM"),
        QueryCase(#"contentType != "text/plain""#, "ABCDEGHLNO"),
        QueryCase(#"contentType < "b""#, "ACGLN"),
        QueryCase(#"kMDItemContentType == "video/mp4""#, "O"),
        // Descriptions, keywords, text.
        QueryCase(#"contentDescription == "*image data*""#, "DE"),
        QueryCase(#"contentDescription == "pdf*"c"#, "AC"),
        QueryCase(#"keywords == "canon""#, "D"),
        QueryCase(#"keywords == "café""#, "H"),
        QueryCase(#"keywords == "cafe"d"#, "H"),
        QueryCase(#"keywords == "CAFE"cd"#, "H"),
        QueryCase(#"keywords == "rep*""#, "AB"),
        QueryCase(#"keywords != "report""#, "CDEFHOQ"),
        QueryCase(#"kMDItemKeywords == "东京""#, "F"),
        QueryCase(#"keywords == "report"cdw && displayName == "*.md""#, "B"),
        QueryCase(#"textContent == "*numbers*""#, "B"),
        QueryCase(#"kMDItemTextContent == "*东京*""#, "F"),
        // Numbers.
        QueryCase("size > 1000000", "DO"),
        QueryCase("size >= 1000000", "DLO"),
        QueryCase("size == 42", "K"),
        QueryCase("size != 42", allBut: "KQ"),
        QueryCase("size < 100", "JK"),
        QueryCase("size <= 100", "JKP"),
        QueryCase("InRange(size, 1000, 5000)", "BHMN"),
        QueryCase("kMDItemFSSize > 2047.5", "ACDEGHLMNO"),
        QueryCase("size > -1 && size < 11", "J"),
        QueryCase("pixelHeight == 1080", "O"),
        QueryCase("kMDItemPixelWidth < 1000", "E"),
        QueryCase("InRange(pixelWidth, 800, 1920)", "EO"),
        // Dates, each form.
        QueryCase("contentModificationDate > $time.today", "BHM"),
        QueryCase("contentModificationDate == $time.today", "BHM"),
        QueryCase("contentModificationDate == $time.yesterday", "A"),
        QueryCase("contentModificationDate == $time.today(-1)", "A"),
        QueryCase("contentModificationDate >= $time.this_week", "ABEHM"),
        QueryCase("contentModificationDate == $time.this_week(-1)", "D"),
        QueryCase("contentModificationDate >= $time.this_month", "ABDEHMO"),
        QueryCase("contentModificationDate > $time.this_month", "ABDEHM"),
        QueryCase("contentModificationDate == $time.this_month(-1)", "C"),
        QueryCase("contentModificationDate == $time.this_year", "ABCDEHIMNO"),
        QueryCase("contentModificationDate == $time.this_year(-1)", "FK"),
        QueryCase("contentModificationDate < $time.this_year(-2)", "JP"),
        QueryCase("contentModificationDate > $time.now(-7200)", "H"),
        QueryCase("contentModificationDate >= $time.now(-7200)", "HM"),
        QueryCase("contentModificationDate < $time.now(+1) && contentModificationDate > $time.yesterday(+1)", "BHM"),
        QueryCase("contentModificationDate < $time.iso(2022-06-01T00:00:00Z)", "JP"),
        QueryCase("contentModificationDate > $time.iso(2025-06-18T12:30:00+02:00)", "HM"),
        QueryCase("kMDItemContentModificationDate == $time.iso(2025-06-17T10:00:00Z)", "A"),
        QueryCase("InRange(contentModificationDate, $time.today(-7), $time.yesterday)", "AE"),
        QueryCase("contentCreationDate == $time.this_month", "BD"),
        QueryCase("kMDItemContentCreationDate < $time.iso(2025-02-01)", "A"),
        QueryCase("contentModificationDate < 1700000000", "GJP"),
        // Paths (identifier bytes) and domains.
        QueryCase(#"path == "reports/*""#, "A"),
        QueryCase(#"path == "*.txt""#, "FIJKP"),
        QueryCase("path == 'notes/report-draft.md'", "B"),
        QueryCase(#"kMDItemPath == "旅行/*""#, "F"),
        QueryCase(#"path == "cv/resume*"cd"#, "C"),
        QueryCase(#"path == "reports"cdw"#, "A"),
        QueryCase(#"path == "src/*""#, "M"),
        QueryCase(#"domain == "photos""#, "DE"),
        QueryCase(#"domain != "photos""#, allBut: "DE"),
        QueryCase(#"domain == "PHO*"c"#, "DE"),
        // Precedence: ! before && before ||.
        QueryCase("size <= 10 || size >= 1000000 && pixelWidth > 0", "DJO"),
        QueryCase("(size <= 10 || size >= 1000000) && pixelWidth > 0", "DO"),
        QueryCase(#"!contentTypeTree == "image" && size > 1000000"#, "O"),
        QueryCase(#"!(contentTypeTree == "image" && size > 1000000)"#, allBut: "D"),
        QueryCase("!!(size == 42)", "K"),
        QueryCase(#"contentType == "text/plain" && !(displayName == "*.txt")"#, "M"),
        QueryCase(#"size == 42 || size == 10 && displayName == "x*" || size == 100"#, "KP"),
        // Both backends alike (QueryEquivalenceTests found these apart).
        // `d` alone leaves the rest decomposed, as in Swift: a Hangul syllable is its jamo,
        // which sort before Han.
        QueryCase(#"title < "東"d"#, "ABCDEFGHINOPQ"),
        QueryCase(#"title < "東""#, "ABCDEFGHINOP"),
        // A word of an unspaced script that starts with a wildcard gives the full-text index no term.
        QueryCase(#"authors == "*วัสดี"w"#, "Q"),
        QueryCase(#"* == "*วัสดี"dw"#, "Q"),
        // `t`: each word starts a word; `w`: whole words.
        QueryCase(#"title == "회의"t"#, "Q"),
        QueryCase(#"title == "회의"w"#, ""),
        // The words of a comment are searched with keywords, but are not keywords.
        QueryCase(#"keywords == "budget"cdw"#, ""),
        QueryCase(#"keywords != "budget"cdw"#, "ABCDEFHOQ"),
        // A value without words equals no element of a list.
        QueryCase(#"keywords != "-"w"#, "ABCDEFHOQ"),
        // The text's words in order, whatever the punctuation; wildcards inside the words.
        QueryCase(#"textContent == "alpha, beta, gamma"dwt"#, "Q"),
        QueryCase(#"textContent == "alp* gam*"t"#, "Q"),
        QueryCase(#"textContent == "*pha"cdt"#, "Q"),
        QueryCase(#"textContent == "beta alpha"w"#, ""),
        // Without `d`, a piece of the value is whole characters of the attribute: `ज` is not `ज़`.
        QueryCase(#"comment == "दस्तावेज"ct"#, ""),
        QueryCase(#"comment == "दस्तावेज़"ct"#, "Q"),
        QueryCase(#"comment == "दस्तावेज"cdt"#, "Q"),
    ]

    @Test("A query returns its expected items, and Swift evaluation agrees", arguments: cases)
    func expectedResults(_ queryCase: QueryCase) throws {
        let fixture = QueryFixture.shared
        let expression = try QueryExpression(parsing: queryCase.query)
        let keys = try fixture.keys(queryCase.query)
        #expect(keys == queryCase.expected)
        let count = try fixture.index.countQuery(expression, now: QueryFixture.now, calendar: QueryFixture.calendar)
        #expect(count == queryCase.expected.count)
        // Evaluated on the items with their text, which query results leave out.
        let all = try fixture.index.query(#"displayName == "*""#).map {
            try #require(try fixture.index.item($0.item.uniqueIdentifier, domain: $0.item.domainIdentifier))
        }
        let evaluated = all.filter { expression.matches($0, now: QueryFixture.now, calendar: QueryFixture.calendar) }
            .map(fixture.key(of:)).sorted()
        #expect(evaluated == queryCase.expected)
    }

    @Test func resultsComeMostRecentlyModifiedFirst() throws {
        let fixture = QueryFixture.shared
        let items = try fixture.index.query(QueryExpression(parsing: "size > 0"), now: QueryFixture.now,
                                            calendar: QueryFixture.calendar)
        #expect(items.map(fixture.key(of:)) == ["H", "M", "B", "A", "E", "D", "O", "C", "N", "I", "F", "K", "G", "J", "P", "L"])
        let limited = try fixture.index.query("size > 0", limit: 2)
        #expect(limited.map(fixture.key(of:)) == ["H", "M"])
        #expect(try fixture.index.query(#"displayName == "*""#, domain: "photos").map(fixture.key(of:)) == ["E", "D"])
        #expect(try fixture.index.countQuery("size > 0", domain: "photos") == 2)
    }

    @Test func indexedQueriesDoNotScanTheItemTable() throws {
        let index = QueryFixture.shared.index
        for query in ["contentType == 'image/png'", #"contentTypeTree == "image""#,
                      "contentModificationDate > $time.iso(2025-06-01T00:00:00Z)",
                      "InRange(contentModificationDate, $time.today(-7), $time.today)",
                      #"displayName == "report"cdw"#, #"title == "quart*"cdw && size > 10"#] {
            let expression = try QueryExpression(parsing: query)
            let statement = SearchableIndex.queryStatement(expression, select: SearchableIndex.itemColumns, domain: nil,
                                                           limit: 10, now: QueryFixture.now, calendar: QueryFixture.calendar)
            let plan = try index.queryPlan(statement)
            let scans = plan.filter { $0.hasPrefix("SCAN item") && !$0.hasPrefix("SCAN item_words") }
            #expect(scans.isEmpty, "\(query): \(plan)")
            #expect(plan.contains { $0.hasPrefix("SEARCH item ") }, "\(query): \(plan)")
        }
    }

    @Test func longQueriesRun() throws {
        let fixture = QueryFixture.shared
        // Deeper than SQLite's expression depth limit (1000) if compiled as one chain.
        let sizes = (0..<1000).map { _ in "size==10" }.joined(separator: "||")
        #expect(try fixture.keys(sizes) == ["J"])
        let many = (0..<600).map { "size == \($0 * 2)" }.joined(separator: " || ")
        #expect(try fixture.keys(many) == ["K", "J", "P", "F", "I"].sorted())
        let names = (0..<250).map { "!(displayName == \"x\($0)*\"cd)" }.joined(separator: " && ")
        #expect(try fixture.index.countQuery(names) == 17)
    }

    @Test func everyUserValueIsABoundParameter() throws {
        let explanation = try QueryFixture.shared.index.explainQuery(
            #"title == "x'; DROP TABLE item; --"cd || size > 123456 || contentType == 'zz/top'"#)
        let sql = explanation.split(separator: "\n")[0]
        #expect(!sql.contains("DROP"))
        #expect(!sql.contains("123456"))
        #expect(!sql.contains("zz/top"))
        #expect(explanation.contains("DROP TABLE"))
        #expect(explanation.contains("-- plan:"))
    }

    @Test func nameSearchAgreesWithItsEquivalentQuery() throws {
        let fixture = QueryFixture.shared
        for words in [["report"], ["quart"], ["canon"], ["东京"], ["rep", "draft"], ["cafe"], ["2024"], ["word"],
                      ["html"], ["parser"], ["résumé"], ["reports"], ["2025", "img"], ["menu", "le"]] {
            for (scope, attributes) in [(SearchScope.names, ["displayName", "title", "keywords", "path"]),
                                        (.all, ["displayName", "title", "authors", "keywords", "path", "textContent"])] {
                let searched = try fixture.index.search(words: words, scope: scope).map(fixture.key(of:)).sorted()
                let query = words.flatMap(NameTokenizer.words(in:)).map { word in
                    "(" + attributes.map { "\($0) == \"\(word)*\"cdw" }.joined(separator: " || ") + ")"
                }.joined(separator: " && ")
                let queried = try fixture.index.query(query).map(fixture.key(of:)).sorted()
                #expect(searched == queried, "\(words): \(query)")
                #expect(!searched.isEmpty, "\(words)")
            }
        }
    }

    @Test func explanationNamesTheMatchingAttributes() throws {
        let fixture = QueryFixture.shared
        let expression = try QueryExpression(parsing: #"* == "canon*"cdw || size == 1"#)
        let item = try #require(try fixture.index.item("canonical.txt", domain: "docs"))
        let matches = expression.explanation(for: item)
        #expect(matches.count == 1)
        #expect(matches.first?.attributes == [.displayName, .title])
        #expect(matches.first?.description == #"* == "canon*"cdw (displayName, title)"#)
        let text = try QueryExpression(parsing: #"textContent == "canonical"cdw"#)
        #expect(text.explanation(for: item).map(\.attributes) == [[.textContent]])
        let photo = try #require(try fixture.index.item("2025/IMG_0001.jpg", domain: "photos"))
        let both = try QueryExpression(parsing: #"contentTypeTree == "image" && pixelWidth >= 1000 && !(size < 1)"#)
        #expect(both.explanation(for: photo).map(\.attributes) == [[.contentTypeTree], [.pixelWidth]])
    }

    @Test func searchQueryDeliversBatches() async throws {
        let fixture = QueryFixture.shared
        var query = SearchQuery(queryString: "size > 0", attributes: ["displayName"])
        query.batchSize = 3
        var batches: [[IndexedItem]] = []
        for try await batch in query.results(in: fixture.index) { batches.append(batch) }
        #expect(batches.map(\.count) == [3, 3, 3, 3, 3, 1])
        #expect(batches.flatMap { $0 } == (try fixture.index.query("size > 0")))

        var empty = 0
        for try await _ in SearchQuery(queryString: "size < 0").results(in: fixture.index) { empty += 1 }
        #expect(empty == 0)

        await #expect(throws: QueryParseError.self) {
            for try await _ in SearchQuery(queryString: "size >").results(in: fixture.index) {}
        }
    }

    @Test func searchQueryHonoursCancellation() async throws {
        let index = QueryFixture.shared.index
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var batches = 0
            for try await _ in SearchQuery(queryString: "size > 0").results(in: index) { batches += 1 }
            return batches
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
