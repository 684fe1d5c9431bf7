import Foundation
import Testing

/// STYLE.md's habit 9, read from the sources: every public or open declaration under Sources/
/// (a type, protocol and its requirements, function, initializer, property, subscript, type
/// alias, a case of a public enum, and the members of a public extension) has a `///` or `/** */`
/// doc comment directly above it, attributes such as `@discardableResult` in between allowed.
@Suite("Doc comments")
struct DocCommentRuleTests {
    /// Witnesses of a standard protocol that says what they are for (`Equatable`, `Hashable`,
    /// `Comparable`, `Codable`, `CustomStringConvertible`, `LocalizedError`), by keyword and name,
    /// a function's name with its first argument label.
    static let protocolWitnesses: Set<String> = [
        "var description", "var debugDescription", "var errorDescription",
        "func hash(into:)", "func ==", "func <",
        "init(from:)", "func encode(to:)", "enum CodingKeys",
    ]

    @Test("Every public declaration has a doc comment")
    func everyPublicDeclarationIsDocumented() {
        var undocumented: [String] = []
        var count = 0
        // The source tree as the C module rule reads it.
        for file in CModuleRuleTests.swiftFiles().sorted(by: { $0.path < $1.path }) {
            let declarations = Self.publicDeclarations(in: file.text)
            count += declarations.count
            let missing = declarations.filter { !$0.documented && !Self.isWitness($0) }
            undocumented += missing.map { "Sources/\(file.path):\($0.line): \($0.code)" }
        }
        #expect(count > 1000, "only \(count) public declarations found: the rule no longer reads the sources")
        #expect(undocumented.isEmpty, "no doc comment:\n\(undocumented.joined(separator: "\n"))")
    }

