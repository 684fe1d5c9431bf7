import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Search words", .ownThread)
struct SearchWordsTests {
    let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    func parse(_ text: String) throws -> SearchWords { try SearchWords(parsing: text, calendar: utc) }

    @Test func plainWordsStayWordsAndSearchWordsBecomeQueries() throws {
        let search = try parse(#"kind:pdf budget tag:work author:"Zoë Müller" name:report"#)
        #expect(search.words == ["budget"])
        #expect(search.filters.map(\.key) == [.kind, .tag, .author, .name])
        #expect(search.filters[0].queryString == ItemKind.pdf.queryString)
        #expect(search.filters[1].queryString == #"userTags == "work*"cd"#)
        #expect(search.filters[2].value == "Zoë Müller")
        #expect(search.filters[2].queryString == #"authors == "Zoë Müller*"cdw"#)
        #expect(search.filters[3].queryString == #"displayName == "report*"cdw"#)
        // The whole compiles and parses in the query language.
        let expression = try QueryExpression(parsing: try #require(search.queryString))
        #expect(expression.predicates.count >= 4)
    }

    @Test func unknownKeysAndEmptyValuesArePlainWords() throws {
        let search = try parse("http://example.com note: tag: Kind:PDF")
        #expect(search.words == ["http://example.com", "note:", "tag:"])
        #expect(search.filters.map(\.key) == [.kind])
        #expect(try parse("   ").isEmpty)
    }

    @Test func valuesAreQuotedLiterally() throws {
        let search = try parse(#"tag:a*b name:"x\y""#)
        #expect(search.filters[0].queryString == #"userTags == "a\*b*"cd"#)
        #expect(search.filters[1].queryString == #"displayName == "x\\y*"cdw"#)
        _ = try QueryExpression(parsing: try #require(search.queryString))
    }

    @Test func periodsBecomeTimeValues() throws {
        #expect(try parse("date:today").queryString == "contentModificationDate == $time.today")
        #expect(try parse("date:yesterday").queryString == "contentModificationDate == $time.yesterday")
        #expect(try parse("modified:week").queryString == "contentModificationDate == $time.this_week")
        #expect(try parse("created:month").queryString == "contentCreationDate == $time.this_month")
        #expect(try parse("date:>=year").queryString == "contentModificationDate >= $time.this_year")
    }

    @Test func datesBecomeBoundsOfTheirDayMonthOrYear() throws {
        func bounds(_ text: String) throws -> String { try #require(try parse(text).queryString) }
        let day = "$time.iso(2024-01-15T00:00:00.000Z)", nextDay = "$time.iso(2024-01-16T00:00:00.000Z)"
        #expect(try bounds("modified:2024-01-15") == "contentModificationDate >= \(day) && contentModificationDate < \(nextDay)")
        #expect(try bounds("modified:>2024-01-15") == "contentModificationDate >= \(nextDay)")
        #expect(try bounds("modified:>=2024-01-15") == "contentModificationDate >= \(day)")
        #expect(try bounds("created:<2024-06") == "contentCreationDate < $time.iso(2024-06-01T00:00:00.000Z)")
        #expect(try bounds("created:<=2024-06") == "contentCreationDate < $time.iso(2024-07-01T00:00:00.000Z)")
        #expect(try bounds("date:2024") == "contentModificationDate >= $time.iso(2024-01-01T00:00:00.000Z) && "
                + "contentModificationDate < $time.iso(2025-01-01T00:00:00.000Z)")
        for text in ["modified:2024-01-15", "created:<2024-06", "date:2024"] {
            _ = try QueryExpression(parsing: try bounds(text))
        }
    }

    @Test(arguments: ["modified:>notadate", "date:2024-13", "created:2024-02-30", "kind:sofa", "date:>today", "modified:24-01-01"])
    func malformedValuesAreErrorsThatNameTheWord(_ text: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            (error as? SearchWordsError)?.word == text && (error as? SearchWordsError)?.description.contains("expected") == true
        }
    }

    @Test func argumentsKeepASearchWordWhoseQuotesTheShellRemoved() throws {
        let search = try SearchWords(arguments: ["author:Zoë Müller", "quarterly report", #"tag:"big deal""#], calendar: utc)
        #expect(search.words == ["quarterly", "report"])
        #expect(search.filters.map(\.value) == ["Zoë Müller", "big deal"])
        // A kind or a date holds no space: an argument of several words is split as typed.
        let typed = try SearchWords(arguments: ["kind:pdf budget"], calendar: utc)
        #expect(typed.words == ["budget"])
        #expect(typed.filters.map(\.key) == [.kind])
    }

    @Test func kindsAreThePagesKindsInTheQueryLanguage() throws {
        // For every content type, the query of each kind holds exactly for the kind the Swift rule gives.
        let types: [String?] = [
            "application/pdf", "image/jpeg", "image/svg+xml", "application/vnd.ms-powerpoint",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "text/csv", "application/msword",
            "application/vnd.oasis.opendocument.text", "text/markdown", "message/rfc822", "text/plain", "text/x-c",
            "application/json", "application/zip", nil, "TEXT/CSV",
        ]
        for type in types {
            var attributes = AttributeSet(contentType: type)
            attributes.displayName = "x"
            let item = IndexedItem(item: SearchableItem(uniqueIdentifier: "x", domainIdentifier: "d", attributeSet: attributes),
                                   thumbnailInfo: nil)
            let expected = ItemKind(item.item)
            for kind in ItemKind.allCases {
                let expression = try QueryExpression(parsing: kind.queryString)
                #expect(expression.matches(item) == (kind == expected), "\(type ?? "nil") as \(kind)")
            }
            #expect(ItemKind(searchWord: expected.rawValue) == expected)
        }
        #expect(ItemKind(searchWord: "PDFs") == .pdf)
        #expect(ItemKind(searchWord: "photos") == .image)
    }
}
