import ExtractionProtocol

/// Markdown: the title from YAML front matter (`title:`) or the first heading (ATX `# …` or
/// Setext, underlined with `===`/`---`), authors and keywords from front matter (`author:`,
/// `authors:`, `tags:`, `keywords:`), and the text without its markup.
enum MarkdownExtractor {
    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        let (bytes, isComplete) = try source.prefix(maxBytes: source.rawLimit(factor: 2))
        var document = parse(try TextDecoding.decode(bytes, isComplete: isComplete).text)
        document.isTextTruncated = !isComplete
        return document
    }

    /// Reads a Markdown text.
    static func parse(_ markdown: String) -> ExtractedDocument {
        var lines = markdown.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var document = ExtractedDocument()
        if let frontMatter = FrontMatter(lines) {
            document.title = frontMatter.values["title"]?.first
            document.authors = (frontMatter.values["author"] ?? []) + (frontMatter.values["authors"] ?? [])
            document.keywords = (frontMatter.values["keywords"] ?? []) + (frontMatter.values["tags"] ?? [])
            document.subject = frontMatter.values["description"]?.first
            lines.removeFirst(frontMatter.lineCount)
        }
        var text: [Substring] = []
        var inFence = false
        for (index, line) in lines.enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence.toggle()
                continue
            }
            if inFence {
                // Code is searchable as written.
                text.append(line)
                continue
            }
            if let heading = atxHeading(trimmed) {
                if document.title == nil { document.title = String(heading) }
                text.append(inlineText(heading)[...])
                continue
            }
            if isUnderline(trimmed) {
                // A Setext heading's underline, or a rule.
                if document.title == nil, index > 0, !lines[index - 1].allSatisfy(\.isWhitespace),
                   !isUnderline(lines[index - 1].drop { $0 == " " }) {
                    document.title = DocumentText.trimming(lines[index - 1])
                }
                continue
            }
            if isReferenceDefinition(trimmed) || isTableRule(trimmed) { continue }
            text.append(inlineText(blockContent(trimmed))[...])
        }
        document.text = text.joined(separator: "\n")
        return document
    }

    /// The text of an ATX heading (`## Title ##` → `Title`), or nil.
    static func atxHeading(_ line: Substring) -> Substring? {
        let hashes = line.prefix { $0 == "#" }
        guard (1...6).contains(hashes.count) else { return nil }
        let rest = line.dropFirst(hashes.count)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var heading = rest.drop { $0 == " " || $0 == "\t" }
        while heading.last == "#" || heading.last == " " || heading.last == "\t" { heading = heading.dropLast() }
        return heading
    }

    /// `===`, `---`, `***`, `___` lines (at least two characters of one kind).
    static func isUnderline(_ line: Substring) -> Bool {
        let marks = line.filter { $0 != " " && $0 != "\t" }
        guard marks.count >= 2, let first = marks.first, "=-*_".contains(first) else { return false }
        return marks.allSatisfy { $0 == first }
    }

    /// `[label]: https://…`
    static func isReferenceDefinition(_ line: Substring) -> Bool {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return false }
        return line[line.index(after: close)...].first == ":"
    }

    /// A table's `|---|:--:|` line.
    static func isTableRule(_ line: Substring) -> Bool {
        line.contains("-") && line.allSatisfy { "|-: \t".contains($0) }
    }

    /// A line without its block markers: quotes (`>`), list bullets and numbers, table pipes.
    static func blockContent(_ line: Substring) -> Substring {
        var line = line
        while line.first == ">" { line = line.dropFirst().drop { $0 == " " } }
        if let first = line.first, "-*+".contains(first), line.dropFirst().first == " " {
            line = line.dropFirst(2)
        } else {
            let digits = line.prefix { $0.isASCII && $0.isNumber }
            let after = line.dropFirst(digits.count)
            if !digits.isEmpty, digits.count <= 9, after.first == "." || after.first == ")", after.dropFirst().first == " " {
                line = after.dropFirst(2)
            }
        }
        if line.hasPrefix("[ ] ") || line.hasPrefix("[x] ") || line.hasPrefix("[X] ") { line = line.dropFirst(4) }
        return line
    }

    /// Inline markup removed: images become their alt text, links their text, code spans
    /// and emphasis their content, HTML tags nothing, entities their character.
    static func inlineText(_ line: Substring) -> String {
        var result = ""
        var rest = line
        var closing = ClosingFinder()
        while let character = rest.first {
            switch character {
            case "!" where rest.dropFirst().first == "[":
                rest = rest.dropFirst()
            case "[":
                // [text](url) or [text][ref]: keep the text, drop the target.
                if let close = closing.next("]", in: rest) {
                    result += inlineText(rest[rest.index(after: rest.startIndex)..<close])
                    rest = rest[rest.index(after: close)...]
                    if let opener = rest.first, opener == "(" || opener == "[",
                       let end = closing.next(opener == "(" ? ")" : "]", in: rest) {
                        rest = rest[rest.index(after: end)...]
                    }
                } else {
                    result.append(character)
                    rest = rest.dropFirst()
                }
            case "<":
                // An autolink keeps its address; a tag goes.
                if let close = closing.next(">", in: rest) {
                    let inside = rest[rest.index(after: rest.startIndex)..<close]
                    if inside.contains("://") || (inside.contains("@") && !inside.contains(" ")) {
                        result += inside
                    } else {
                        result.append(" ")
                    }
                    rest = rest[rest.index(after: close)...]
                } else {
                    result.append(character)
                    rest = rest.dropFirst()
                }
            case "*", "`", "~", "|":
                if character == "|" { result.append(" ") }
                rest = rest.dropFirst()
            case "_":
                // Emphasis marks stand next to a space or the line's ends; snake_case keeps its underscores.
                let previous = result.last
                let next = rest.dropFirst().first
                let isWordInside = previous.map { $0.isLetter || $0.isNumber } == true
                    && next.map { $0.isLetter || $0.isNumber } == true
                if isWordInside { result.append(character) }
                rest = rest.dropFirst()
            case "\\":
                // A backslash escape keeps the escaped character.
                rest = rest.dropFirst()
                if let escaped = rest.first {
                    result.append(escaped)
                    rest = rest.dropFirst()
                }
            default:
                result.append(character)
                rest = rest.dropFirst()
            }
        }
        return DocumentText.decodingEntities(result)
    }
}

