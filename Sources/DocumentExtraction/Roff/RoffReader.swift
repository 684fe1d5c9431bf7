import ExtractionProtocol

/// Reads a roff document — a man(7) or mdoc(7) manual page, or an ms/me paper read generically —
/// line by line into the text it prints, without typesetting it.
///
/// Text lines are text; request and macro lines (`.` or `'` first) are not, except the text
/// their macros print (headings, font macros, mdoc's domain macros: see
/// RoffReader+Macros.swift and RoffReader+Mdoc.swift). Escapes are resolved by
/// ``RoffEscapes``; tables (tbl) become a line per row (RoffReader+Table.swift); eqn, pic
/// and grap blocks, macro definitions (`.de` … `..`) and `.ig` blocks are skipped. Filled
/// text (the default) joins its lines into paragraphs; `.nf`, `.EX`, mdoc's literal
/// displays keep them. Conditions are evaluated as an nroff terminal would (`n` is true,
/// `t` false, the groff register `.g` set), each branch read or skipped once.
///
/// Nothing is run: no macro is expanded, no loop (`.while`) entered, no file (`.so`) read; a
/// macro the document defines only breaks lines or switches filling when its body does, and
/// prints its arguments when its body prints them. So the reading is one pass over the lines,
/// bounded by the ``TextCollector``'s limit.
struct RoffReader {
    var output: TextCollector
    var escapes = RoffEscapes()
    /// Filled text (lines joined into paragraphs) rather than `.nf`'s lines as written.
    var isFilling = true
    /// The next text continues the last without a space (`\c`, mdoc's `Ns`, an open bracket).
    var joinsNext = false
    /// What the next text to print is: a heading or a tag, followed by a line break.
    var pending: PendingText?
    /// The body of a definition (`.de`, `.ig`) being skipped.
    var definition: Definition?
    /// The depth of the braces (`\{` … `\}`) of a branch being skipped.
    var skippedDepth = 0
    /// The results of `.ie` conditions that their `.el` has not taken yet.
    var conditions: [Bool] = []
    /// The macros the document defines, by what their bodies do.
    var macros: [String: MacroEffect] = [:]
    /// The request (`EN`, `PE`, `G2`) that ends the preprocessor block being skipped.
    var preprocessorEnd: String?
    /// The tbl table being read.
    var table: Table?
    /// `.TH` or `.Dt`: the page's name and section.
    var pageName: String?
    var pageSection: String?
    /// The last section's heading, and where in the text the first section (NAME) lies.
    var sectionHeading = ""
    var nameSection: (start: Int, end: Int?, isNamed: Bool)?
    /// mdoc: the page's name (its first `.Nm`), the open `.Fo` and its arguments so far.
    var mdocName: String?
    var functionArguments: Int?
    /// man: the address of the open `.UR` or `.MT` link.
    var link: String?

    enum PendingText { case heading, tag }

    /// A definition being skipped: the request that ends it, the macro it defines (nil for
    /// `.ig`) and what its body does so far.
    struct Definition {
        var end: String
        var name: String?
        var effect = MacroEffect()
    }

    /// What a macro the document defines does, as far as its text goes.
    struct MacroEffect {
        var breaksLine = false
        /// `.fi` (true) or `.nf` (false) in its body.
        var fills: Bool?
        /// Its body prints its arguments (`\$1` in a text line or a font macro).
        var printsArguments = false
    }

    /// A reader whose text is cut at `limit` bytes of UTF-8.
    init(limit: Int) {
        output = TextCollector(limit: limit)
    }

    /// Reads `text`, a whole document or the prefix of one.
    mutating func read(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var continued: [Unicode.Scalar] = []
        var start = 0
        while start < scalars.count {
            if output.isFull {
                output.markTruncated()
                return
            }
            var end = scalars[start...].firstIndex(of: "\n") ?? scalars.count
            let next = end + 1
            if end > start, scalars[end - 1] == "\r" { end -= 1 }
            let line = scalars[start..<end]
            start = next
            // A line ending in an unescaped backslash continues on the next one.
            let backslashes = line.reversed().prefix { $0 == "\\" }.count
            if backslashes % 2 == 1 {
                continued.append(contentsOf: line.dropLast())
                continue
            }
            if continued.isEmpty {
                readLine(line)
            } else {
                continued.append(contentsOf: line)
                readLine(continued[...])
                continued.removeAll(keepingCapacity: true)
            }
        }
        if !continued.isEmpty { readLine(continued[...]) }
    }

