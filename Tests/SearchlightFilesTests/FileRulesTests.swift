import Foundation
import Searchlight
import SearchlightTestSupport
import Testing
@testable import SearchlightFiles

/// The file rules live in SearchlightFiles (`FileAttributes`), not in the library: a file's
/// path gives it folder words, its name its title and first keywords, and both follow a rename.
@Suite("File rules", .serialized, .ownThread)
struct FileRulesTests {
    @Test func aWatchedFileIsFoundByItsFoldersAndItsTitleFollowsARename() async throws {
        let fixture = try WatchFixture(prepare: { tree in tree.write("taxes/2024/Old receipt.txt", "paid\n") })
        try await fixture.start()
        let before = try #require(try await fixture.index.item("taxes/2024/Old receipt.txt", domain: fixture.domain)).item
        #expect(before.identifierIsPath)
        #expect(before.attributeSet.title == "Old receipt")
        #expect(before.attributeSet.keywords.starts(with: ["old", "receipt", "txt"]))
        #expect(try fixture.index.searchResults(words: ["taxes"]).map(\.matchedIn) == [.folders])

        fixture.tree.rename("taxes/2024/Old receipt.txt", "taxes/2024/New receipt.txt")
        await fixture.settles(to: ["taxes/2024/New receipt.txt"])
        let renamed = await eventually {
            (try? fixture.index.item("taxes/2024/New receipt.txt", domain: fixture.domain))??.item.attributeSet.title
                == "New receipt"
        }
        #expect(renamed)
        let after = try #require(try await fixture.index.item("taxes/2024/New receipt.txt", domain: fixture.domain)).item
        #expect(after.attributeSet.keywords.starts(with: ["new", "receipt", "txt"]))
        #expect(try fixture.index.searchIdentifiers(words: ["old"]).isEmpty)
        #expect(try fixture.index.searchIdentifiers(words: ["taxes", "new"]) == ["taxes/2024/New receipt.txt"])
        try await fixture.stop()
    }

    /// `FileAttributes.rename(from:to:)`: a title the old name gave follows the new name, a
    /// document's own title stays; keywords that started with the old name's words follow.
    @Test func aRenameKeepsADocumentsOwnTitle() throws {
        let folder = TemporaryTree("file-rules")
        let index = try SearchableIndex(path: folder.path + "/index.sqlite")
        func file(_ path: String, title: String?) -> SearchableItem {
            let name = String(path.split(separator: "/").last!)
            var attributes = AttributeSet(contentType: "application/pdf")
            attributes.displayName = name
            attributes.title = title ?? FileAttributes.title(fromFileName: name)
            attributes.keywords = FileAttributes.keywords(name: name, contentType: "application/pdf", description: nil)
            return SearchableItem(uniqueIdentifier: ItemIdentifier(path), domainIdentifier: "d", attributeSet: attributes,
                                  identifierIsPath: true)
        }
        try index.indexItems([file("a/Draft.v2.pdf", title: "Annual report"), file("a/Budget.v2.pdf", title: nil)])
        var batch = IndexBatch()
        for (from, to) in [("a/Draft.v2.pdf", "done/Final.pdf"), ("a/Budget.v2.pdf", "done/Plan.pdf")] {
            batch.move(ItemIdentifier(from), to: ItemIdentifier(to), domain: "d",
                       rename: FileAttributes.rename(from: ItemIdentifier(from), to: ItemIdentifier(to)))
        }
        try index.apply(batch)
        let final = try #require(try index.item("done/Final.pdf", domain: "d")).item.attributeSet
        #expect(final.displayName == "Final.pdf")
        #expect(final.title == "Annual report")
        #expect(final.keywords == FileAttributes.keywords(name: "Final.pdf", contentType: "application/pdf", description: nil))
        let plan = try #require(try index.item("done/Plan.pdf", domain: "d")).item.attributeSet
        #expect(plan.title == "Plan")
        #expect(plan.keywords == FileAttributes.keywords(name: "Plan.pdf", contentType: "application/pdf", description: nil))
        #expect(try index.searchIdentifiers(words: ["done", "plan"]) == ["done/Plan.pdf"])
    }

    /// A file's describing keywords (of its type and description) do not depend on how many
    /// words its name has, up to five: files of one type and description share one kind row.
    @Test func describingKeywordsDoNotDependOnTheNameUpToFiveWords() {
        let description = "gzip compressed data, max compression, from Unix, original size modulo 2^32 1946"
        var tails: Set<[String]> = []
        for name in ["a1.gz", "two words.gz", "three short words.gz", "one two three four.gz", "one two three four five"] {
            let keywords = FileAttributes.keywords(name: name, contentType: "application/gzip", description: description)
            let nameWords = AttributeSet.nameKeywords(of: name)
            #expect(keywords.starts(with: nameWords), "\(name)")
            #expect((5...10).contains(keywords.count), "\(name): \(keywords)")
            tails.insert(Array(keywords.dropFirst(nameWords.count)))
        }
        #expect(tails.count == 1, "\(tails)")
        #expect(tails.first?.count == FileAttributes.describingWords)
        let long = FileAttributes.keywords(name: "one two three four five six seven eight.gz", contentType: "application/gzip",
                                           description: description)
        #expect(long.count == 10)
    }
}
