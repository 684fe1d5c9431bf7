import Foundation
import Searchlight
import SearchlightJSON

/// The body of a search request (`POST /{index}/_search`) in the part of Elasticsearch's
/// search API that Samba's Spotlight backend sends:
///
/// ```json
/// {"from": 0, "size": 50, "_source": ["path.real"],
///  "query": {"bool": {"filter": [{"prefix": {"path.real": "/srv/share/"}}],
///                     "must": [{"query_string": {"query": "file.filename:*report*", "fields": ["file.filename", "content"]}}]}}}
/// ```
///
/// (Samba 4.17 sends `{"query": {"query_string": {"query": "(…) AND path.real.fulltext:\"/srv/share\""}}}`.)
/// Every other key is refused with a 400 that names it.
struct ElasticsearchSearch: Sendable {
    /// The first hit to answer, counted from 0.
    var from = 0
    /// How many hits to answer.
    var size = 10
    /// The fields each hit's `_source` carries.
    var source: [SourceField] = SourceField.allCases
    var query: ElasticsearchQuery = .all
    /// Where a value without a field is looked for: `query_string`'s `fields`, by default
    /// Samba's (`file.filename` and `content`).
    var defaultFields: [ElasticsearchField] = [.fileName, .content]

    /// What a hit's `_source` can hold.
    enum SourceField: String, CaseIterable, Sendable {
        case realPath = "path.real"
        case fileName = "file.filename"
        case fileSize = "file.filesize"
        case contentType = "file.content_type"
        case lastModified = "file.last_modified"
        case created = "file.created"
        case title = "meta.title"
        case author = "meta.author"
    }

    static let maximumBodySize = 1 << 20

