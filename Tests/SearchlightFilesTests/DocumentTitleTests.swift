import Testing
@testable import SearchlightFiles

@Suite("Document titles")
struct DocumentTitleTests {
    func title(_ text: String, _ type: String = "text/plain", name: String = "doc.md") -> String? {
        DocumentTitle.title(in: Array(text.utf8), contentType: type, fileName: name)
    }

    @Test func markdown() {
        #expect(title("# Résumé of Zoë\n\nText") == "Résumé of Zoë")
        #expect(title("Intro line\n\n## Second level #\n") == "Second level")
        #expect(title("```\n# not a title\n```\n# Real one\n") == "Real one")
        #expect(title("Setext Title\n=====\nbody") == "Setext Title")
        #expect(title("---\ntitle: \"From front matter\"\n---\n# Heading\n") == "From front matter")
        #expect(title("#hashtag is not a heading\nplain") == nil)
    }

    @Test func html() {
        #expect(title("<html><head><TITLE lang=en>Crème &amp; brûlée\n  recipe</TITLE></head>", "text/html", name: "a.html")
                == "Crème & brûlée recipe")
        #expect(title("<html><body>No title</body></html>", "text/html", name: "a.html") == nil)
        #expect(title("<title>   </title>", "text/html", name: "a.html") == nil)
    }

    @Test func appliesOnlyWhereATitleCanBe() {
        #expect(DocumentTitle.applies(contentType: "text/html", fileName: "x.htm"))
        #expect(DocumentTitle.applies(contentType: "text/plain", fileName: "notes.MD"))
        #expect(!DocumentTitle.applies(contentType: "text/plain", fileName: "notes.txt"))
        #expect(!DocumentTitle.applies(contentType: "image/png", fileName: "x.md"))
    }
}
