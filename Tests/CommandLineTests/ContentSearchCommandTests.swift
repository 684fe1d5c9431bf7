import Foundation
import Searchlight
import SearchlightTestSupport
import Testing

/// `search`, `show` and `query` on an index whose items carry authors and text, written with the
/// library (as the extractor would fill them), so that these tests need no extractor.
@Suite("searchlight search with content", .serialized, .ownThread)
struct ContentSearchCommandTests {
    let work = TemporaryTree("content-cli")
    var index: String { work.path + "/index.sqlite" }

    func makeIndex() throws {
        let library = try SearchableIndex(path: index)
        func item(_ id: String, title: String? = nil, authors: [String] = [], text: String? = nil,
                  pages: Int? = nil, age: Double) -> SearchableItem {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = String(id.split(separator: "/").last!)
            attributes.title = title
            attributes.authors = authors
            attributes.textContent = text
            attributes.pageCount = pages
            attributes.contentModificationDate = Date(timeIntervalSince1970: 1_750_000_000 - age)
            return SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "docs", attributeSet: attributes,
                                  identifierIsPath: true)
        }
        try library.indexItems([
            item("finance/q3.txt", title: "Third quarter", authors: ["Zoë Müller"],
                 text: "Our model uses the net present value of each project.\nSee the appendix.", pages: 12, age: 10),
            item("notes/present ideas.txt", text: "gift list", age: 20),
            item("notes/muller.txt", text: "unrelated", age: 30),
        ])
    }

    func run(_ arguments: [String]) throws -> CommandResult { try Searchlight.run(arguments, index: index) }

    /// `--explain` says how each word is read: a prefix index for one to three letters, else
    /// how many indexed words it merges; how many items hold every word; which way the
    /// results were found (issue 47).
    @Test func explainSaysHowEachWordIsRead() throws {
        try makeIndex()
        let explained = try run(["search", "p", "pres", "--explain"])
        #expect(explained.status == 0, "\(explained.stderr)")
        let lines = explained.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix(#"word "p": as a prefix: the prefix index of 1 letter"#) }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix(#"word "pres": as a prefix: merges 1 name word and 1 text word"#) }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("every word: 2 items") }, "\(lines)")
        #expect(explained.lines == ["notes/present ideas.txt", "finance/q3.txt"])
        // And which way the results were found: with a limit, a first page.
        #expect(lines.contains { $0.hasPrefix("results: ") }, "\(lines)")
        let paged = try run(["search", "p", "--limit", "1", "--explain"])
        #expect(paged.stderr.split(separator: "\n").contains { $0.hasPrefix("results: the first page") }, "\(paged.stderr)")
    }

    @Test func searchFindsTextAndSaysWhereWithASnippet() throws {
        try makeIndex()
        let plain = try run(["search", "present"])
        #expect(plain.status == 0)
        #expect(plain.lines == ["notes/present ideas.txt", "finance/q3.txt"])
        let json = try run(["search", "present", "--json"])
        #expect(json.status == 0)
        let objects = try json.lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["matchedIn"] as? String } == ["name", "content"])
        #expect(objects[0]["snippet"] == nil)
        #expect(objects[1]["snippet"] as? String == "Our model uses the net [present] value of each project. See the appendix.")
        #expect(objects[1]["authors"] as? [String] == ["Zoë Müller"])
        #expect(objects[1]["pageCount"] as? Int == 12)
        for key in ["acquisitionMake", "acquisitionModel", "latitude", "longitude"] {
            #expect(objects[1].keys.contains(key), "\(key)")
        }
        // Authors rank before text; --names looks at neither.
        #expect(try run(["search", "muller"]).lines == ["notes/muller.txt", "finance/q3.txt"])
        let authors = try run(["search", "zoe", "--json"]).lines
        #expect(authors.count == 1 && authors[0].contains(#""matchedIn":"authors""#))
        #expect(try run(["search", "present", "--names"]).lines == ["notes/present ideas.txt"])
        #expect(try run(["search", "appendix", "--names"]).lines.isEmpty)
        #expect(try run(["search", "present", "--count"]).lines == ["2"])
        #expect(try run(["search", "present", "--names", "--count"]).lines == ["1"])
        #expect(try run(["search", "appendix", "-0"]).stdout == Array("finance/q3.txt".utf8) + [0])
    }

    @Test func showPrintsTheTextAndTheNewAttributes() throws {
        try makeIndex()
        let text = try run(["show", "finance/q3.txt", "--text"])
        #expect(text.status == 0)
        #expect(text.output == "Our model uses the net present value of each project.\nSee the appendix.\n")
        let attributes = try run(["show", "finance/q3.txt"])
        #expect(attributes.output.contains(#"authors                 = ("Zoë Müller")"#))
        #expect(attributes.output.contains("pageCount               = 12"))
        #expect(try run(["show", "notes/nothing.txt", "--text"]).status == 1)
    }

    /// Two words that find nothing together, one of them a typo some other document holds: both
    /// are tried corrected, and standard error says what was searched; when nothing is found even
    /// so, it says that in words, and the search still succeeds (issue 48).
    @Test func wordsThatFindNothingTogetherAreSearchedCorrected() throws {
        let library = try SearchableIndex(path: index)
        var batch = IndexBatch()
        for (id, text) in [("notes/report.txt", "The quarterly report for the board"), ("notes/draft.txt", "a reprot with a typo")] {
            var attributes = AttributeSet(contentType: "text/plain")
            attributes.displayName = String(id.split(separator: "/").last!)
            attributes.textContent = text
            batch.upsert(SearchableItem(uniqueIdentifier: ItemIdentifier(id), domainIdentifier: "docs", attributeSet: attributes,
                                        identifierIsPath: true))
        }
        try library.apply(batch)
        for format in [[], ["--json"]] {
            let corrected = try run(["search", "quartely", "reprot"] + format)
            #expect(corrected.status == 0)
            #expect(corrected.stderr == "searching also for \"quarterly report\"\n")
            #expect(corrected.lines.count == 1 && corrected.lines.allSatisfy { $0.contains("report.txt") })
        }
        #expect(try run(["search", "quartely", "reprot"]).lines.allSatisfy { $0.hasSuffix("/report.txt") || $0 == "report.txt" })
        let nothing = try run(["search", "quartely", "wombat"])
        #expect(nothing.status == 0 && nothing.stdout.isEmpty)
        #expect(nothing.stderr == "no item matches \"quartely wombat\"\n")
        // Found as typed: nothing said.
        #expect(try run(["search", "reprot"]).stderr.isEmpty)
    }

    @Test func queriesReachTheText() throws {
        try makeIndex()
        #expect(try run(["query", #"kMDItemTextContent == "net present value"cdw"#]).lines == ["finance/q3.txt"])
        #expect(try run(["query", #"kMDItemTextContent == "present net"cdw"#]).lines.isEmpty)
        #expect(try run(["query", #"kMDItemAuthors == "*müller*"cd"#]).lines == ["finance/q3.txt"])
        #expect(try run(["query", "kMDItemNumberOfPages >= 10"]).lines == ["finance/q3.txt"])
        let json = try run(["list", "--json"])
        #expect(json.lines.count == 3)
        #expect(json.lines.allSatisfy { $0.contains(#""pageCount":"#) && $0.contains(#""authors":"#) })
    }
}