/// Finds closing characters (`]`, `)`, `>`) in a line read from left to right, remembering
/// each search: a line of a million unclosed `[` costs one scan, not a million.
struct ClosingFinder {
    /// For each character: where it next occurs (nil: nowhere in the rest of the line).
    private var found: [Character: Substring.Index?] = [:]

    /// The first `character` in `rest`, which must be a suffix of the line of earlier calls.
    mutating func next(_ character: Character, in rest: Substring) -> Substring.Index? {
        if let known = found[character] {
            guard let index = known else { return nil }
            if index >= rest.startIndex { return index }
        }
        let index = rest.firstIndex(of: character)
        found[character] = .some(index)
        return index
    }
}

/// YAML front matter between `---` lines at the top of a Markdown file: scalar values
/// (`title: "A trip"`), inline lists (`tags: [a, b]`) and block lists (`- a`).
struct FrontMatter {
    /// The values of each key, lowercased.
    var values: [String: [String]] = [:]
    /// Lines taken, fences included.
    var lineCount = 0

    init?(_ lines: [Substring]) {
        guard lines.first.map({ DocumentText.trimming($0) }) == "---" else { return nil }
        guard let end = lines.dropFirst().prefix(500).firstIndex(where: {
            let line = DocumentText.trimming($0)
            return line == "---" || line == "..."
        }) else { return nil }
        lineCount = end + 1
        var key: String?
        for line in lines[1..<end] {
            let trimmed = DocumentText.trimming(line)
            if trimmed.hasPrefix("- "), let key {
                values[key, default: []].append(Self.unquoted(trimmed.dropFirst(2)))
                continue
            }
            guard !line.hasPrefix(" "), let colon = line.firstIndex(of: ":") else { continue }
            let name = DocumentText.trimming(line[..<colon]).lowercased()
            key = name
            let value = DocumentText.trimming(line[line.index(after: colon)...])
            if value.hasPrefix("[") && value.hasSuffix("]") {
                values[name, default: []] += value.dropFirst().dropLast().split(separator: ",").map(Self.unquoted)
            } else if !value.isEmpty {
                values[name, default: []].append(Self.unquoted(value[...]))
            }
        }
    }

    static func unquoted(_ value: Substring) -> String {
        DocumentText.trimming(DocumentText.trimming(value), "\"'")
    }
}
