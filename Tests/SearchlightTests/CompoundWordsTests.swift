import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

/// Words of letters and digits, or joined by underscores, match as typed (issue 47, item 3):
/// `d70` is not a `d…` word and a `70…` one, `note_7_42_5` not the same numbers in another
/// order; their parts are searched only when, as typed, they find nothing.
@Suite("Compound words", .ownThread)
struct CompoundWordsTests {
    @Test func typedWordsSplitIntoCompoundsAndPlainWords() {
        #expect(CompoundWords.tokens(of: ["Nikon", "D70"]) == ["nikon", "d 70"])
        #expect(CompoundWords.tokens(of: ["mp3"]) == ["mp 3"])
        #expect(CompoundWords.tokens(of: ["x86_64"]) == ["x 86_64"])
        #expect(CompoundWords.tokens(of: ["IPV6"]) == ["ipv 6"])
        // Capitals then a lowercase letter start a word, as in names (`HTMLParser`).
        #expect(CompoundWords.tokens(of: ["IPv6"]) == ["i pv 6"])
        #expect(CompoundWords.tokens(of: ["2024q3"]) == ["2024 q 3"])
        #expect(CompoundWords.tokens(of: ["note_7_42_5"]) == ["note_7_42_5"])
        #expect(CompoundWords.tokens(of: ["note_7_42_5.txt"]) == ["note_7_42_5", "txt"])
        // Other separators part compounds; underscores at the ends join nothing.
        #expect(CompoundWords.tokens(of: ["x86-64"]) == ["x 86", "64"])
        #expect(CompoundWords.tokens(of: ["_draft_"]) == ["draft"])
        #expect(CompoundWords.tokens(of: ["2024"]) == ["2024"])
        // A split at case changes alone is plain words, as before.
        #expect(CompoundWords.tokens(of: ["quarterlyRep"]) == ["quarterly", "rep"])
        #expect(CompoundWords.tokens(of: ["testWORD_various"]) == ["test word_various"])
        // Every script with digits; Han, kana and Thai stay letters matched one by one.
        #expect(CompoundWords.tokens(of: ["Άλφα1"]) == ["αλφα 1"])
        #expect(CompoundWords.tokens(of: ["사진2024"]) == ["사진 2024"])
        #expect(CompoundWords.tokens(of: ["Фото_2"]) == ["фото_2"])
        #expect(CompoundWords.tokens(of: ["東京2024"]) == ["東京", "2024"])
        #expect(CompoundWords.tokens(of: ["?!"]).isEmpty)
        // Parts, runs, what --explain prints, the words tried when compounds find nothing.
        #expect(CompoundWords.parts(of: "x 86_64") == ["x", "86", "64"])
        #expect(CompoundWords.runs(of: "x 86_64") == ["x86", "64"])
        #expect(CompoundWords.runs(of: "d 70") == ["d70"])
        #expect(CompoundWords.display("2024 q 3") == "2024q3")
        #expect(CompoundWords.partTokens(["nikon", "d 70"]) == ["nikon", "d", "70"])
        #expect(CompoundWords.partTokens(["nikon", "d"]) == nil)
    }

    @Test func aCompoundIsItsPartsInOrderTheLastMayBeAPrefix() {
        func match(_ token: String, _ name: String) -> (Bool, Bool) {
            let found = CompoundWords.match(token, in: NameTokenizer.words(in: name))
            return (found.whole, found.prefix)
        }
        #expect(match("d 70", "Nikon D70.jpg") == (true, true))
        #expect(match("d 7", "Nikon D70.jpg") == (false, true))
        #expect(match("d 70", "Dune 70.jpg") == (false, false))
        #expect(match("d 70", "D 1970.jpg") == (false, false))
        #expect(match("note_7_42_5", "note_7_42_5.txt") == (true, true))
        #expect(match("note_7_42_5", "note_7_42_50.txt") == (false, true))
        #expect(match("note_7_42_5", "note_42_7_5.txt") == (false, false))
        #expect(match("note_7_4", "note_7_42_5.txt") == (false, true))
        // A plain word: whole, or the start of a word.
        #expect(match("nik", "Nikon D70.jpg") == (false, true))
        #expect(match("nikon", "Nikon D70.jpg") == (true, true))
        // One more word than the field has.
        #expect(match("d 70_1", "d70") == (false, false))
    }

    static let day = 86_400.0