    /// One logical line (continuations joined).
    mutating func readLine(_ line: ArraySlice<Unicode.Scalar>) {
        if definition != nil {
            skipDefinitionLine(line)
            return
        }
        if skippedDepth > 0 {
            skippedDepth += Self.braceBalance(line)
            if skippedDepth < 0 { skippedDepth = 0 }
            return
        }
        if let end = preprocessorEnd {
            if Self.controlLine(line)?.name == end { preprocessorEnd = nil }
            return
        }
        if table != nil {
            tableLine(line)
            return
        }
        var line = line
        // A condition's body is read as a line of its own: a loop, not recursion, however
        // many conditions a line nests.
        while let request = Self.controlLine(line) {
            guard ["if", "ie", "el"].contains(request.name) else {
                run(request.name, request.arguments, line: line)
                return
            }
            guard let body = conditionBody(request.name, request.arguments) else { return }
            line = body
        }
        textLine(line)
    }

    // MARK: Text

    /// A line of text: its words continue the paragraph (or, without filling, make a line).
    mutating func textLine(_ line: ArraySlice<Unicode.Scalar>) {
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            // A blank line is a paragraph break.
            lineBreak()
            return
        }
        if isFilling, line.first == " " || line.first == "\t" { lineBreak() }
        var budget = remainingBudget
        let resolved = escapes.resolve(line, budget: &budget)
        // Spaces before a comment or at the end of a line are not the text's (scalars, not
        // characters: a Substring's `last` costs its length in a run of spaces).
        let scalars = resolved.text.unicodeScalars
        let end = scalars.lastIndex { $0 != " " && $0 != "\t" }.map { scalars.index(after: $0) } ?? scalars.startIndex
        write(String(scalars[..<end]), joinsNext: resolved.joinsNext)
    }

    /// Prints `text`: after a space in a paragraph (none when the last text said so), as a
    /// line of its own without filling; a pending heading or tag ends its line.
    mutating func write(_ text: String, joinsNext: Bool = false) {
        guard !text.isEmpty else {
            self.joinsNext = self.joinsNext || joinsNext
            return
        }
        if !self.joinsNext { output.appendSpace() }
        let start = output.utf8.count
        output.append(text)
        self.joinsNext = joinsNext
        if let kind = pending, !joinsNext {
            pending = nil
            output.appendBreak()
            if kind == .heading { startSection(text, at: start) }
        } else if !isFilling, !joinsNext {
            output.appendBreak()
        }
    }

    /// Ends the line (`.br`, a paragraph macro), unless it is empty.
    mutating func lineBreak() {
        output.appendBreak()
        joinsNext = false
    }

    /// A heading on a line of its own (`.SH`, `.Sh`), or on the next line when `text` is empty.
    mutating func heading(_ text: String) {
        lineBreak()
        guard !text.isEmpty else {
            pending = .heading
            return
        }
        let start = output.utf8.count
        output.append(text)
        lineBreak()
        startSection(text, at: start)
    }

    /// Notes a section's start, its heading written at `start`: the first section (NAME)
    /// holds the line that names the page.
    mutating func startSection(_ heading: String, at start: Int) {
        if nameSection != nil, nameSection?.end == nil { nameSection?.end = start }
        sectionHeading = heading
        if nameSection == nil { nameSection = (output.utf8.count, nil, heading.uppercased() == "NAME") }
    }

    /// The resolved text of `arguments`, joined by `separator`.
    mutating func text(of arguments: [RoffEscapes.Argument], separator: String = " ") -> Resolved {
        var budget = remainingBudget
        var parts: [String] = []
        var joinsNext = false
        for argument in arguments where budget > 0 {
            let resolved = escapes.resolve(argument.scalars, isQuoted: argument.isQuoted, budget: &budget)
            parts.append(resolved.text)
            joinsNext = resolved.joinsNext
        }
        return Resolved(text: parts.joined(separator: separator), joinsNext: joinsNext)
    }

    typealias Resolved = RoffEscapes.Resolved

    /// How many characters a line may still produce: the room left in the text, and one more
    /// to know that it was cut.
    var remainingBudget: Int { max(0, output.limit - output.utf8.count) + 1 }

    // MARK: Requests

    /// A request or macro line's name and arguments; nil for a text line. The name is empty
    /// for a comment (`.\"`) or a line of only a control character.
    static func controlLine(_ line: ArraySlice<Unicode.Scalar>) -> (name: String, arguments: ArraySlice<Unicode.Scalar>)? {
        guard let first = line.first, first == "." || first == "'" else { return nil }
        var index = line.startIndex + 1
        while index < line.endIndex, line[index] == " " || line[index] == "\t" { index += 1 }
        let start = index
        // A name ends at a space, or at an escape (`.el\{\`, `'br\}`).
        while index < line.endIndex, line[index] != " ", line[index] != "\t", line[index] != "\\" { index += 1 }
        guard index - start <= 32 else { return ("?", line[index...]) }
        return (String(String.UnicodeScalarView(line[start..<index])), line[index...])
    }

    /// Runs the request `name` of `line` (a `'` line does not break).
    mutating func run(_ name: String, _ arguments: ArraySlice<Unicode.Scalar>, line: ArraySlice<Unicode.Scalar>) {
        guard !name.isEmpty, name != "." else { return }
        if Self.mdocMacros.contains(name) {
            mdocMacro(name, arguments)
        } else if !macro(name, arguments, breaks: line.first == ".") {
            definedOrUnknownMacro(name, arguments, line: line)
        }
    }

    /// A macro the document defines does what its body does; any other name not known as a
    /// request is a package's macro (ms, me, mm), whose arguments are printed as text — or,
    /// after a `'`, text that happens to start with an apostrophe.
    mutating func definedOrUnknownMacro(_ name: String, _ arguments: ArraySlice<Unicode.Scalar>, line: ArraySlice<Unicode.Scalar>) {
        if let effect = macros[name] {
            if effect.breaksLine { lineBreak() }
            if let fills = effect.fills { isFilling = fills }
            if effect.printsArguments { write(text(of: RoffEscapes.arguments(of: arguments)).text) }
            return
        }
        guard !Self.silentRequests.contains(name) else { return }
        guard line.first == "." else { return textLine(line) }
        // Sizes and numbers (`.NH 2`, `.XY 1 "Title"`) are settings, not text.
        write(text(of: RoffEscapes.arguments(of: arguments).filter { !Self.isNumeric($0) }).text)
    }

    /// Whether an argument is a number (a level, a size), not text.
    static func isNumeric(_ argument: RoffEscapes.Argument) -> Bool {
        argument.scalars.allSatisfy { ("0"..."9").contains($0) || $0 == "." || $0 == "-" || $0 == "+" }
    }

    // MARK: Conditions

    /// The body of `.if`, `.ie` or `.el` to read as a line, nil when there is none to read (the
    /// branch is not taken, or it opens a block whose lines follow).
    mutating func conditionBody(_ name: String, _ arguments: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar>? {
        var rest = arguments
        let taken: Bool
        if name == "el" {
            taken = !(conditions.popLast() ?? true)
        } else {
            (taken, rest) = condition(arguments)
            if name == "ie" {
                conditions.append(taken)
                // An .ie without its .el must not grow the stack without bound.
                if conditions.count > 64 { conditions.removeFirst() }
            }
        }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard taken else {
            skippedDepth = max(0, Self.braceBalance(rest))
            return nil
        }
        if rest.starts(with: ["\\", "{"]) { rest = rest.dropFirst(2).drop { $0 == " " || $0 == "\t" } }
        return rest.isEmpty ? nil : rest
    }

    /// Evaluates a condition as nroff on a terminal would, and returns what follows it.
    func condition(_ arguments: ArraySlice<Unicode.Scalar>) -> (Bool, ArraySlice<Unicode.Scalar>) {
        var rest = arguments.drop { $0 == " " || $0 == "\t" }
        var negated = false
        while rest.first == "!" {
            negated.toggle()
            rest = rest.dropFirst()
        }
        guard let first = rest.first else { return (false, rest) }
        let value: Bool
        switch first {
        case "n", "o":
            value = true
            rest = rest.dropFirst()
        case "t", "e", "v", "h":
            value = false
            rest = rest.dropFirst()
        case "d", "r", "m", "c", "F", "S":
            rest = rest.dropFirst().drop { $0 == " " }
            let name = rest.prefix { $0 != " " && $0 != "\t" }
            rest = rest.dropFirst(name.count)
            let key = String(String.UnicodeScalarView(name))
            value = first == "d" && (escapes.strings[key] != nil || macros[key] != nil)
        case "'", "\"", "|", "/":
            // 'a'b': two strings compared.
            let parts = rest.dropFirst().split(separator: first, maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { return (false, []) }
            var budget = 1024
            value = escapes.resolve(parts[0], budget: &budget).text == escapes.resolve(parts[1], budget: &budget).text
            rest = parts[2]
        default:
            // A numeric expression: only groff's `.g` register and plain numbers are known.
            let expression = rest.prefix { $0 != " " && $0 != "\t" }
            rest = rest.dropFirst(expression.count)
            let written = String(String.UnicodeScalarView(expression))
            value = written == "\\n(.g" || written == "\\n[.g]" || (Int(written).map { $0 > 0 } ?? false)
        }
        return (value != negated, rest)
    }

    /// Blocks opened (`\{`) minus blocks closed (`\}`) in `line`.
    static func braceBalance(_ line: ArraySlice<Unicode.Scalar>) -> Int {
        var balance = 0
        var index = line.startIndex
        while index + 1 < line.endIndex {
            guard line[index] == "\\" else {
                index += 1
                continue
            }
            if line[index + 1] == "{" { balance += 1 }
            if line[index + 1] == "}" { balance -= 1 }
            index += 2
        }
        return balance
    }

    // MARK: Definitions

    /// `.de name [end]`, `.am`, `.ig [end]`…: the body that follows is skipped up to `..` (or
    /// `.end`), and what it does is noted for the macro.
    mutating func beginDefinition(_ request: String, _ arguments: ArraySlice<Unicode.Scalar>) {
        let words = RoffEscapes.arguments(of: arguments).map { String(String.UnicodeScalarView($0.scalars)) }
        if request == "ig" {
            definition = Definition(end: words.first ?? ".", name: nil)
        } else if let name = words.first {
            var effect = MacroEffect()
            if request.hasPrefix("am"), let existing = macros[name] { effect = existing }
            definition = Definition(end: words.count > 1 ? words[1] : ".", name: name, effect: effect)
        }
    }

    mutating func skipDefinitionLine(_ line: ArraySlice<Unicode.Scalar>) {
        guard var current = definition else { return }
        guard let request = Self.controlLine(line) else {
            if line.contains("$") { current.effect.printsArguments = true }
            definition = current
            return
        }
        if request.name == current.end || (current.end == "." && line.starts(with: [".", "."])) {
            if let name = current.name, macros.count < 4096 || macros[name] != nil { macros[name] = current.effect }
            definition = nil
            return
        }
        switch request.name {
        case "nf", "EX", "Vb":
            current.effect.fills = false
            current.effect.breaksLine = true
        case "fi", "EE", "Ve":
            current.effect.fills = true
            current.effect.breaksLine = true
        case _ where Self.breakingRequests.contains(request.name): current.effect.breaksLine = true
        case _ where Self.fontMacros.contains(request.name) && request.arguments.contains("$"):
            current.effect.printsArguments = true
        default: break
        }
        definition = current
    }

    /// `.ds name value`, `.as`: the value resolved now (so that it is never expanded again),
    /// at most 256 characters, at most 4096 strings.
    mutating func defineString(_ request: String, _ arguments: ArraySlice<Unicode.Scalar>) {
        let rest = arguments.drop { $0 == " " || $0 == "\t" }
        let name = rest.prefix { $0 != " " && $0 != "\t" }
        guard !name.isEmpty else { return }
        var value = rest.dropFirst(name.count).drop { $0 == " " || $0 == "\t" }
        if value.first == "\"" { value = value.dropFirst() }
        var budget = 256
        let key = String(String.UnicodeScalarView(name))
        let resolved = escapes.resolve(value, budget: &budget).text
        guard escapes.strings.count < 4096 || escapes.strings[key] != nil else { return }
        escapes.strings[key] = String((request.hasPrefix("as") ? (escapes.strings[key] ?? "") + resolved : resolved).prefix(256))
    }

    // MARK: Result

    /// The text read, with the page's title (`name(section)`) and the NAME section's line as
    /// its subject.
    var document: ExtractedDocument {
        var document = ExtractedDocument(text: output.text, isTextTruncated: output.isTruncated)
        var nameLine: String?
        if let section = nameSection {
            let bytes = output.utf8[min(section.start, output.utf8.count)..<min(section.end ?? output.utf8.count, output.utf8.count)]
            let line = DocumentText.collapsingWhitespace(String(decoding: bytes, as: UTF8.self))
            // The NAME section's line: `name - description`, under a heading in any language.
            let isNameLine = section.isNamed || [" -", " —", " –"].contains { line.contains($0) }
            nameLine = isNameLine && !line.isEmpty ? String(line.prefix(500)) : nil
        }
        document.subject = nameLine
        if var name = pageName, !name.isEmpty {
            // `.TH LS 1` names the page in capitals; its NAME line spells it as it is typed.
            let named = nameLine?.prefix { $0 != " " && $0 != "," }
            if let named, named.lowercased() == name.lowercased(), name == name.uppercased() { name = String(named) }
            document.title = pageSection.map { $0.isEmpty ? name : "\(name)(\($0))" } ?? name
        }
        return document
    }
}
