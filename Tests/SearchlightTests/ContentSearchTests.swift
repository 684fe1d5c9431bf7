import Foundation
import GRDB
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// An item with the given fields, modified `age` days before 2025-06-18.
private func item(_ id: String, title: String? = nil, authors: [String] = [], keywords: [String] = [],
                  text: String? = nil, age: Double = 0, domain: String = "docs") -> SearchableItem {
    var attributes = AttributeSet(contentType: "text/plain")
    attributes.displayName = String(id.split(separator: "/").last!)
    attributes.title = title
    attributes.authors = authors
    attributes.keywords = keywords
    attributes.textContent = text
    attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_204_800 - age * 86_400)
    return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: domain, attributeSet: attributes,
                          identifierIsPath: true)
}

private func temporaryIndex() throws -> SearchableIndex {
    try SearchableIndex(path: TestScratch.path("content"))
}

@Suite("Content search", .ownThread)
struct ContentSearchTests {
    /// Whole words before prefixes; then name, title, authors and keywords, folders, text;
    /// then newest first.
    @Test func ranksByWholeWordsThenFieldThenDate() throws {
        let index = try temporaryIndex()
        try index.indexItems([
            item("a/text-old.txt", text: "We went to Paris in May.", age: 9),
            item("a/text-new.txt", text: "Paris, again.", age: 1),
            item("paris/folder.txt", age: 0),
            item("a/keywords.txt", keywords: ["paris"], age: 3),
            item("a/authors.txt", authors: ["Anne Paris"], age: 2),
            item("a/title.txt", title: "Paris guide", age: 8),
            item("a/paris-france.jpg", age: 7),
            item("a/Parisian.txt", age: 0),
            item("a/prefix-text.txt", text: "Parisians are", age: 0),
            item("a/other.txt", text: "London", age: 0),
        ])
        let results = try index.searchResults(words: ["paris"])
        #expect(results.map(\.item.item.uniqueIdentifier.lossyString) == [
            "a/paris-france.jpg", "a/title.txt", "a/authors.txt", "a/keywords.txt", "paris/folder.txt",
            "a/text-new.txt", "a/text-old.txt", "a/Parisian.txt", "a/prefix-text.txt",
        ])
        #expect(results.map(\.matchedIn) == [.name, .title, .authors, .keywords, .folders, .content, .content, .name, .content])
        #expect(results[5].snippet == "[Paris], again.")
        #expect(results[6].snippet == "We went to [Paris] in May.")
        #expect(results.filter { $0.matchedIn != .content }.allSatisfy { $0.snippet == nil })
        // Names only: no authors, no text.
        #expect(try index.search(words: ["paris"], scope: .names).map(\.item.uniqueIdentifier.lossyString) == [
            "a/paris-france.jpg", "a/title.txt", "a/keywords.txt", "paris/folder.txt", "a/Parisian.txt",
        ])
        #expect(try index.countMatches(words: ["paris"]) == 9)
        #expect(try index.countMatches(words: ["paris"], scope: .names) == 5)
        #expect(try index.countMatches(words: ["paris"], domain: "none") == 0)
        // Every first page is the start of the whole ranking.
        for limit in 0...10 {
            let page = try index.search(words: ["paris"], limit: limit).map(\.item.uniqueIdentifier.lossyString)
            let all = try index.search(words: ["paris"]).map(\.item.uniqueIdentifier.lossyString)
            #expect(page == Array(all.prefix(limit)), "\(limit)")
        }
    }

    /// A word found whole only in the text outranks a prefix in the name; several words may
    /// match in different fields.
    @Test func wordsMatchAcrossFields() throws {
        let index = try temporaryIndex()
        try index.indexItems([
            item("report.txt", text: "the rep said", age: 5),
            item("reporting.txt", age: 0),
            item("budget 2019.txt", text: "quarterly numbers", age: 1),
            item("budget.txt", text: "numbers for 2019", age: 2),
            item("numbers.txt", text: "budget", age: 3),
        ])
        #expect(try index.search(words: ["rep"]).map(\.item.uniqueIdentifier.lossyString) == ["report.txt", "reporting.txt"])
        let mixed = try index.searchResults(words: ["budget", "numbers"])
        #expect(mixed.map(\.item.item.uniqueIdentifier.lossyString) == ["budget 2019.txt", "budget.txt", "numbers.txt"])
        #expect(mixed.map(\.matchedIn) == [.content, .content, .content])
        #expect(mixed[0].snippet == "quarterly [numbers]")
        #expect(try index.search(words: ["budget", "2019"]).map(\.item.uniqueIdentifier.lossyString)
            == ["budget 2019.txt", "budget.txt"])
        #expect(try index.countMatches(words: ["budget", "numbers"]) == 3)
        for limit in 0...4 {
            #expect(try index.searchIdentifiers(words: ["budget", "numbers"], limit: limit)
                == Array(index.searchIdentifiers(words: ["budget", "numbers"]).prefix(limit)))
        }
    }

    /// With more text matches than a sample holds, the first page comes from walking the date
    /// index; it must still be the start of the whole ranking.
    @Test func firstPagesOfManyTextMatchesAreTheStartOfTheRanking() throws {
        let index = try temporaryIndex()
        var items: [SearchableItem] = []
        for number in 0..<3000 {
            let text = "common words " + (number % 3 == 0 ? "third " : "") + (number % 500 == 0 ? "rare" : "")
            items.append(item("t/\(number).txt", text: text, age: Double((number * 7919) % 3000) / 10))
        }
        items.append(item("common.txt", age: 400))
        items.append(item("n/third party.txt", text: "common", age: 500))
        items.append(item("n/thirds.txt", text: "common third", age: 0.05))
        try index.indexItems(items)
        for words in [["common"], ["third"], ["rare"], ["common", "third"], ["thi"], ["words", "rare"]] {
            let all = try index.search(words: words).map(\.item.uniqueIdentifier.lossyString)
            for limit in [1, 10, 100] {
                #expect(try index.search(words: words, limit: limit).map(\.item.uniqueIdentifier.lossyString)
                    == Array(all.prefix(limit)), "\(words) \(limit)")
            }
            #expect(try index.countMatches(words: words) == all.count, "\(words)")
        }
        // The name match first, then the newest text matches (t/0.txt is the newest item).
        #expect(try index.search(words: ["common"], limit: 2).map(\.item.uniqueIdentifier.lossyString)
            == ["common.txt", "t/0.txt"])
    }

    /// Prefixes of one, two and three letters (read from the prefix indexes), alone and after
    /// another word, in names, titles, authors, folders and texts: the first pages are the
    /// start of the full ranking, and the count is its length (issue 47).
    @Test func shortPrefixesCountAndPageAsTheFullRanking() throws {
        let index = try temporaryIndex()
        let vocabulary = ["apple", "april", "arch", "aster", "banana", "band", "delta", "d", "70", "dog", "nikon",
                          "note", "7", "42", "5", "lib", "library", "libre", "liberty", "Ωmega", "ωra", "über", "uber"]
        var generator = SeededGenerator(seed: 47)
        var items: [SearchableItem] = []
        for number in 0..<400 {
            func words(_ count: Int) -> [String] { (0..<count).map { _ in vocabulary[Int(generator.next() % UInt64(vocabulary.count))] } }
            let folder = number % 5 == 0 ? words(1)[0] + "/" : ""
            items.append(item(folder + words(2).joined(separator: "_") + "-\(number).txt",
                              title: number % 3 == 0 ? words(2).joined(separator: " ") : nil,
                              authors: number % 7 == 0 ? [words(1)[0] + " Smith"] : [],
                              text: number % 4 == 0 ? nil : words(12).joined(separator: " "),
                              age: Double(generator.next() % 1000) / 10))
        }
        try index.indexItems(items)
        let queries: [[String]] = [["a"], ["d"], ["l"], ["li"], ["lib"], ["libr"], ["ω"], ["ü"], ["u"], ["7"], ["5"],
                                   ["nikon", "d"], ["nikon", "d70"], ["d70"], ["note", "7"], ["note_7_42_5"], ["ap", "ba"],
                                   ["a", "b"], ["smith"], ["s"], ["zz"]]
        for words in queries {
            let all = try index.search(words: words).map(\.item.uniqueIdentifier.lossyString)
            #expect(try index.countMatches(words: words) == all.count, "\(words)")
            #expect(try index.countMatches(words: words, domain: "docs") == all.count, "\(words)")
            for limit in [1, 20, 100] {
                #expect(try index.search(words: words, limit: limit).map(\.item.uniqueIdentifier.lossyString)
                    == Array(all.prefix(limit)), "\(words) \(limit)")
            }
        }
        #expect(try index.search(words: ["a"]).count > 100)
        #expect(try index.countMatches(words: ["zz"]) == 0)
    }

    /// An index of version 9 gains the prefix indexes of one letter without losing an item.
    @Test func upgradesAVersion9IndexWithShortPrefixes() throws {
        let path = TestScratch.path("v9")
        try writeOlderIndex(at: path, upTo: "v9-one-word-fold", "")
        do {
            // Items written as version 9 wrote them: through the same triggers.
            let queue = try DatabaseQueue(path: path, configuration: {
                var configuration = Configuration()
                configuration.prepareDatabase { SearchableIndex.registerFunctions(in: $0) }
                return configuration
            }())
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO domain(id, name) VALUES (1, 'docs');
                    INSERT INTO content_kind(id, contentType, digest) VALUES (1, 'text/plain', 0);
                    INSERT INTO item(id, domainId, identifier, storedName, kindId, modificationDate)
                        VALUES (1, 1, CAST('Nikon_D70.jpg' AS BLOB), 'Nikon_D70.jpg', 1, 1000),
                               (2, 1, CAST('notes.txt' AS BLOB), 'notes.txt', 1, 2000);
                    INSERT INTO item_text(itemId, text) VALUES (2, searchlight_compress('the lighthouse keeper'));
                    """)
            }
            try queue.close()
        }
        let index = try SearchableIndex(path: path)
        #expect(try index.search(words: ["l"]).map(\.item.uniqueIdentifier.lossyString) == ["notes.txt"])
        #expect(try index.search(words: ["d"]).map(\.item.uniqueIdentifier.lossyString) == ["Nikon_D70.jpg"])
        #expect(try index.countMatches(words: ["n"]) == 2)
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name IN ('item_words', 'item_content')")
        }
        #expect(tables.count == 2)
        #expect(tables.allSatisfy { $0.contains("prefix='1 2 3'") }, "\(tables)")
    }

    @Test func findsWordsInsideCJKRuns() throws {
        let index = try temporaryIndex()
        try index.indexItems([
            item("tokyo.txt", text: "東京\u{200B}都庁\u{200B}の\u{200B}写真\u{200B}を\u{200B}見た"),
            item("kyoto.txt", text: "京都 の 写真"),
            item("osaka.txt", text: "大阪城"),
        ])
        #expect(try index.search(words: ["東京都"]).map(\.item.uniqueIdentifier.lossyString) == ["tokyo.txt"])
        #expect(try index.search(words: ["都庁"]).map(\.item.uniqueIdentifier.lossyString) == ["tokyo.txt"])
        #expect(try Set(index.search(words: ["写真"]).map(\.item.uniqueIdentifier.lossyString)) == ["tokyo.txt", "kyoto.txt"])
        #expect(try index.search(words: ["京都庁"]).map(\.item.uniqueIdentifier.lossyString) == ["tokyo.txt"])
        #expect(try index.search(words: ["大阪府"]).isEmpty)
        #expect(try index.countMatches(words: ["写真"]) == 2)
        #expect(try index.query(#"textContent == "東京都"cdw"#).map(\.item.uniqueIdentifier.lossyString) == ["tokyo.txt"])
    }

    /// An item whose text holds the words as a phrase ranks as a title match; among items that
    /// match only in their text, the one where they stand closest comes first, then the one
    /// that says them most; the newest first only among equals. The same with a limit (the
    /// first page) and without.
    @Test func textMatchesAreOrderedByRelevanceThenDate() throws {
        let index = try temporaryIndex()
        let filler = String(repeating: "lorem ipsum dolor sit amet ", count: 40)
        try index.indexItems([
            item("phrase.txt", text: filler + "the net present value of future cash flows " + filler, age: 30),
            item("close.txt", text: filler + "future value of present cash flows and net income " + filler, age: 2),
            item("scattered.txt", text: "net " + filler + "present of " + filler + "value future " + filler + "cash flows", age: 1),
            item("name present value.txt", text: "future cash flows net of"),
            // One word among its keywords outranks text alone, but not a phrase of the text.
            item("keyword.txt", keywords: ["cash"], text: "net present value, then of future", age: 0),
        ])
        let query = ["net", "present", "value", "of", "future", "cash"]
        let expected = ["phrase.txt", "name present value.txt", "keyword.txt", "close.txt", "scattered.txt"]
        let all = try index.search(words: query).map(\.item.uniqueIdentifier.lossyString)
        #expect(all == expected)
        for limit in 1...5 {
            #expect(try index.search(words: query, limit: limit).map(\.item.uniqueIdentifier.lossyString) == Array(expected.prefix(limit)))
        }
        // One word: the text that says it most, for its length, first.
        try index.indexItems([item("often.txt", text: "budget budget budget plan", age: 50),
                              item("once.txt", text: filler + " budget", age: 0)])
        #expect(try index.search(words: ["budget"], limit: 2).map(\.item.uniqueIdentifier.lossyString) == ["often.txt", "once.txt"])
    }

    /// Updates and deletions keep the content index in step (its rows are deleted with the
    /// text they were made from).
    @Test func contentIndexFollowsUpdatesAndDeletions() throws {
        let index = try temporaryIndex()
        try index.indexItems([item("a.txt", authors: ["Zoë Müller"], text: "alpha beta"), item("b.txt", text: "alpha")])
        try index.indexItems([item("a.txt", text: "gamma")])
        #expect(try index.search(words: ["beta"]).isEmpty)
        #expect(try index.search(words: ["muller"]).isEmpty)
        #expect(try index.search(words: ["gamma"]).count == 1)
        try index.deleteItems(withIdentifiers: ["b.txt"], domain: "docs")
        #expect(try index.search(words: ["alpha"]).isEmpty)
        try index.indexItems([item("c.txt", text: "delta", domain: "other")])
        try index.deleteAllItems(inDomains: ["other"])
        #expect(try index.search(words: ["delta"]).isEmpty)
        var batch = IndexBatch()
        batch.move("a.txt", to: "d.txt", domain: "docs")
        try index.apply(batch)
        #expect(try index.search(words: ["gamma"]).map(\.item.uniqueIdentifier.lossyString) == ["d.txt"])
        try index.deleteAllItems()
        #expect(try index.search(words: ["gamma"]).isEmpty)
        // FTS5's own check that the index holds exactly what its rows were made from fails
        // with SQLITE_CORRUPT_VTAB otherwise; contentless tables check their structure.
        try index.checkFullTextIntegrity()
    }

    @Test func storesEveryContentAttribute() throws {
        let index = try temporaryIndex()
        var photo = item("IMG_1.jpg", authors: ["Ann", "Bob"], text: String(repeating: "é", count: 600_000))
        photo.attributeSet.pageCount = 12
        photo.attributeSet.acquisitionMake = "Canon"
        photo.attributeSet.acquisitionModel = "EOS 5D"
        photo.attributeSet.latitude = 48.8584
        photo.attributeSet.longitude = -2.2945
        try index.indexItems([photo])
        let stored = try #require(try index.item("IMG_1.jpg", domain: "docs")).item.attributeSet
        #expect(stored.authors == ["Ann", "Bob"])
        #expect(stored.pageCount == 12)
        #expect(stored.acquisitionMake == "Canon")
        #expect(stored.acquisitionModel == "EOS 5D")
        #expect(stored.latitude == 48.8584)
        #expect(stored.longitude == -2.2945)
        // Capped at 1 MiB of UTF-8, on a character boundary.
        #expect(stored.textContent?.utf8.count == 1 << 20)
        #expect(stored.textContent == String(repeating: "é", count: 1 << 19))
        #expect(try index.textContent(of: "IMG_1.jpg", domain: "docs") == stored.textContent)
        // Lists leave the text out.
        #expect(try index.search(words: ["img"]).first?.item.attributeSet.textContent == nil)
        #expect(try index.search(words: ["img"]).first?.item.attributeSet.authors == ["Ann", "Bob"])
        for query in [#"authors == "bob"c"#, #"kMDItemAuthors == "an*"c"#, "pageCount == 12", "kMDItemNumberOfPages > 10",
                      #"kMDItemAcquisitionMake == "canon"c"#, #"acquisitionModel == "EOS*""#, "latitude > 48",
                      "kMDItemLongitude < 0", #"* == "ann"cdw"#] {
            #expect(try index.query(query).count == 1, "\(query)")
        }
        #expect(try index.query("pageCount > 12").isEmpty)
    }

    /// An index written by the previous version (v3) is upgraded in place: its text moves to
    /// the content index, and everything else stays.
    @Test func upgradesAVersion3Index() throws {
        let path = TestScratch.path("v3")
        try writeOlderIndex(at: path, upTo: "v3-compact", """
            INSERT INTO domain(id, name) VALUES (1, 'docs');
            INSERT INTO content_kind(id, contentType, digest) VALUES (1, 'text/plain', 0);
            INSERT INTO item(id, domainId, identifier, displayName, kindId, textContent, modificationDate)
                VALUES (1, 1, CAST('notes.txt' AS BLOB), 'notes.txt', 1, 'the net present value of things', 1000),
                       (2, 1, CAST('empty.txt' AS BLOB), 'empty.txt', 1, NULL, 2000);
            """)
        let index = try SearchableIndex(path: path)
        #expect(try index.search(words: ["present"]).map(\.item.uniqueIdentifier.lossyString) == ["notes.txt"])
        #expect(try index.query(#"kMDItemTextContent == "net present value"cdw"#).count == 1)
        #expect(try index.query(#"kMDItemTextContent == "present net"cdw"#).isEmpty)
        #expect(try index.item("notes.txt", domain: "docs")?.item.attributeSet.textContent == "the net present value of things")
        #expect(try index.search(words: ["empty"]).count == 1)
        let columns = try DatabaseQueue(path: path).read { db in try db.columns(in: "item").map(\.name) }
        #expect(!columns.contains("textContent"))
        #expect(columns.contains("pageCount"))
    }

    /// The query for a phrase in the text reads only the items that have all its words.
    @Test func phraseQueriesUseTheContentIndex() throws {
        let index = try temporaryIndex()
        try index.indexItems([item("a.txt", text: "net present value"), item("b.txt", text: "value present net")])
        #expect(try index.query(#"kMDItemTextContent == "net present value"cdw"#).map(\.item.uniqueIdentifier.lossyString) == ["a.txt"])
        let explanation = try index.explainQuery(#"kMDItemTextContent == "net present value"cdw"#)
        #expect(explanation.contains("item_content MATCH"))
        #expect(explanation.contains(#"text : \"net\" AND text : \"present\" AND text : \"value\""#))
        let plan = explanation.split(separator: "\n").filter { $0.hasPrefix("-- plan:") }
        #expect(!plan.contains { $0.contains("SCAN item ") || $0.hasSuffix("SCAN item") }, "\(plan)")
    }
}

@Suite("Snippets", .ownThread)
struct SnippetTests {
    @Test func marksMatchingWords() {
        #expect(Snippet(text: "The net present value of the project", words: ["present", "val"]).text
            == "The net [present] [value] of the project")
        #expect(Snippet(text: "Mon Résumé est là", words: ["resume"]).text == "Mon [Résumé] est là")
        #expect(Snippet(text: "see testWORDML here", words: ["word"]).text == "see [testWORDML] here")
        #expect(Snippet(text: "nothing here", words: ["absent"]).text == nil)
        #expect(Snippet(text: "line one\n\n  line\ttwo", words: ["two"]).text == "line one line [two]")
    }

    @Test func staysWithinTwoHundredCharacters() {
        // Words without digits (a digit would split them): "wa", "wb", … "wzz".
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let words: [String] = (0..<400).map { number in
            let first = number >= 26 ? String(letters[number / 26 - 1]) : ""
            return "w" + first + String(letters[number % 26])
        }
        let text = words.joined(separator: " ")
        let snippet = Snippet(text: text, words: [words[200]]).text!
        #expect(snippet.count <= Snippet.maximumLength)
        #expect(snippet.hasPrefix("…"))
        #expect(snippet.hasSuffix("…"))
        #expect(snippet.contains("[\(words[200])]"))
        // Context before the match, cut at a word.
        #expect(snippet.contains("\(words[199]) [\(words[200])] \(words[201])"))
        #expect(snippet.count >= Snippet.maximumLength - 5)
        #expect(!snippet.dropFirst().hasPrefix(" "))
    }

    @Test func neverSplitsACharacter() {
        let text = String(repeating: "👩‍👩‍👧 e\u{301}té ", count: 100) + "target " + String(repeating: "日本語 ", count: 200)
        let snippet = Snippet(text: text, words: ["target"]).text!
        #expect(snippet.count <= Snippet.maximumLength)
        #expect(snippet.contains("[target]"))
        #expect(String(decoding: Array(snippet.utf8), as: UTF8.self) == snippet)
        #expect(!snippet.unicodeScalars.first!.properties.isDiacritic)
    }
}

@Suite("Word-based matching (w, .ownThread)")
struct WordModifierTests {
    /// Spotlight's `w`: whole words, a lowercase→uppercase change is a boundary, `*` makes a prefix.
    @Test(arguments: [
        ("paris-france.jpg", #""paris"wc"#, true), ("I love Paris", #""paris"wc"#, true),
        ("Comparison", #""paris"wc"#, false), ("Parisian", #""paris"wc"#, false),
        ("Parisian", #""paris*"wc"#, true), ("report 2024", #""rep*"cdw"#, true),
        ("testWORDML_table.doc", #""word"cw"#, false), ("testWORD_table.doc", #""word"cw"#, true),
        ("testWORDML_table.doc", #""wordml"cw"#, true), ("Quarterly Report", #""quarterly report"cw"#, true),
        ("Quarterly Report", #""report quarterly"cw"#, false), ("Résumé", #""resume"cdw"#, true),
        ("Résumé", #""resume"cw"#, false), ("HTMLParser", #""Parser"w"#, true), ("HTMLParser", #""parser"w"#, false),
    ])
    func matches(_ text: String, _ value: String, _ expected: Bool) throws {
        let expression = try QueryExpression(parsing: "title == " + value)
        var attributes = AttributeSet()
        attributes.title = text
        let item = IndexedItem(item: SearchableItem(uniqueIdentifier: "x", domainIdentifier: "d", attributeSet: attributes),
                               thumbnailInfo: nil)
        #expect(expression.matches(item) == expected)
    }
}

@Suite("Keywords", .ownThread)
struct KeywordTests {
    @Test func ownKeywordsThenTellingWordsThenNameWords() throws {
        let index = try temporaryIndex()
        // "budget" is in every text, "xylophone" in one: the rare word tells more.
        try index.indexItems((0..<20).map { item("doc\($0).txt", text: "budget meeting notes budget \($0)") })
        let ranker = try index.keywordRanker()
        let text = "The xylophone budget: budget, budget and the xylophone again. Xylophone!"
        // "budget" is the most frequent but in every text; "again" once but in no other text.
        #expect(try ranker.tellingWords(in: text, limit: 3) == ["xylophone", "again", "budget"])
        #expect(try ranker.keywords(own: ["Music"], text: text, nameWords: ["orchestra", "plan"], fallback: ["data"])
            == ["Music", "xylophone", "again", "budget", "orchestra", "plan"])
        #expect(try ranker.keywords(own: [], text: "the of and", nameWords: [], fallback: ["data", "text"]) == ["data", "text"])
        #expect(try ranker.keywords(own: (0..<12).map { "k\($0)" }, text: text, nameWords: ["x"]).count == KeywordRanker.maximumCount)
    }
}