    /// Names (and some texts) a person might hold, each older than the next.
    static let items: [(name: String, text: String?)] = [
        ("note_7_42_5.txt", nil),
        ("note_7_42_50.txt", nil),
        ("note_42_7_5.txt", nil),  // the newest of the three, holding the same words
        ("Nikon D70.jpg", nil),
        ("data 70.txt", nil),
        ("Document d 1970.txt", nil),
        ("camera.txt", "I shot this with a D70 last year"),
        ("linux-x86_64.tar.gz", nil),
        ("x86 notes.txt", "x86 and 64 bit"),
        ("build.txt", "built for x86_64 machines"),
        ("ipv6-setup.md", nil),
        ("ipv4 6 notes.txt", nil),
        ("report 2024q3.pdf", nil),
        ("2024 q4 plan.txt", nil),
        ("song.mp3", nil),
        ("mp 4 3.txt", nil),
        ("Φωτογραφία άλφα1.jpg", nil),
        ("사진2024.jpg", nil),
        ("사진 2023.jpg", nil),
    ]

    static func write(into index: any IndexWriter) throws {
        var batch = IndexBatch()
        for (offset, item) in items.enumerated() {
            var attributes = AttributeSet(contentType: item.text == nil ? "application/octet-stream" : "text/plain")
            attributes.displayName = item.name
            attributes.textContent = item.text
            attributes.contentModificationDate = Date(timeIntervalSince1970: 1_700_000_000 + Double(offset) * day)
            batch.upsert(SearchableItem(uniqueIdentifier: ItemIdentifier(item.name), domainIdentifier: "home",
                                        attributeSet: attributes))
        }
        try index.apply(batch)
    }

    static func found(_ text: String, scope: SearchScope = .all, limit: Int? = nil, in index: any IndexWriter) throws -> [String] {
        try index.searchResults(SearchWords(parsing: text), domain: nil, limit: limit, scope: scope)
            .map(\.item.item.uniqueIdentifier.lossyString)
    }

    @Test(arguments: IndexBackend.available) func compoundsMatchAsTypedOnARealIndex(_ backend: IndexBackend) async throws {
        let index = try await TypoSearchTests.store(backend)
        try Self.write(into: index)
        // `d70`: the camera in a name, then in a text; no `d…` word beside a `70…` one.
        #expect(try Self.found("d70", in: index) == ["Nikon D70.jpg", "camera.txt"])
        #expect(try Self.found("nikon d70", in: index) == ["Nikon D70.jpg"])
        #expect(try Self.found("D7", in: index) == ["Nikon D70.jpg", "camera.txt"])
        #expect(try index.countMatches(SearchWords(parsing: "d70"), domain: nil) == 2)
        // The name typed exactly first, then what it starts; not the same words in another order.
        for scope in [SearchScope.all, .names] {
            #expect(try Self.found("note_7_42_5", scope: scope, in: index) == ["note_7_42_5.txt", "note_7_42_50.txt"])
            #expect(try Self.found("note_7_42_5", scope: scope, limit: 1, in: index) == ["note_7_42_5.txt"])
            #expect(try Self.found("note_7_42_5.txt", scope: scope, in: index) == ["note_7_42_5.txt", "note_7_42_50.txt"])
        }
        #expect(try index.countMatches(SearchWords(parsing: "note_7_42_5"), domain: nil) == 2)
        // Runs of a text in order: `x86 and 64 bit` holds both, apart.
        #expect(try Self.found("x86_64", in: index) == ["linux-x86_64.tar.gz", "build.txt"])
        #expect(try Self.found("IPV6", in: index) == ["ipv6-setup.md"])
        #expect(try Self.found("2024q3", in: index) == ["report 2024q3.pdf"])
        #expect(try Self.found("mp3", in: index) == ["song.mp3"])
        // Other scripts, with digits.
        #expect(try Self.found("ΑΛΦΑ1", in: index) == ["Φωτογραφία άλφα1.jpg"])
        #expect(try Self.found("사진2024", in: index) == ["사진2024.jpg"])
        // As typed they find nothing: their parts, as words of their own.
        #expect(try Self.found("nikon70", in: index) == ["Nikon D70.jpg"])
        #expect(try index.countMatches(SearchWords(parsing: "nikon70"), domain: nil) == 1)
        // Parts as consecutive words, whatever stands between them in the name.
        #expect(try Self.found("data70", in: index) == ["data 70.txt"])
        // Spaces between words: each word found on its own, as before.
        #expect(Set(try Self.found("note 7 42 5", in: index)).isSuperset(of: ["note_7_42_5.txt", "note_42_7_5.txt"]))
        // --explain says which path each word took.
        let plan = try index.explainSearch(SearchWords(parsing: "nikon d70"), domain: nil, limit: 20)
        #expect(plan.contains("word \"d70\": a compound, as typed"), "\(plan)")
        #expect(plan.contains("compounds as typed"), "\(plan)")
        let fallback = try index.explainSearch(SearchWords(parsing: "nikon70"), domain: nil, limit: 20)
        #expect(fallback.contains("nikon 70"), "\(fallback)")
    }
}
