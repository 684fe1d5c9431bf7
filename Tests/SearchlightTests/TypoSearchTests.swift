import Foundation
import GRDB
import Logging
import SearchlightPostgres
import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Searches with a typo", .ownThread)
struct TypoSearchTests {
    @Test func editDistanceCountsASwapAsOneEdit() {
        func distance(_ a: String, _ b: String) -> Int {
            SpellingNeighbors.distance(Array(a.unicodeScalars), Array(b.unicodeScalars))
        }
        #expect(distance("quarterly", "quartelry") == 1)
        #expect(distance("report", "reprot") == 1)
        #expect(distance("revenue", "revnue") == 1)
        #expect(distance("committee", "comittee") == 1)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("", "abc") == 3)
        #expect(SpellingNeighbors.candidates(of: "reprot").contains("report"))
        #expect(SpellingNeighbors.candidates(of: "acommodation").contains("accommodation"))
        // Two edits from 8 letters: a doubled letter typed once and a swap; two doubled letters.
        #expect(SpellingNeighbors.candidates(of: "accomodaiton").contains("accommodation"))
        #expect(SpellingNeighbors.candidates(of: "acomodation").contains("accommodation"))
        #expect(!SpellingNeighbors.candidates(of: "reprot").contains("reporter"))
        #expect(SpellingNeighbors.candidates(of: "ενάρετος".precomposedStringWithCanonicalMapping).isEmpty == false)
        #expect(SpellingNeighbors.candidates(of: "αθνα").contains("αθηνα"))
        // Short words and unspaced scripts are never corrected.
        #expect(SpellingNeighbors.candidates(of: "teh").isEmpty)
        #expect(SpellingNeighbors.candidates(of: "東京都庁").isEmpty)
        #expect(SpellingNeighbors.best(of: [("ten", 3), ("report", 1), ("reports", 9)], for: "reprot") == "report")
    }

    /// Ranking reads the start of long texts without inflating the rest, cut at a character.
    @Test("The known start of a word, from seeks, is the longest start some word of the vocabulary has")
    func knownPrefixFromSeeks() {
        var generator = SeededGenerator(seed: 35)
        let letters = Array("abcé").map(String.init)
        func word(_ length: Int) -> String { (0..<length).map { _ in letters[Int(generator.next() % 4)] }.joined() }
        for _ in 0..<300 {
            let vocabulary = (0..<Int(generator.next() % 12)).map { _ in word(1 + Int(generator.next() % 6)) }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let typed = word(1 + Int(generator.next() % 7))
            var seeks = 0
            let known = SpellingNeighbors.knownPrefix(of: typed) { start in
                seeks += 1
                return vocabulary.first { !$0.utf8.lexicographicallyPrecedes(start.utf8) }
            }
            // Every start of the word, tried against every word.
            let scalars = Array(typed.unicodeScalars)
            let expected = (0...scalars.count).last { length in
                length == 0 || vocabulary.contains { $0.unicodeScalars.starts(with: scalars.prefix(length)) }
            } ?? 0
            #expect(known == expected, "\(typed) in \(vocabulary)")
            #expect(seeks <= scalars.count + 2)
        }
    }

