import Foundation
import SearchlightTestSupport
import Testing
@testable import Searchlight

@Suite("Query parser", .ownThread)
struct QueryParserTests {
    @Test func parsesPredicatesWithPrecedence() throws {
        let expression = try QueryExpression(parsing: #"a == 1"#.replacingOccurrences(of: "a", with: "size")
            + #" || !title == "x*"cd && kMDItemFSSize >= -2.5"#)
        #expect(expression == .or([
            .predicate(QueryPredicate(attribute: .size, test: .comparison(.equal, .number(1)))),
            .and([
                .not(.predicate(QueryPredicate(attribute: .title, test: .comparison(
                    .equal, .string(QueryPattern([.literal("x"), .wildcard]), [.caseInsensitive, .diacriticInsensitive]))))),
                .predicate(QueryPredicate(attribute: .size, test: .comparison(.greaterOrEqual, .number(-2.5)))),
            ]),
        ]))
    }

    @Test func parsesValues() throws {
        func value(_ text: String) throws -> QueryValue {
            guard case .predicate(let predicate) = try QueryExpression(parsing: text),
                  case .comparison(_, let value) = predicate.test else { throw QueryParseError(query: text, column: 0, expected: "", found: "") }
            return value
        }
        #expect(try value(#"title == "a\"b\\c\*d*"tw"#)
            == .string(QueryPattern([.literal("a\"b\\c*d"), .wildcard]), [.tokenized, .wordBased]))
        #expect(try value(#"title ==[cd] 'it\'s *'"#) == .string(QueryPattern(literal: "it's *"), [.caseInsensitive, .diacriticInsensitive]))
        #expect(try value("title == 'it\\'s *'") == .exactString("it's *"))
        #expect(try value("size < .5") == .number(0.5))
        #expect(try value("size < +12") == .number(12))
        #expect(try value("contentCreationDate > $time.now") == .date(.now(offset: 0)))
        #expect(try value("contentCreationDate > $time.now(-60)") == .date(.now(offset: -60)))
        #expect(try value("contentCreationDate > $time.today( +3 )") == .date(.today(offset: 3)))
        #expect(try value("contentCreationDate > $time.yesterday") == .date(.yesterday(offset: 0)))
        #expect(try value("contentCreationDate > $time.this_week(-1)") == .date(.thisWeek(offset: -1)))
        #expect(try value("contentCreationDate > $time.this_month(2)") == .date(.thisMonth(offset: 2)))
        #expect(try value("contentCreationDate > $time.this_year(-10)") == .date(.thisYear(offset: -10)))
        #expect(try value("contentCreationDate > $time.iso(2025-06-18T14:00:00Z)")
            == .date(.iso(Date(timeIntervalSince1970: 1_750_255_200))))
        #expect(try value("contentCreationDate > $time.iso(2025-06-18T16:00:00.5+02:00)")
            == .date(.iso(Date(timeIntervalSince1970: 1_750_255_200.5))))
        #expect(try value("contentCreationDate > $time.iso(2025-06-18)")
            == .date(.iso(Date(timeIntervalSince1970: 1_750_204_800))))
    }

    @Test func acceptsAliasesAndAnyText() throws {
        for name in QueryAttribute.allCases where name != .anyText {
            let value = name.kind == .number || name.kind == .date ? "1" : "\"x\""
            guard case .predicate(let predicate) = try QueryExpression(parsing: "\(name) == \(value)") else {
                Issue.record("\(name)")
                continue
            }
            #expect(predicate.attribute == name)
        }
        guard case .predicate(let any) = try QueryExpression(parsing: #"* == "x"cdw"#) else { throw CancellationError() }
        #expect(any.attribute == .anyText)
        guard case .predicate(let alias) = try QueryExpression(parsing: "kMDItemPixelHeight > 3") else { throw CancellationError() }
        #expect(alias.attribute == .pixelHeight)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let query: String
        let column: Int
        let expected: String
        init(_ query: String, _ column: Int, _ expected: String) {
            self.query = query
            self.column = column
            self.expected = expected
        }
        var testDescription: String { query.count > 60 ? String(query.prefix(60)) + "…" : query }
    }

    static let malformed: [Malformed] = [
        Malformed("", 1, "a predicate"),
        Malformed("   ", 4, "a predicate"),
        Malformed("title", 6, "a comparison operator"),
        Malformed("title ==", 9, "a value"),
        Malformed(#"title == "abc"#, 10, "a closing `\"`"),
        Malformed("title == 'abc", 10, "a closing `'`"),
        Malformed(#"foo == "x""#, 1, "an attribute name"),
        Malformed(#"title = "x""#, 7, "a comparison operator"),
        Malformed(#"title == "x"z"#, 13, "a string modifier"),
        Malformed(#"title == "x" &&"#, 16, "an attribute name"),
        Malformed(#"(title == "x""#, 14, "`)`"),
        Malformed(#"title == "x")"#, 13, "`&&`, `||`"),
        Malformed(#"size > "big""#, 8, "a number"),
        Malformed("title > 5", 9, "a quoted string"),
        Malformed(#"* > "x""#, 3, "`==` or `!=`"),
        Malformed("contentModificationDate > $time.tomorrow", 33, "now, today"),
        Malformed("contentModificationDate > $date.today", 27, "`$time.`"),
        Malformed("size > $time.today(-7)", 8, "a number"),
        Malformed("contentModificationDate > $time.today(-x)", 40, "an integer offset"),
        Malformed("contentModificationDate > $time.today(-7", 41, "`)`"),
        Malformed(#"title == "a\qb""#, 12, "`\\\"`"),
        Malformed("InRange(size, 1, )", 18, "a value"),
        Malformed("InRange(size 1, 2)", 14, "`,`"),
        Malformed("InRange(*, 1, 2)", 9, "a named attribute"),
        Malformed(#"title ==[cx] "a""#, 11, "a modifier"),
        Malformed("size ==[c] 5", 8, "an operator without modifiers"),
        Malformed("contentModificationDate > $time.iso(2025-13-01)", 37, "an ISO 8601 date"),
        Malformed("contentModificationDate > $time.iso(2025-02-30)", 37, "an ISO 8601 date"),
        Malformed("size > 1.", 10, "a digit after the decimal point"),
        Malformed("size > -", 9, "a digit"),
        Malformed(#"title == "x" || || size > 1"#, 17, "an attribute name"),
        Malformed(#"title == "x" & size > 1"#, 14, "`&&`, `||`"),
        Malformed("size > 1 size < 2", 10, "`&&`, `||`"),
        Malformed("!", 2, "an attribute name"),
        Malformed("()", 2, "an attribute name"),
        Malformed("size > 99999999999999999999999999999999999999999", 8, "a number of at most 40"),
        Malformed("contentModificationDate > $time.now(12345678901)", 37, "an offset between"),
        Malformed(String(repeating: "(", count: 201) + "size > 1" + String(repeating: ")", count: 201), 201, "at most 200 nested"),
        Malformed(String(repeating: "!", count: 300) + "size > 1", 201, "at most 200 nested"),
        Malformed(String(repeating: "size > 1 && ", count: 1000), 10_001, "a query of at most 10000"),
    ]

    @Test("Malformed queries report their column", arguments: malformed)
    func malformedQuery(_ malformed: Malformed) {
        do {
            let expression = try QueryExpression(parsing: malformed.query)
            Issue.record("parsed as \(expression)")
        } catch {
            #expect(error.column == malformed.column, "\(error)")
            #expect(error.expected.hasPrefix(malformed.expected), "\(error)")
            #expect(error.query == malformed.query)
        }
    }

    @Test func rendersACaretUnderTheColumn() {
        #expect(throws: QueryParseError.self) { try QueryExpression(parsing: "size > 1 &&\tfoo == 2") }
        do {
            _ = try QueryExpression(parsing: "size > 1 &&\tfoo == 2")
        } catch {
            #expect(error.description == "invalid query at column 13: expected an attribute name (displayName, title, "
                + "authors, contentType, contentTypeTree, contentDescription, keywords, textContent, size, "
                + "contentModificationDate, contentCreationDate, pixelWidth, pixelHeight, pageCount, acquisitionMake, "
                + "acquisitionModel, latitude, longitude, userTags, comment, starRating, whereFroms, path, domain "
                + "or a kMDItem… name), found `foo`")
            #expect(error.caretDisplay == "size > 1 && foo == 2\n            ^")
        }
    }

    @Test func descriptionRoundTrips() throws {
        for queryCase in QueryCompilerTests.cases {
            let expression = try QueryExpression(parsing: queryCase.query)
            #expect(try QueryExpression(parsing: expression.description) == expression, "\(expression)")
        }
    }

    /// Feeds thousands of random and mutated strings: each must parse or throw a
    /// QueryParseError whose column lies within the query; each that parses must round-trip
    /// and give the same items from SQL as from Swift evaluation.
    @Test func randomAndMutatedQueriesParseOrFailCleanly() throws {
        var random = SeededGenerator(seed: 0x5EA7C4_11647)
        let fragments = [
            "title", "displayName", "keywords", "size", "contentModificationDate", "contentTypeTree", "path", "domain",
            "*", "kMDItemFSSize", "InRange(", "==", "!=", "<", ">", "<=", ">=", "==[cd]", "&&", "||", "!", "(", ")", ",",
            "\"re*\"cdw", "\"东京\"", "'x'", "\"a\\\"b\"", "\"*\"", "12", "-3.5", "$time.today(-7)", "$time.now",
            "$time.iso(2025-06-18T14:00:00Z)", "$time.this_year(1)", " ", " ", "\"", "'", "\\", "$", "[", "]", "é",
        ]
        let alphabet = Array("abctwdeIR$()!&|=<>[]\"'\\*.,-+0123456789 é东\n\t_")
        let seeds = QueryCompilerTests.cases.map(\.query)
        let fixture = QueryFixture.shared
        // With their text, which query results leave out.
        let everything = try fixture.index.query(#"displayName == "*""#).map {
            try #require(try fixture.index.item($0.item.uniqueIdentifier, domain: $0.item.domainIdentifier))
        }
        var parsed = 0, failed = 0
        for round in 0..<4000 {
            var query: String
            switch round % 4 {
            case 3:
                // Valid predicates combined at random: compound queries that parse.
                query = seeds[random.next(below: seeds.count)]
                for _ in 0..<random.next(below: 4) {
                    let other = seeds[random.next(below: seeds.count)]
                    let op = random.next(below: 2) == 0 ? " && " : " || "
                    let negate = random.next(below: 3) == 0 ? "!" : ""
                    query = random.next(below: 2) == 0 ? "(\(query))\(op)\(negate)(\(other))" : "\(query)\(op)\(negate)(\(other))"
                }
            case 0:
                query = String((0..<random.next(below: 40)).map { _ in alphabet[random.next(below: alphabet.count)] })
            case 1:
                query = (0..<random.next(below: 12)).map { _ in fragments[random.next(below: fragments.count)] }
                    .joined(separator: random.next(below: 2) == 0 ? " " : "")
            default:
                var characters = Array(seeds[random.next(below: seeds.count)])
                for _ in 0...random.next(below: 3) {
                    let position = random.next(below: characters.count + 1)
                    switch random.next(below: 4) {
                    case 0 where position < characters.count: characters.remove(at: position)
                    case 1: characters.insert(alphabet[random.next(below: alphabet.count)], at: position)
                    case 2 where position < characters.count: characters[position] = alphabet[random.next(below: alphabet.count)]
                    default: characters = Array(characters.prefix(position))
                    }
                }
                query = String(characters)
            }
            let expression: QueryExpression
            do {
                expression = try QueryExpression(parsing: query)
            } catch {
                failed += 1
                #expect(error.column >= 1 && error.column <= query.count + 1, "\(query): \(error)")
                #expect(error.caretDisplay.split(separator: "\n", omittingEmptySubsequences: false).count == 2)
                continue
            }
            parsed += 1
            #expect(try QueryExpression(parsing: expression.description) == expression, "\(query)")
            let fromSQL = try fixture.index.query(expression, now: QueryFixture.now, calendar: QueryFixture.calendar)
                .map(fixture.key(of:)).sorted()
            let fromSwift = everything.filter { expression.matches($0, now: QueryFixture.now, calendar: QueryFixture.calendar) }
                .map(fixture.key(of:)).sorted()
            #expect(fromSQL == fromSwift, "\(query)")
        }
        #expect(parsed > 1000)
        #expect(failed > 1000)
    }
}

extension SeededGenerator {
    mutating func next(below bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}
