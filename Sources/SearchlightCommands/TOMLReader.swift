import TOMLKit

/// Reads the tables of a parsed configuration file into a ``Configuration``, checking every
/// table, key and type. A mistake does not stop the reading: each is kept, with its line
/// (``TOMLLayout``: TOMLKit gives no positions for values) and the section it spoils, so that
/// a command stops only for those in the sections it reads (``Configuration/usable(reading:)``).
///
/// The tables and keys it knows are ``topLevelKeys``, ``tables`` and ``rootKeys``: a name
/// none of them has is a mistake, with the closest of them suggested (``ClosestName``).
struct TOMLReader {
    let file: String
    let layout: TOMLLayout
    let home: String

    init(file: String, text: String, home: String) {
        self.file = file
        layout = TOMLLayout(text: text)
        self.home = home
    }

    /// Reads `table` into `configuration`; returns the mistakes, in the order of the file.
    func read(_ table: TOMLTable, into configuration: inout Configuration) -> [ConfigurationError] {
        var problems: [ConfigurationError] = []
        for name in table.keys {
            let value = table[name]!
            let section = Configuration.Section(topLevel: name)
            let place = Place(reader: self, section: section, table: nil, key: name)
            do throws(ConfigurationError) {
                if let field = Self.topLevelKeys.first(where: { $0.name == name }) {
                    try field.read(value, place, &configuration)
                } else if section == .roots {
                    problems += readRoots(value, place: place, into: &configuration)
                } else if let fields = Self.tables.first(where: { $0.section == section })?.fields {
                    guard let entries = value.table else {
                        throw place.mistyped(value, expected: "a \(section.written) table")
                    }
                    problems += read(entries, fields, in: section, into: &configuration)
                } else {
                    throw unknownTopLevel(name, value)
                }
            } catch {
                problems.append(error)
            }
        }
        // By line; on one line, in the order found (`sorted` alone is not stable).
        return problems.enumerated().sorted { ($0.element.line ?? 0, $0.offset) < ($1.element.line ?? 0, $1.offset) }.map(\.element)
    }

    /// The keys of a table (or of one `[[roots]]`, the `index`th) read into `target`, each
    /// with its `fields`' reader; returns their mistakes.
    private func read<Target>(_ table: TOMLTable, _ fields: [Field<Target>], in section: Configuration.Section,
                              index: Int? = nil, into target: inout Target) -> [ConfigurationError] {
        var problems: [ConfigurationError] = []
        for key in table.keys {
            let place = Place(reader: self, section: section, table: section.rawValue, index: index, key: key)
            do throws(ConfigurationError) {
                guard let field = fields.first(where: { $0.name == key }) else {
                    let suggestion = ClosestName.suggestion(for: key, among: fields.map(\.name))
                    let hint = suggestion.map { " — did you mean \($0)?" }
                        ?? "; \(section.written) has \(Self.list(fields.map(\.name)))"
                    throw place.error(.unknownName, "unknown key \(key) in \(section.written)\(hint)")
                }
                try field.read(table[key]!, place, &target)
            } catch {
                problems.append(error)
            }
        }
        return problems
    }

    /// Every `[[roots]]`: each one's mistakes, then those of two roots with one domain.
    private func readRoots(_ value: TOMLValueConvertible, place: Place,
                           into configuration: inout Configuration) -> [ConfigurationError] {
        guard let array = value.array, array.allSatisfy({ $0.table != nil }) else {
            return [place.mistyped(value, expected: "[[roots]] tables (two brackets)")]
        }
        var problems: [ConfigurationError] = []
        for (index, element) in array.enumerated() {
            let table = element.table!
            let path = Place(reader: self, section: .roots, table: "roots", index: index, key: "path")
            var root = Configuration.Root(path: "", origin: path.origin)
            let found = read(table, Self.rootKeys, in: .roots, index: index, into: &root)
            if table["path"] == nil {
                problems.append(path.error(.invalidValue, "roots[\(index + 1)] has no path: every [[roots]] needs one"))
            }
            problems += found
            if found.isEmpty && table["path"] != nil { configuration.roots.append(root) }
        }
        var domains: [String: Int] = [:]
        for (index, root) in configuration.roots.enumerated() {
            let domain = root.domain ?? root.path
            if let first = domains[domain] {
                let key = Place(reader: self, section: .roots, table: "roots", index: index,
                                key: root.domain == nil ? "path" : "domain")
                problems.append(key.error(.invalidValue, "two roots share the domain \(ConfigurationError.quoted(domain)): "
                                          + "roots[\(first + 1)] and roots[\(index + 1)]"))
            }
            domains[domain] = domains[domain] ?? index
        }
        return problems
    }

    /// A top-level table or key the configuration does not have, with the closest one it has.
    private func unknownTopLevel(_ name: String, _ value: TOMLValueConvertible) -> ConfigurationError {
        let written = value.table != nil ? "table [\(name)]"
            : value.array.map { !$0.isEmpty && $0.allSatisfy { $0.table != nil } } == true ? "table [[\(name)]]"
            : "key \(name)"
        let names = Self.topLevelKeys.map(\.name) + [Configuration.Section.roots.rawValue] + Self.tables.map(\.section.rawValue)
        let suggestion = ClosestName.suggestion(for: name, among: names)
        let section = suggestion.map(Configuration.Section.init(topLevel:)) ?? .unknown
        let hint = suggestion.map { " — did you mean \(Configuration.Section(topLevel: $0).written)?" }
            ?? "; the file has \(Self.list(names.map { Configuration.Section(topLevel: $0).written }))"
        let place = Place(reader: self, section: section, table: nil, key: name)
        return place.error(.unknownName, "unknown \(written)\(hint)")
    }

    /// `a, b and c`.
    private static func list(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}

extension TOMLReader {
    /// A key the configuration has, and how its value is read into `Target` (a
    /// ``Configuration``, or one of its ``Configuration/Root``s).
    struct Field<Target>: Sendable {
        let name: String
        let read: @Sendable (TOMLValueConvertible, Place, inout Target) throws(ConfigurationError) -> Void

        init(_ name: String, _ read: @escaping @Sendable (TOMLValueConvertible, Place, inout Target) throws(ConfigurationError) -> Void) {
            self.name = name
            self.read = read
        }
    }
}
