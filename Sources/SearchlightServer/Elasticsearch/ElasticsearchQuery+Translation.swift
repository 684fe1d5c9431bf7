import Foundation
import Searchlight

extension ElasticsearchQuery {
    /// What a query selects of one domain: all of it, none of it, or the items a Searchlight
    /// query matches. Constant parts fold away (a path outside the root selects none), so
    /// that a domain a search cannot reach is not read at all.
    enum Selection: Hashable, Sendable {
        case all
        case none
        case some(QueryExpression)

        static func and(_ parts: [Selection]) -> Selection {
            combine(parts, absorbing: .none, neutral: .all, QueryExpression.and)
        }

        static func or(_ parts: [Selection]) -> Selection {
            combine(parts, absorbing: .all, neutral: .none, QueryExpression.or)
        }

        /// `absorbing` when a part is, else the rest joined; `neutral` parts drop out.
        private static func combine(_ parts: [Selection], absorbing: Selection, neutral: Selection,
                                    _ join: ([QueryExpression]) -> QueryExpression) -> Selection {
            var expressions: [QueryExpression] = []
            for part in parts {
                if part == absorbing { return absorbing }
                if case .some(let expression) = part { expressions.append(expression) }
            }
            if expressions.isEmpty { return neutral }
            return .some(expressions.count == 1 ? expressions[0] : join(expressions))
        }

        var negated: Selection {
            switch self {
            case .all: .none
            case .none: .all
            case .some(let expression): .some(.not(expression))
            }
        }
    }

    /// The query as Searchlight's, for the items of the domain whose folder is `root`.
    ///
    /// - Parameters:
    ///   - fields: The fields a value without one is looked for in (`query_string`'s `fields`).
    ///   - root: The domain's folder, an absolute path: `path.real` is the item's path below it.
    /// - Throws: ``ElasticsearchError`` (400) for a field Searchlight does not keep, or a value
    ///   the field cannot hold.
    func selection(fields: [ElasticsearchField], root: String) throws(ElasticsearchError) -> Selection {
        switch self {
        case .and(let operands):
            var parts: [Selection] = []
            for operand in operands { parts.append(try operand.selection(fields: fields, root: root)) }
            return .and(parts)
        case .or(let operands):
            var parts: [Selection] = []
            for operand in operands { parts.append(try operand.selection(fields: fields, root: root)) }
            return .or(parts)
        case .not(let operand):
            return try operand.selection(fields: fields, root: root).negated
        case .term(let field, let pattern):
            return try Self.each(field, fields) { field, isDefault throws(ElasticsearchError) in
                try Self.match(field, pattern, inDefaultFields: isDefault, root: root)
            }
        case .phrase(let field, let text):
            return try Self.each(field, fields) { field, isDefault throws(ElasticsearchError) in
                try Self.match(field, QueryPattern(literal: text), inDefaultFields: isDefault, root: root)
            }
        case .range(let field, let lower, let upper):
            guard let field else { throw .query("a range needs a field: field:[low TO high]") }
            return try Self.range(ElasticsearchField(name: field), lower: lower, upper: upper)
        case .prefix(let field, let text):
            return try Self.prefix(ElasticsearchField(name: field), text, root: root)
        }
    }

    /// `body` for the field named, else for each default field (any of them may hold).
    private static func each(_ name: String?, _ defaults: [ElasticsearchField],
                             _ body: (ElasticsearchField, Bool) throws(ElasticsearchError) -> Selection)
        throws(ElasticsearchError) -> Selection {
        if let name { return try body(ElasticsearchField(name: name), false) }
        var parts: [Selection] = []
        for field in defaults { parts.append(try body(field, true)) }
        return .or(parts)
    }

    private static func predicate(_ attribute: QueryAttribute, _ op: QueryPredicate.Operator, _ value: QueryValue) -> Selection {
        .some(.predicate(QueryPredicate(attribute: attribute, test: .comparison(op, value))))
    }

    /// `field:value`.
    private static func match(_ field: ElasticsearchField, _ pattern: QueryPattern, inDefaultFields: Bool,
                              root: String) throws(ElasticsearchError) -> Selection {
        switch field.kind {
        case .text:
            var pattern = pattern
            if field == .contentType {
                // MIME types are kept in lowercase.
                pattern = QueryPattern(pattern.components.map { component in
                    if case .literal(let text) = component { .literal(text.lowercased()) } else { component }
                })
            }
            return predicate(field.attribute, .equal, .string(pattern, field.modifiers(inDefaultFields: inDefaultFields)))
        case .number:
            guard !pattern.hasWildcard, let number = Double(pattern.text) else {
                throw .query("field [\(field.rawValue)] holds numbers: [\(pattern.text)] is not one")
            }
            return predicate(field.attribute, .equal, .number(number))
        case .date:
            guard !pattern.hasWildcard else { throw .query("field [\(field.rawValue)] holds dates: no wildcards") }
            let (date, precision) = try ElasticsearchDate.parse(pattern.text, field: field)
            // The instant as precise as it was written: a second, a day.
            return .and([predicate(field.attribute, .greaterOrEqual, .date(.iso(date))),
                         predicate(field.attribute, .less, .date(.iso(date.addingTimeInterval(precision))))])
        case .path:
            if field == .realPathWords {
                guard !pattern.hasWildcard else { throw .query("[path.real.fulltext] takes a folder, without wildcards") }
                return below(folder: pattern.text, root: root)
            }
            return try realPath(pattern, root: root)
        }
    }