    @Test("The rule sees through strings and comments, attributes and public extensions")
    func theRuleReadsSwift() {
        let text = #"""
        /// Documented.
        @discardableResult
        public func documented() -> Int { 1 }
        // An ordinary comment is no doc comment.
        public func commented() {}
        let text = "public func inAString()"
        let raw = #"public var inARawString = "\(x)""#
        /* public func inABlockComment() {} */
        /** Documented too. */
        public struct Thing {
            public var undocumentedMember: Int
            var internalMember: Int
            func internalMethod() { let x = "\("public func inAnInterpolation()")" }
        }
        public extension Thing {
            func implicitlyPublic() {}
            private func notPublic() {}
        }
        /// An enum.
        public enum Kind {
            case undocumentedCase
            var name: String { switch self { case .undocumentedCase: "x" } }
        }
        /// A protocol.
        public protocol Reading {
            func undocumentedRequirement()
        }
        """#
        let found = Self.publicDeclarations(in: text).filter { !$0.documented }.map(\.line)
        #expect(found == [5, 11, 15, 16, 21, 26])

        let witness = Self.publicDeclarations(in: "public func encode(to encoder: any Encoder) throws {}")
        let namesake = Self.publicDeclarations(in: "public func encode(_ value: Int) -> [UInt8] { [] }")
        #expect(witness.map(Self.isWitness) == [true] && namesake.map(Self.isWitness) == [false])
    }

    /// A public declaration the rule found, and whether a doc comment is above it.
    struct Declaration {
        var line: Int
        var keyword: String
        var name: String
        var code: String
        var documented: Bool
    }

    /// Whether the declaration only fulfils a standard protocol (``protocolWitnesses``).
    static func isWitness(_ declaration: Declaration) -> Bool {
        protocolWitnesses.contains(declaration.keyword == "init" ? declaration.name : "\(declaration.keyword) \(declaration.name)")
    }

    // MARK: Reading Swift

    /// The text's lines with comments and string literals blanked out, and which lines are
    /// (part of) a doc comment. Interpolations inside strings stay code; block comments nest.
    static func code(of text: String) -> (lines: [String], docLines: Set<Int>) {
        let characters = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var docLines: Set<Int> = []
        var line = 0
        var index = 0
        // Each open string: its closing quotes, raw `#`s, and the parentheses open in its
        // current interpolation (nil outside one).
        var strings: [(multiline: Bool, hashes: Int, interpolation: Int?)] = []

        func at(_ offset: Int) -> Unicode.Scalar? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        func starts(_ literal: String) -> Bool {
            for (offset, scalar) in literal.unicodeScalars.enumerated() where at(offset) != scalar { return false }
            return true
        }
        func emit(blank count: Int) {
            for _ in 0..<count {
                if characters[index] == "\n" { output.append("\n"); line += 1 } else { output.append(" ") }
                index += 1
            }
        }
        func emitCode() {
            if characters[index] == "\n" { line += 1 }
            output.append(characters[index])
            index += 1
        }
        var inCode: Bool { strings.last.map { $0.interpolation != nil } ?? true }

        while index < characters.count {
            if inCode {
                if starts("//") {
                    if starts("///") && !starts("////") { docLines.insert(line) }
                    while index < characters.count && characters[index] != "\n" { emit(blank: 1) }
                } else if starts("/*") {
                    let isDoc = starts("/**") && !starts("/**/")
                    var depth = 0
                    repeat {
                        if isDoc { docLines.insert(line) }
                        if starts("/*") { depth += 1; emit(blank: 2) }
                        else if starts("*/") { depth -= 1; emit(blank: 2) }
                        else { emit(blank: 1) }
                    } while depth > 0 && index < characters.count
                    if isDoc { docLines.insert(line) }
                } else if characters[index] == "\"" || (characters[index] == "#" && (at(1) == "\"" || at(1) == "#")) {
                    var hashes = 0
                    while at(hashes) == "#" { hashes += 1 }
                    guard at(hashes) == "\"" else { emitCode(); continue }
                    let multiline = at(hashes + 1) == "\"" && at(hashes + 2) == "\""
                    strings.append((multiline, hashes, nil))
                    emit(blank: hashes + (multiline ? 3 : 1))
                } else if var last = strings.popLast() {
                    if characters[index] == "(" { last.interpolation! += 1 }
                    if characters[index] == ")" { last.interpolation! -= 1 }
                    let closes = last.interpolation == 0
                    if closes { last.interpolation = nil }
                    strings.append(last)
                    if closes { emit(blank: 1) } else { emitCode() }
                } else {
                    emitCode()
                }
            } else {
                let string = strings[strings.count - 1]
                let escape = "\\" + String(repeating: "#", count: string.hashes)
                let close = (string.multiline ? "\"\"\"" : "\"") + String(repeating: "#", count: string.hashes)
                if starts(escape) {
                    if at(escape.unicodeScalars.count) == "(" {
                        strings[strings.count - 1].interpolation = 1
                        emit(blank: escape.unicodeScalars.count + 1)
                    } else {
                        emit(blank: escape.unicodeScalars.count + 1)
                    }
                } else if starts(close) {
                    strings.removeLast()
                    emit(blank: close.unicodeScalars.count)
                } else {
                    emit(blank: 1)
                }
            }
        }
        return (String(output).components(separatedBy: "\n"), docLines)
    }

    /// The words that may come before a declaration's keyword.
    static let modifiers: Set<String> = [
        "public", "open", "private", "fileprivate", "internal", "package", "static", "class", "final",
        "override", "mutating", "nonmutating", "convenience", "required", "nonisolated", "lazy", "weak",
        "unowned", "dynamic", "indirect", "prefix", "postfix", "infix", "optional", "consuming",
        "borrowing", "distributed",
    ]
    /// The words that start a declaration.
    static let keywords: Set<String> = [
        "func", "init", "deinit", "var", "let", "struct", "class", "enum", "protocol", "extension", "actor",
        "typealias", "subscript", "case", "associatedtype", "macro", "operator", "precedencegroup",
    ]
    /// The declarations whose braces hold members.
    static let scopes: Set<String> = ["struct", "class", "enum", "protocol", "extension", "actor"]

    /// The modifiers, keyword and name of the declaration a line of code starts, if it starts one.
    static func declaration(_ line: String) -> (modifiers: [String], keyword: String, name: String)? {
        let scalars = Array(line.unicodeScalars)
        var index = 0
        func skipSpaces() { while index < scalars.count && (scalars[index] == " " || scalars[index] == "\t") { index += 1 } }
        func word() -> String {
            var word = String.UnicodeScalarView()
            while index < scalars.count, scalars[index].properties.isAlphabetic || scalars[index] == "_"
                    || ("0"..."9").contains(scalars[index]) { word.append(scalars[index]); index += 1 }
            return String(word)
        }
        func skipParentheses() {
            guard index < scalars.count, scalars[index] == "(" else { return }
            var depth = 0
            repeat {
                if scalars[index] == "(" { depth += 1 } else if scalars[index] == ")" { depth -= 1 }
                index += 1
            } while depth > 0 && index < scalars.count
        }
        var found: [String] = []
        var keyword: String?
        while true {
            skipSpaces()
            guard index < scalars.count else { break }
            if scalars[index] == "@" {
                index += 1
                _ = word()
                skipParentheses()
                continue
            }
            let start = index
            let next = word()
            if keyword == "class" && (keywords.contains(next) || modifiers.contains(next)) {
                // `class func`, `class var`: the first `class` was a modifier.
                found.append("class")
                keyword = nil
            }
            if keyword == nil && keywords.contains(next) {
                keyword = next
                if next != "class" { break }
            } else if keyword == nil && modifiers.contains(next) {
                if index < scalars.count && scalars[index] == "(" { skipParentheses(); found.append(next + "()") } else {
                    found.append(next)
                }
            } else {
                index = start
                break
            }
        }
        guard let keyword else { return nil }
        skipSpaces()
        var name = word()
        let isIdentifier = !name.isEmpty || keyword == "init"
        if name.isEmpty {
            var symbol = String.UnicodeScalarView()
            while index < scalars.count, !" (".unicodeScalars.contains(scalars[index]) { symbol.append(scalars[index]); index += 1 }
            name = String(symbol)
        }
        if (keyword == "init" || keyword == "func") && isIdentifier {
            // A function by its name and first argument label, as `encode(to:)` or `init(from:)`.
            if keyword == "init" { name = "init" }
            while index < scalars.count, scalars[index] == "?" || scalars[index] == "!" || scalars[index] == "<" {
                if scalars[index] == "<" { while index < scalars.count && scalars[index] != ">" { index += 1 } }
                index += 1
            }
            if index < scalars.count, scalars[index] == "(" {
                index += 1
                skipSpaces()
                let label = word()
                name += label.isEmpty ? "()" : "(\(label):)"
            }
        }
        return (found, keyword, name)
    }

    /// The public and open declarations of a Swift file, explicitly so or as members of a
    /// public extension or protocol, and cases of a public enum.
    static func publicDeclarations(in text: String) -> [Declaration] {
        let (lines, docLines) = code(of: text)
        // Each open brace: whether declarations directly inside it are public without saying so
        // (a public extension's or protocol's), and whether its cases are (a public enum's).
        var braces: [(membersPublic: Bool, casesPublic: Bool)] = []
        // The type-like declaration waiting for its `{`, if any.
        var pending: (membersPublic: Bool, casesPublic: Bool)?
        var found: [Declaration] = []
        for (number, line) in lines.enumerated() {
            if let (modifiers, keyword, name) = declaration(line) {
                let explicit = modifiers.contains("public") || modifiers.contains("open")
                let hidden = ["private", "fileprivate", "internal", "package"].contains { modifiers.contains($0) }
                let inside = braces.last
                let isPublic: Bool
                if keyword == "case" {
                    isPublic = inside?.casesPublic == true
                } else {
                    isPublic = explicit || (!hidden && inside?.membersPublic == true)
                }
                if isPublic {
                    var above = number - 1
                    while above >= 0, lines[above].trimmingCharacters(in: .whitespaces).hasPrefix("@"), !docLines.contains(above) {
                        above -= 1
                    }
                    found.append(Declaration(line: number + 1, keyword: keyword, name: name,
                                             code: line.trimmingCharacters(in: .whitespaces),
                                             documented: above >= 0 && docLines.contains(above)))
                }
                if scopes.contains(keyword) {
                    pending = (membersPublic: isPublic && (keyword == "extension" || keyword == "protocol"),
                               casesPublic: isPublic && keyword == "enum")
                } else if keyword != "case" {
                    pending = nil
                }
            }
            for scalar in line.unicodeScalars {
                if scalar == "{" {
                    braces.append(pending ?? (false, false))
                    pending = nil
                } else if scalar == "}" {
                    _ = braces.popLast()
                }
            }
        }
        return found
    }
}