    /// The candidates, written as bytes, are the edits as their definition reads: letters left
    /// out, swapped, replaced and added at or before the known start's end, and for words of 8
    /// letters or more two slips (left out, swapped, typed twice), the first there.
    @Test("The candidates are every edit the definition names, and only those")
    func candidatesMatchTheDefinition() {
        var generator = SeededGenerator(seed: 36)
        let letters: [Unicode.Scalar] = ["a", "b", "e", "é", "ß", "ω", "λ", "д", "ש", "1"]
        func edits(_ word: [Unicode.Scalar], upTo last: Int, alphabet: [Unicode.Scalar]) -> [[Unicode.Scalar]] {
            var found: [[Unicode.Scalar]] = []
            for index in word.indices where index <= last {
                var changed = word
                changed.remove(at: index)
                found.append(changed)
                if index + 1 < word.count, word[index] != word[index + 1] {
                    changed = word
                    changed.swapAt(index, index + 1)
                    found.append(changed)
                }
                for letter in alphabet where letter != word[index] {
                    changed = word
                    changed[index] = letter
                    found.append(changed)
                }
            }
            for index in 0...min(last, word.count) {
                for letter in alphabet {
                    var changed = word
                    changed.insert(letter, at: index)
                    found.append(changed)
                }
            }
            return found
        }
        func slips(_ word: [Unicode.Scalar], upTo last: Int) -> [[Unicode.Scalar]] {
            var found: [[Unicode.Scalar]] = []
            for index in word.indices where index <= last {
                var changed = word
                changed.remove(at: index)
                found.append(changed)
                changed = word
                changed.insert(word[index], at: index)
                found.append(changed)
                if index + 1 < word.count, word[index] != word[index + 1] {
                    changed = word
                    changed.swapAt(index, index + 1)
                    found.append(changed)
                }
            }
            return found
        }
        for _ in 0..<200 {
            let word = (0..<(4 + Int(generator.next() % 7))).map { _ in letters[Int(generator.next() % UInt64(letters.count))] }
            let typed = String(String.UnicodeScalarView(word))
            let known = Int(generator.next() % UInt64(word.count + 1))
            // a–z, the word's letters, and the letters of the blocks beyond ASCII it uses.
            var alphabet = Set((UInt8(ascii: "a")...UInt8(ascii: "z")).map { Unicode.Scalar($0) }).union(word)
            for block in Set(word.filter { !$0.isASCII }.map { $0.value & ~0x7F }) {
                for value in block..<(block + 0x80) {
                    if let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic, !WordFolding.isFoldedAway(scalar),
                       WordFolding.fold(String(scalar)) == String(scalar) {
                        alphabet.insert(scalar)
                    }
                }
            }
            var expected = edits(word, upTo: known, alphabet: Array(alphabet))
            if word.count >= 8 {
                expected += slips(word, upTo: known).flatMap { slips($0, upTo: $0.count) }
            }
            let strings = Set(expected.filter { $0.count >= SpellingNeighbors.minimumLength - 1 && $0 != word }
                .map { String(String.UnicodeScalarView($0)) })
            let candidates = SpellingNeighbors.candidates(of: typed, knownPrefix: known)
            #expect(candidates == strings.sorted(), "\(typed), known \(known)")
            // As bytes, each once, and each found again by its bytes (the word itself not).
            let list = SpellingNeighbors.spellings(of: typed, knownPrefix: known)
            #expect(list.strings.count == strings.count && Set(list.strings) == strings)
            for (index, candidate) in list.strings.enumerated() {
                #expect(Array(candidate.utf8).withUnsafeBufferPointer(list.index(of:)) == index)
            }
            #expect(Array(typed.utf8).withUnsafeBufferPointer(list.index(of:)) == nil)
            if word.count >= 8 {
                #expect(Set(SpellingNeighbors.candidates(of: typed, knownPrefix: known, edits: 1)
                        + SpellingNeighbors.candidates(of: typed, knownPrefix: known, edits: 2)) == strings)
            }
        }
    }

    /// The spelling pass reads the vocabulary by a walk (the candidates that keep the first
    /// letter) and look-ups (the others): in a crowded vocabulary of few letters, where most
    /// edits are words, its corrections must be those the definition gives when every
    /// candidate is looked up in the whole vocabulary, read at once.
    @Test("Corrections read by walks and look-ups are those of the whole vocabulary")
    func correctionsMatchTheWholeVocabulary() throws {
        var generator = SeededGenerator(seed: 36)
        let letters = Array("abcdeo").map(String.init)
        func word() -> String { (0..<(4 + Int(generator.next() % 6))).map { _ in letters[Int(generator.next() % 6)] }.joined() }
        let index = try SearchableIndex(path: TestScratch.path("crowded-vocabulary"))
        var batch = IndexBatch()
        for number in 0..<700 {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = (0..<4).map { _ in word() }.joined(separator: " ")
            batch.upsert(SearchableItem(uniqueIdentifier: ItemIdentifier("item \(number)"), domainIdentifier: "docs",
                                        attributeSet: attributes))
        }
        try index.apply(batch)
        let vocabulary = try index.database.read { db in
            try Row.fetchAll(db, sql: "SELECT term, doc FROM item_words_vocab").map { (term: $0[0] as String, holders: $0[1] as Int) }
        }
        #expect(vocabulary.count > 2_000)
        let holders = Dictionary(vocabulary.map { ($0.term, $0.holders) }, uniquingKeysWith: +)
        func expected(_ typed: String) -> [String]? {
            let scalars = Array(typed.unicodeScalars)
            let known = (0...scalars.count).last { length in
                length == 0 || vocabulary.contains { $0.term.unicodeScalars.starts(with: scalars.prefix(length)) }
            } ?? 0
            guard scalars.count >= SpellingNeighbors.minimumLength, known < scalars.count else { return nil }
            for edits in 1...SpellingNeighbors.allowedEdits(typed) {
                let found = SpellingNeighbors.candidates(of: typed, knownPrefix: known, edits: edits)
                    .compactMap { candidate in holders[candidate].map { (word: candidate, holders: $0) } }
                if let best = SpellingNeighbors.best(of: found, for: typed) { return [best] }
            }
            return nil
        }
        var corrected = 0
        for round in 0..<150 {
            // An indexed word with its first letter, its first two or another letter changed,
            // or a word of the same letters made up.
            var typed = Array(vocabulary[Int(generator.next() % UInt64(vocabulary.count))].term.unicodeScalars)
            let other = Unicode.Scalar(letters[Int(generator.next() % 6)])!
            switch round % 5 {
            case 0: typed[0] = other
            case 1: typed.remove(at: 0)
            case 2: typed.swapAt(0, 1)
            case 3: typed.insert(other, at: Int(generator.next() % UInt64(typed.count)))
            default: typed = Array(word().unicodeScalars)
            }
            let text = String(String.UnicodeScalarView(typed))
            let correction = try index.spellingCorrection(words: [text])
            #expect(correction == expected(text), "\(text)")
            if correction != nil { corrected += 1 }
        }
        #expect(corrected > 30, "too few words needed a correction to tell anything")
    }

    @Test func candidatesGoToSQLiteAsAJSONArray() throws {
        let strings = ["plain", "quote\"d", "back\\slash", "tab\tand\u{1}", "ελληνικά", "한국어", ""]
        let queue = try DatabaseQueue()
        let decoded = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT value FROM json_each(?) ORDER BY key",
                                arguments: [SearchableIndex.jsonArray(of: strings.map { ArraySlice($0.utf8) })])
        }
        #expect(decoded == strings)
        #expect(SearchableIndex.jsonArray(of: []) == "[]")
    }

    @Test func theStartOfAStoredTextIsReadAlone() {
        let text = String(repeating: "école ", count: 5000)
        let stored = StoredContent.compress(text)
        let start = StoredContent.decompressPrefix(stored, limit: 1000)
        #expect(start.map { text.hasPrefix($0) } == true)
        #expect((start?.utf8.count ?? 0) > 990 && (start?.utf8.count ?? 0) <= 1000)
        #expect(StoredContent.decompressPrefix(stored, limit: 1 << 20) == text)
        #expect(StoredContent.decompressPrefix(Data([1, 2]), limit: 10) == nil)
    }

    @Test(arguments: IndexBackend.available) func aWordWithATypoFindsTheWordTheIndexHolds(_ backend: IndexBackend) async throws {
        let index = try await Self.store(backend)
        try Self.write([("minutes.txt", "The quarterly revenue report for the committee"),
                        ("holiday.txt", "Photos from Santorini and Αθήνα"),
                        ("revenues.txt", "revenue revenue")], to: index)
        func found(_ text: String) throws -> (ids: [String], spelling: [String]?) {
            let results = try index.searchResults(SearchWords(parsing: text), domain: nil, limit: nil)
            return (results.map(\.item.item.uniqueIdentifier.lossyString), results.first?.spelling)
        }
        #expect(try found("quartelry reprot") == (["minutes.txt"], ["quarterly", "report"]))
        #expect(try found("comittee") == (["minutes.txt"], ["committee"]))
        #expect(try found("santroini") == (["holiday.txt"], ["santorini"]))
        #expect(try found("αθνα") == (["holiday.txt"], ["αθηνα"]))
        #expect(try found("holdiay") == (["holiday.txt"], ["holiday"]))
        // The words as typed find something: no correction, a prefix is no typo.
        #expect(try found("quarterly").spelling == nil)
        #expect(try found("quart").spelling == nil)
        #expect(try found("xyzzyq").ids.isEmpty)
        #expect(try index.countMatches(SearchWords(parsing: "revnue"), domain: nil) == 2)
    }

    /// The respellings a store tests at once (``IndexReader/plausibleRespellings(_:)``) keep
    /// every one a search finds something for; PostgreSQL's keep only those one item holds every
    /// word of, somewhere (a name's words, a text's), in their order.
    @Test(arguments: IndexBackend.available) func plausibleRespellingsKeepWhatASearchFinds(_ backend: IndexBackend) async throws {
        let index = try await Self.store(backend)
        try Self.write([("minutes.txt", "The quarterly revenue report for the committee"),
                        ("holiday.txt", "Photos from Santorini and Αθήνα")], to: index)
        let respellings = [["quarterly", "santorini"], ["quarterly", "report"], ["xyzzy", "report"], ["holiday", "αθηνα"],
                           ["revenue", "committee"], ["minut", "photos"], ["santorini", "photo"], ["q", "report"]]
        let plausible = try index.plausibleRespellings(respellings)
        for words in respellings where try !index.searchResults(words: words, domain: nil, limit: nil, scope: .all).isEmpty {
            #expect(plausible.contains(words), "\(words)")
        }
        if backend == .postgres {
            #expect(plausible == [["quarterly", "report"], ["holiday", "αθηνα"], ["revenue", "committee"], ["santorini", "photo"],
                                  ["q", "report"]])
        }
        #expect(try index.plausibleRespellings([["xyzzy", "report"]]) == [["xyzzy", "report"]])
    }

    /// Writes one text file's item per `(name, text)` into `index`, in one batch.
    static func write(_ files: [(name: String, text: String)], to index: any IndexWriter) throws {
        var batch = IndexBatch()
        for (name, text) in files {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = name
            attributes.textContent = text
            batch.upsert(SearchableItem(uniqueIdentifier: ItemIdentifier(name), domainIdentifier: "docs",
                                        attributeSet: attributes, identifierIsPath: true))
        }
        try index.apply(batch)
    }

    static func store(_ backend: IndexBackend) async throws -> any IndexWriter {
        switch backend {
        case .sqlite:
            return try SearchableIndex(path: TestScratch.path("typos"))
        case .postgres:
            let url = try await PostgresTestDatabase.makeURL()
            return try PostgresStore(url: url, readOnly: false, logger: Logger(label: "test"))
        }
    }
}
