import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// The first page of a search whose words start a word of nearly every text, read tier by tier
/// (``ContentSearch/tieredMatches(limit:)``), against the full ranking (issue 47).
@Suite("First pages read tier by tier", .ownThread)
struct TieredPageTests {
    /// Words of the generated texts: `alpha` is in every text (as the notes of
    /// `Benchmarks/notes_tree.py`), `alp` and `a` whole in a few, the others in about half.
    private static let textWords = ["alpine", "bravo", "zulu", "zeta", "november", "nova", "beta", "alps"]

    /// An index of `count` generated items: names, titles, keywords, authors and folders that
    /// hold the query words whole or as prefixes in some items, texts in most, dates in few
    /// distinct values (many ties, ordered by identifier), two domains, some items undated.
    private static func generatedIndex(count: Int, seed: UInt64) throws -> SearchableIndex {
        let index = try SearchableIndex(path: TestScratch.path("tiers"))
        var generator = SeededGenerator(seed: seed)
        func chance(_ percent: UInt64) -> Bool { generator.next() % 100 < percent }
        func pick(_ words: [String]) -> String { words[Int(generator.next() % UInt64(words.count))] }
        var items: [SearchableItem] = []
        for number in 0..<count {
            // Folders that start with `z` in nearly half the items: more rich candidates for
            // `z` than are ranked one by one.
            let folder = chance(75) ? pick(["alpha", "zone", "zulu", "zeta", "b"]) + "/" : "notes/"
            // `alphabet`: `alpha` as a prefix in the name, whole in the text (the text's tier).
            let name = chance(6) ? pick(["alpha", "alps", "zulu report", "beta a", "alphabet", "bravos"]) + " \(number).txt"
                : "note_\(number).txt"
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = name
            attributes.title = chance(3) ? pick(["Alpha guide", "Zulu notes", "Al", "a bravo"]) : nil
            attributes.keywords = chance(30) ? [pick(["alpaca", "zeta", "alpha", "zulu", "nova", "zone"])] : []
            attributes.authors = chance(2) ? [pick(["Al Smith", "Zoe Alpha"])] : []
            if !chance(5) {
                var words = ["alpha"] + (0..<6).map { _ in pick(textWords) }
                if chance(3) { words.append("alp") }
                if chance(2) { words.append("a") }
                // `alpha bravo` as a phrase in some texts, the words apart in others.
                if chance(10) { words.insert("bravo", at: 1) }
                attributes.textContent = words.joined(separator: " ")
            }
            if !chance(2) {
                attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_000_000 - Double(generator.next() % 40) * 3600)
            }
            items.append(SearchableItem(uniqueIdentifier: ItemIdentifier(folder + name), domainIdentifier: chance(10) ? "other" : "docs",
                                        attributeSet: attributes, identifierIsPath: true))
        }
        try index.indexItems(items)
        return index
    }

    /// Every page (several limits, both domains, any domain) is the start of the full
    /// ranking: the same items, in the same order, said to match in the same fields.
    @Test func firstPagesAreTheStartOfTheFullRanking() throws {
        let index = try Self.generatedIndex(count: 2_500, seed: 47)
        let queries: [[String]] = [["a"], ["al"], ["alp"], ["alph"], ["alpha"], ["z"], ["zu"], ["n"], ["no"], ["b"],
                                   ["alpha", "b"], ["alpha", "bravo"], ["a", "z"], ["b", "a"], ["al", "zu"], ["alp", "nov"]]
        for words in queries {
            for domain in [nil, "docs", "other"] {
                let all = try index.searchResults(words: words, domain: domain)
                for limit in [1, 7, 20, 100, 1_500] {
                    let page = try index.searchResults(words: words, domain: domain, limit: limit)
                    #expect(page.map(\.item.item.uniqueIdentifier) == all.prefix(limit).map(\.item.item.uniqueIdentifier),
                            "\(words) \(domain ?? "any") \(limit)")
                    #expect(page.map(\.matchedIn) == all.prefix(limit).map(\.matchedIn), "\(words) \(domain ?? "any") \(limit)")
                }
            }
        }
    }

    /// Where a word ranks in each row, read once per table with the columns of each match
    /// (``PhraseColumns``), is what reading each column's matches tells; and the lists that one
    /// read keeps (``ContentSearch/readLists(of:)``) are those FTS5 gives for each expression.
    @Test func oneReadOfAWordTellsItsColumnsAsEachColumnsReadDoes() throws {
        let index = try Self.generatedIndex(count: 1_500, seed: 11)
        try index.read { db in
            guard let filter = try ItemFilter(domain: nil, in: db) else { Issue.record("no filter"); return }
            for token in ["a", "al", "alp", "alpha", "z", "zu", "zulu", "b", "bravo", "nova", "smith", "no", "guide"] {
                let search = ContentSearch(db: db, tokens: [token], filter: filter)
                let ranks = try search.columnRanks(of: token).all
                #expect(!ranks.isEmpty, "\(token)")
                // A search of its own, which has read nothing: each column's list from FTS5.
                let byColumn = ContentSearch(db: db, tokens: [token], filter: filter)
                #expect(ranks == (try byColumn.columnRanksByColumn(of: token).all), "\(token)")
                // The lists kept from that one read are those FTS5 gives for each expression.
                for term in [SearchableIndex.quoted(token), SearchableIndex.quoted(token) + "*"] {
                    for (table, expression) in [("item_words", term), ("item_content", "authors : (" + term + ")"),
                                                ("item_content", "authors : " + term), ("item_content", "text : (" + term + ")"),
                                                ("item_content", "text : " + term), ("item_content", term)] {
                        let fresh = ContentSearch(db: db, tokens: [token], filter: filter)
                        #expect(try search.rowIDs(table, expression) == fresh.rowIDs(table, expression), "\(token): \(table) \(expression)")
                    }
                }
            }
        }
    }

    /// Rows are sought one by one only where FTS5 seeks: whole words and prefixes its prefix
    /// indexes hold; a longer prefix is read once for the search.
    @Test func onlyPrefixesOfAPrefixIndexAreSoughtRowByRow() {
        #expect(ContentSearch.seeksCheaply(#"text : ("alpha" AND "b"*)"#))
        #expect(ContentSearch.seeksCheaply(#""not"* OR "7"* OR "42"*"#))
        #expect(ContentSearch.seeksCheaply(#"authors : ("note" OR "zulu")"#))
        #expect(!ContentSearch.seeksCheaply(#""note"* OR "7"*"#))
        #expect(ContentSearch.seeksCheaply(#"text : ("d70"* AND "x")"#))
        #expect(!ContentSearch.seeksCheaply(#"("x86" AND "64b"*) OR "ελλη"*"#))
        // A quote inside a term (`""`) is part of it.
        #expect(!ContentSearch.seeksCheaply(#""ab""c"*"#))
        #expect(ContentSearch.seeksCheaply(#""a"""*"#))
    }

    /// A prefix longer than the prefix indexes is sought as the few words of the texts that
    /// start with it (the word whole when none does, the prefix past seven), and finds the same
    /// rows among any candidates as the prefix read whole.
    @Test func aLongPrefixIsSoughtAsTheWordsThatStartWithIt() throws {
        let index = try Self.generatedIndex(count: 400, seed: 4)
        try index.read { db in
            guard let filter = try ItemFilter(domain: nil, in: db) else { Issue.record("no filter"); return }
            let search = ContentSearch(db: db, tokens: ["alp"], filter: filter)
            #expect(try search.seekablePrefix("alp") == #""alp"*"#)
            #expect(try search.seekablePrefix("alpi") == #"("alpi" OR "alpine")"#)
            // `alphabet` is a word of names only: it matches no text, and is asked once with them.
            #expect(try search.seekablePrefix("alph") == #"("alph" OR "alpha" OR "alphabet")"#)
            #expect(try search.seekablePrefix("novem") == #"("novem" OR "november")"#)
            #expect(try search.seekablePrefix("zulu") == #""zulu""#)
            #expect(try search.seekablePrefix("qqqq") == #""qqqq""#)
            var seed: UInt64 = 17
            for prefix in ["alpi", "alph", "novem", "zulu", "brav", "zet"] {
                let all = try search.rowIDs("item_content", "text : " + ContentSearch.term(prefix, whole: false))
                for size in [1, 5, 31] {
                    var candidates = RowSet()
                    for _ in 0..<size {
                        seed = seed &* 6_364_136_223_846_793_005 &+ 1
                        candidates.insert(Int64(1 + (seed >> 33) % 400))
                    }
                    #expect(try search.textRows(of: prefix, whole: false, among: candidates) == candidates.intersection(all), "\(prefix) \(size)")
                }
            }
        }
    }

    /// A name typed letter by letter as the notes of issue 47 are named (`note_4_2_7`): each
    /// prefix's first page, read from the items with every word whole in their name when they
    /// fill it (``SearchableIndex/compoundNamePage(_:domain:limit:in:)``), is the start of the
    /// full ranking, with and without texts, in either domain.
    @Test func aCompoundTypedLetterByLetterGivesTheRankingsFirstPages() throws {
        let index = try SearchableIndex(path: TestScratch.path("compounds"))
        var generator = SeededGenerator(seed: 42)
        var items: [SearchableItem] = []
        for a in 1...12 {
            for b in 1...a {
                for c in 1...9 {
                    var attributes = AttributeSet(contentType: "text/plain")
                    attributes.displayName = "note_\(a)_\(b)_\(c).txt"
                    attributes.textContent = "alpha note \(c) " + (generator.next() % 3 == 0 ? "note_\(b)_\(a)" : "bravo")
                    attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_000_000 - Double(generator.next() % 30) * 60)
                    items.append(SearchableItem(uniqueIdentifier: ItemIdentifier("\(a)/\(b)/note_\(a)_\(b)_\(c).txt"),
                                                domainIdentifier: generator.next() % 5 == 0 ? "other" : "docs",
                                                attributeSet: attributes, identifierIsPath: true))
                }
            }
        }
        try index.indexItems(items)
        let typed = "note_12_4_7"
        for end in typed.indices.dropFirst(4) {
            let words = [String(typed[...end])]
            for domain in [nil, "docs"] {
                for scope in [SearchScope.all, .names] {
                    let all = try index.searchResults(words: words, domain: domain, scope: scope)
                    for limit in [1, 5, 20, 200] {
                        let page = try index.searchResults(words: words, domain: domain, limit: limit, scope: scope)
                        #expect(page.map(\.item.item.uniqueIdentifier) == all.prefix(limit).map(\.item.item.uniqueIdentifier),
                                "\(words) \(domain ?? "any") \(scope) \(limit)")
                        #expect(page.map(\.matchedIn) == all.prefix(limit).map(\.matchedIn), "\(words) \(domain ?? "any") \(limit)")
                    }
                }
            }
        }
        // The same pages met walking the date index, as when the name index matches many items
        // (`note_4`: every note with a `4` in its name): each is the full ranking's, or `nil`.
        var walked = 0
        for end in typed.indices.dropFirst(4) {
            let words = [String(typed[...end])]
            for domain in [nil, "docs"] {
                let all = try index.searchResults(words: words, domain: domain, scope: .names)
                for limit in [1, 5, 20] {
                    let page = try index.read { db in
                        try SearchableIndex.compoundNamePage(words, domain: domain, limit: limit, walkingAbove: 8, in: db)
                    }
                    guard let page else { continue }
                    walked += 1
                    #expect(page.map(\.identifier) == all.prefix(limit).map(\.item.item.uniqueIdentifier), "\(words) \(domain ?? "any") \(limit)")
                }
            }
        }
        #expect(walked > 10)
        // The exact name first; a page the tier fills says so.
        #expect(try index.searchResults(words: ["note_12_4_7"], limit: 3).first?.item.item.uniqueIdentifier.description
                == "12/4/note_12_4_7.txt")
        #expect(try index.searchPath(words: ["note_12"], domain: nil, limit: 20, scope: .all) == SearchPath.bestNameTier.explanation)
    }

    /// The searches of letters that start a word of many texts and are whole in none take the
    /// tiered path, and the path is what `--explain` says; a word whole in every text still
    /// takes the whole words' path.
    @Test func explainSaysWhichPathASearchTook() throws {
        let index = try Self.generatedIndex(count: 1_200, seed: 7)
        // No item has `z`, `zu`, `ze` whole, and few names start with them: neither whole
        // words nor the best rank of names fill the page.
        for words in [["z"], ["zu"], ["ze"], ["alpha"]] {
            #expect(try index.searchPath(words: words, domain: nil, limit: 20, scope: .all) == SearchPath.oneWord.explanation, "\(words)")
        }
        #expect(try index.searchPath(words: ["ze", "al"], domain: nil, limit: 20, scope: .all) == SearchPath.tiers.explanation)
        #expect(try index.searchPath(words: ["alpha", "bravo"], domain: nil, limit: 20, scope: .all) == SearchPath.wholeWords.explanation)
        #expect(try index.searchPath(words: ["a"], domain: nil, limit: nil, scope: .all) == SearchPath.everyMatch.explanation)
        #expect(try index.searchPath(words: ["a"], domain: nil, limit: 20, scope: .names) == SearchPath.names.explanation)
    }

    /// One word's first page read tier by tier, each tier's lists from their start
    /// (``ContentSearch/oneWordPage(limit:sampling:)``), is the full ranking's: the same items
    /// in the same order, said to match in the same fields, with lists taken as long from 8
    /// and 64 rows (tiers met on the date index, sought row by row or checked against their
    /// set, or sorted) and from the default, in any domain and in one.
    @Test func oneWordsPageIsTheStartOfTheFullRanking() throws {
        let index = try Self.generatedIndex(count: 2_500, seed: 5)
        try index.read { db in
            var found = 0
            for domain in [nil, "docs"] {
                guard let filter = try ItemFilter(domain: domain, in: db) else { Issue.record("no filter"); return }
                for word in ["a", "al", "alp", "alph", "alpha", "alpi", "alpine", "alpaca", "alps", "z", "zu", "zulu", "zeta", "zone", "novem",
                             "b", "bravo", "bravos", "beta", "nova", "no", "n", "smith", "guide", "x"] {
                    let all = try ContentSearch(db: db, tokens: [word], filter: filter).allMatches()
                    for limit in [1, 20, 300, 3_000] {
                        for sampling in [8, 64, PageStrategy.sampleSize] {
                            let page = try ContentSearch(db: db, tokens: [word], filter: filter).oneWordPage(limit: limit, sampling: sampling)
                            // A page a walk cannot fill (undated items are not on the date index) is left to the full ranking.
                            if limit <= 20 { #expect(page != nil, "\(word) \(domain ?? "any") \(limit) \(sampling)") }
                            guard let page else { continue }
                            found += 1
                            #expect(page.map(\.rank.id) == all.prefix(limit).map(\.rank.id), "\(word) \(domain ?? "any") \(limit) \(sampling)")
                            #expect(page.map(\.matchedIn) == all.prefix(limit).map(\.matchedIn), "\(word) \(domain ?? "any") \(limit) \(sampling)")
                        }
                    }
                }
            }
            #expect(found > 300)
        }
    }

    /// Several words' first page, from the candidates of their short lists and the items at the
    /// bound met on the date index (``ContentSearch/severalWordsPage(limit:sampling:candidatesAtMost:)``),
    /// is the full ranking's: with lists taken as long from 8, 64 rows and the default, few and
    /// many candidates, in any domain and in one; phrases and the text's scored tier included.
    @Test func severalWordsPageIsTheStartOfTheFullRanking() throws {
        let index = try Self.generatedIndex(count: 2_500, seed: 9)
        try index.read { db in
            var found = 0
            for domain in [nil, "docs"] {
                guard let filter = try ItemFilter(domain: domain, in: db) else { Issue.record("no filter"); return }
                for words in [["alpha", "bravo"], ["alpha", "b"], ["alpha", "br"], ["a", "z"], ["b", "a"], ["al", "zu"], ["alp", "nov"],
                              ["zulu", "alpha"], ["zeta", "nova"], ["alps", "bravo"], ["alpaca", "alpha"], ["zone", "alpha"],
                              ["guide", "alpha"], ["smith", "al"], ["alpha", "bravo", "zulu"], ["n", "b", "a"], ["x", "alpha"],
                              ["alph", "zu"], ["alpin", "bravo"], ["novem", "alpha"], ["zulu", "brav"], ["bravo", "zulu", "alpi"]] {
                    let all = try ContentSearch(db: db, tokens: words, filter: filter).allMatches()
                    for limit in [1, 20, 300] {
                        for sampling in [8, 64, PageStrategy.sampleSize] {
                            for candidates in [8, 128, 4_096] {
                                let search = ContentSearch(db: db, tokens: words, filter: filter)
                                guard let page = try search.severalWordsPage(limit: limit, sampling: sampling, candidatesAtMost: candidates)
                                else { continue }
                                found += 1
                                let context = "\(words) \(domain ?? "any") \(limit) \(sampling) \(candidates)"
                                #expect(page.map(\.rank.id) == all.prefix(limit).map(\.rank.id), "\(context)")
                                #expect(page.map(\.matchedIn) == all.prefix(limit).map(\.matchedIn), "\(context)")
                            }
                        }
                    }
                }
            }
            #expect(found > 200)
        }
    }

    /// Two words in most texts and in no other field, that go together in few: the walk at the
    /// bound starts seeking each visit in both text lists (they are too long to read), and
    /// reads the sparser one into a set once its visits find fewer items than the lists'
    /// densities said. Every page is still the start of the full ranking.
    @Test func aWalkOfWordsSeldomTogetherTurnsToASetAndKeepsTheRanking() throws {
        let index = try SearchableIndex(path: TestScratch.path("seldom"))
        var generator = SeededGenerator(seed: 12)
        var items: [SearchableItem] = []
        for number in 0..<6_000 {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = "note_\(number).txt"
            attributes.textContent = number % 25 == 0 ? "kilo and lima" : number % 2 == 0 ? "kilo alone" : "lima alone"
            attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_000_000 - Double(generator.next() % 100_000))
            items.append(SearchableItem(uniqueIdentifier: ItemIdentifier("notes/note_\(number).txt"), domainIdentifier: "docs",
                                        attributeSet: attributes, identifierIsPath: true))
        }
        try index.indexItems(items)
        try index.read { db in
            guard let filter = try ItemFilter(domain: nil, in: db) else { Issue.record("no filter"); return }
            var found = 0
            for words in [["kilo", "lima"], ["lima", "kilo"], ["kil", "lim"], ["kilo", "l"]] {
                let all = try ContentSearch(db: db, tokens: words, filter: filter).allMatches()
                #expect(all.count == 240, "\(words)")
                for limit in [1, 20, 50, 300] {
                    let search = ContentSearch(db: db, tokens: words, filter: filter)
                    guard let page = try search.severalWordsPage(limit: limit, sampling: 64) else { continue }
                    found += 1
                    #expect(page.map(\.rank.id) == all.prefix(limit).map(\.rank.id), "\(words) \(limit)")
                }
            }
            #expect(found >= 8)
        }
    }

    /// Each tier's own way is taken and gives the full ranking's page: a tier of text-only
    /// items larger than ``ContentSearch/sortedTierLimit`` met walking the date index, a small
    /// one looked up and sorted, the text tier with every word whole ordered by relevance;
    /// rich candidates too many to rank one by one, grouped by the columns their words are in.
    @Test func eachWayOfReadingATierGivesTheRankingsPage() throws {
        let index = try Self.generatedIndex(count: 2_500, seed: 3)
        try index.read { db in
            guard let filter = try ItemFilter(domain: nil, in: db) else { Issue.record("no filter"); return }
            // `al`: thousands of texts hold `alpha`, `alpine` (the walk); `alp` whole in a few
            // (scored by relevance); `alpha b`: two words, prefix tiers of each size.
            // `z`, `zu`: more rich candidates than are ranked one by one (grouped by their columns).
            #expect(try ContentSearch(db: db, tokens: ["z"], filter: filter).richCandidates(whole: false).count
                > ContentSearch.sortedTierLimit)
            // Small bounds: every tier walked, rich candidates ranked one by one or grouped.
            let bounds = [(ContentSearch.sortedTierLimit, ContentSearch.sortedTierLimit), (ContentSearch.sortedTierLimit, 8),
                          (8, 8), (8, ContentSearch.sortedTierLimit)]
            for words in [["al"], ["alp"], ["alpha", "b"], ["alpha", "br"], ["a"], ["z"], ["zu"], ["z", "al"], ["alpha", "zu"]] {
                let all = try ContentSearch(db: db, tokens: words, filter: filter).allMatches()
                for limit in [1, 20, 300, 3_000] {
                    for (ranked, sorted) in bounds {
                        let page = try #require(try ContentSearch(db: db, tokens: words, filter: filter)
                            .tieredMatches(limit: limit, rankingAtMost: ranked, sortingAtMost: sorted))
                        #expect(page.map(\.rank.id) == all.prefix(limit).map(\.rank.id), "\(words) \(limit) \(ranked) \(sorted)")
                    }
                }
            }
        }
    }
}