    /// Reads a request body (empty: every item, ten at a time).
    /// - Throws: ``ElasticsearchError`` (400) for malformed JSON, a key or query type the
    ///   endpoint does not answer, or a query string it cannot read.
    init(body: [UInt8]) throws(ElasticsearchError) {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return }
        let parsed: JSONValue
        do {
            parsed = try JSONDecoder().decode(JSONValue.self, from: Data(body))
        } catch {
            throw .request("the request body is not JSON: \(error)")
        }
        guard case .object(let object) = parsed else { throw .request("the request body must be a JSON object") }
        for (key, value) in object {
            switch key {
            case "from": from = try Self.count(value, key)
            case "size": size = try Self.count(value, key)
            case "_source": source = try Self.sourceFields(value)
            case "query": query = try parseQuery(value, at: "query")
            // Totals are always counted exactly; a time limit is the server's own (--query-timeout).
            case "track_total_hits", "timeout": continue
            default: throw .request("unknown key [\(key)] in the search request; Searchlight answers from, size, _source and query")
            }
        }
        // Elasticsearch's `index.max_result_window`: a page past it is refused, not read (and
        // `from + size` near `Int.max` once overflowed, which stopped the server).
        guard from <= Self.maximumResultWindow, size <= Self.maximumResultWindow - from else {
            throw .request("Result window is too large, from + size must be less than or equal to: [\(Self.maximumResultWindow)] "
                           + "but was [\(from.addingReportingOverflow(size).overflow ? "more" : String(from + size))]")
        }
    }

    /// The most hits a request may reach (`from + size`), as Elasticsearch's default
    /// `index.max_result_window`.
    static let maximumResultWindow = 10_000

    private static func count(_ value: JSONValue, _ key: String) throws(ElasticsearchError) -> Int {
        guard case .number(let number) = value, let count = Int(exactly: number), count >= 0 else {
            throw .request("[\(key)] must be a number, zero or more")
        }
        return count
    }

    private static func sourceFields(_ value: JSONValue) throws(ElasticsearchError) -> [SourceField] {
        if case .bool(let included) = value { return included ? SourceField.allCases : [] }
        var patterns: [String]
        if let text = value.string {
            patterns = [text]
        } else if let list = value.strings {
            patterns = list
        } else if case .object(let object) = value, object.count == 1, let includes = object["includes"]?.strings {
            patterns = includes
        } else {
            throw .request("[_source] must be true, false, a field, a list of fields or {\"includes\": [...]}")
        }
        if patterns.isEmpty { patterns = ["*"] }
        var fields: [SourceField] = []
        for pattern in patterns {
            let matching = SourceField.allCases.filter { WildcardText(pattern).matches($0.rawValue) }
            if matching.isEmpty {
                throw .request("[_source] asks for [\(pattern)]; Searchlight's hits hold "
                               + SourceField.allCases.map(\.rawValue).joined(separator: ", "))
            }
            fields += matching.filter { !fields.contains($0) }
        }
        return fields
    }

    /// One query of the DSL: `query_string`, `bool`, `prefix` or `match_all`.
    private mutating func parseQuery(_ value: JSONValue, at path: String) throws(ElasticsearchError) -> ElasticsearchQuery {
        guard case .object(let object) = value, object.count == 1, let (type, body) = object.first else {
            throw .request("[\(path)] must be an object with one query, such as {\"query_string\": {...}}")
        }
        guard case .object(let parameters) = body else { throw .request("[\(path).\(type)] must be an object") }
        switch type {
        case "match_all":
            guard parameters.isEmpty else { throw .request("[match_all] takes no parameters") }
            return .all
        case "query_string":
            return try parseQueryString(parameters)
        case "prefix":
            guard parameters.count == 1, let (field, given) = parameters.first else {
                throw .request("[prefix] must name one field")
            }
            let text: String
            if let string = given.string {
                text = string
            } else if case .object(let options) = given, options.count == 1, let string = options["value"]?.string {
                text = string
            } else {
                throw .request("[prefix.\(field)] must be a string or {\"value\": \"...\"}")
            }
            _ = try ElasticsearchField(name: field)
            return .prefix(field: field, text)
        case "bool":
            var required: [ElasticsearchQuery] = []
            var alternatives: [ElasticsearchQuery] = []
            for (occurrence, clauses) in parameters {
                var list = [clauses]
                if case .array(let array) = clauses { list = array }
                var queries: [ElasticsearchQuery] = []
                for (position, clause) in list.enumerated() {
                    queries.append(try parseQuery(clause, at: "\(path).bool.\(occurrence)[\(position)]"))
                }
                switch occurrence {
                case "must", "filter": required += queries
                case "must_not": required += queries.map { .not($0) }
                case "should": alternatives = queries
                default: throw .request("unknown key [\(occurrence)] in [bool]; Searchlight answers must, filter, must_not and should")
                }
            }
            // As Elasticsearch: `should` only ranks when something else is required.
            if !alternatives.isEmpty, required.isEmpty { return .or(alternatives) }
            return .and(required)
        default:
            throw .request("unknown query [\(type)]; Searchlight answers query_string, bool, prefix and match_all")
        }
    }

    private mutating func parseQueryString(_ parameters: [String: JSONValue]) throws(ElasticsearchError) -> ElasticsearchQuery {
        guard let text = parameters["query"]?.string else { throw .request("[query_string] needs a [query] string") }
        var defaultOperator = ElasticsearchQuery.DefaultOperator.or
        for (key, value) in parameters {
            switch key {
            case "query":
                continue
            case "fields", "default_field":
                let names = value.strings ?? value.string.map { [$0] }
                guard let names, !names.isEmpty else { throw .request("[query_string.\(key)] must name fields") }
                var fields: [ElasticsearchField] = []
                for name in names { fields.append(try ElasticsearchField(name: name)) }
                defaultFields = fields
            case "default_operator":
                guard let name = value.string?.lowercased(), let given = ElasticsearchQuery.DefaultOperator(rawValue: name) else {
                    throw .request("[query_string.default_operator] must be OR or AND")
                }
                defaultOperator = given
            default:
                throw .request("unknown key [\(key)] in [query_string]; Searchlight answers query, fields, default_field and default_operator")
            }
        }
        return try ElasticsearchQuery(queryString: text, defaultOperator: defaultOperator)
    }
}

/// A field name pattern of `_source`, with `*` wildcards.
private struct WildcardText {
    let pieces: [Substring]

    init(_ pattern: String) { pieces = pattern.split(separator: "*", omittingEmptySubsequences: false) }

    func matches(_ text: String) -> Bool {
        guard pieces.count > 1 else { return text == pieces.first.map(String.init) }
        var rest = Substring(text)
        guard rest.hasPrefix(pieces[0]) else { return false }
        rest = rest.dropFirst(pieces[0].count)
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(pieces[pieces.count - 1])
    }
}

/// A JSON value, as the request body is read.
private enum JSONValue: Decodable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    var string: String? { if case .string(let text) = self { text } else { nil } }

    /// A list of strings.
    var strings: [String]? {
        guard case .array(let values) = self else { return nil }
        let strings = values.compactMap(\.string)
        return strings.count == values.count ? strings : nil
    }
}