    /// `path.real:/srv/share/a.txt`, or a pattern whose literal start names the root's folder.
    private static func realPath(_ pattern: QueryPattern, root: String) throws(ElasticsearchError) -> Selection {
        let folder = root.hasSuffix("/") ? root : root + "/"
        guard pattern.hasWildcard else {
            guard let relative = relativePath(pattern.text, root: root), !relative.isEmpty else { return .none }
            return predicate(.path, .equal, .exactString(relative))
        }
        let start = pattern.components.first.flatMap { if case .literal(let text) = $0 { text } else { nil } } ?? ""
        guard start.hasPrefix(folder) else {
            if folder.hasPrefix(start) {
                throw .query("a [path.real] pattern must name a whole folder of an indexed root before its first wildcard")
            }
            return .none
        }
        var components = pattern.components
        components[0] = .literal(String(start.dropFirst(folder.count)))
        return predicate(.path, .equal, .string(QueryPattern(components), []))
    }

    /// The items below `folder`, an absolute path.
    private static func below(folder: String, root: String) -> Selection {
        var folder = folder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        guard let relative = relativePath(folder, root: root) else {
            // The root is that folder's descendant, or elsewhere.
            return folder == "/" || root.hasPrefix(folder + "/") ? .all : .none
        }
        if relative.isEmpty { return .all }
        let bounds = ItemIdentifier(relative).descendantBounds
        return .and([predicate(.path, .greaterOrEqual, .exactString(bounds.lower.lossyString)),
                     predicate(.path, .less, .exactString(bounds.upper.lossyString))])
    }

    /// `absolute` relative to `root`: `""` for the root itself, `nil` outside it.
    static func relativePath(_ absolute: String, root: String) -> String? {
        if absolute == root { return "" }
        let folder = root.hasSuffix("/") ? root : root + "/"
        return absolute.hasPrefix(folder) ? String(absolute.dropFirst(folder.count)) : nil
    }

    /// The DSL's `prefix` query, on a path or a name.
    private static func prefix(_ field: ElasticsearchField, _ text: String, root: String) throws(ElasticsearchError) -> Selection {
        switch field {
        case .realPath:
            if text.hasSuffix("/") { return below(folder: text, root: root) }
            let folder = root.hasSuffix("/") ? root : root + "/"
            if folder.hasPrefix(text) { return .all }
            guard let relative = relativePath(text, root: root) else { return .none }
            return predicate(.path, .equal, .string(QueryPattern([.literal(relative), .wildcard]), []))
        case .fileName:
            return predicate(.displayName, .equal, .string(QueryPattern([.literal(text), .wildcard]), []))
        default:
            throw .query("prefix queries are answered on [path.real] and [file.filename] only, not [\(field.rawValue)]")
        }
    }

    /// `field:[low TO high]` on a number or a date.
    private static func range(_ field: ElasticsearchField, lower: Bound?, upper: Bound?) throws(ElasticsearchError) -> Selection {
        func value(_ bound: Bound) throws(ElasticsearchError) -> QueryValue {
            switch field.kind {
            case .number:
                guard let number = Double(bound.text) else {
                    throw .query("field [\(field.rawValue)] holds numbers: [\(bound.text)] is not one")
                }
                return .number(number)
            case .date:
                return .date(.iso(try ElasticsearchDate.parse(bound.text, field: field).date))
            case .text, .path:
                throw .query("ranges are answered on numbers and dates, not on [\(field.rawValue)]")
            }
        }
        var parts: [Selection] = []
        if let lower { parts.append(predicate(field.attribute, lower.isInclusive ? .greaterOrEqual : .greater, try value(lower))) }
        if let upper { parts.append(predicate(field.attribute, upper.isInclusive ? .lessOrEqual : .less, try value(upper))) }
        if parts.isEmpty { return predicate(field.attribute, .greaterOrEqual, .number(-Double.greatestFiniteMagnitude)) }
        return .and(parts)
    }
}
