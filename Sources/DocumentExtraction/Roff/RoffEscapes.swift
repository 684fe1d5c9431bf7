/// Roff's escapes resolved to the characters they print, and a request's line split into its
/// arguments.
///
/// Fonts (`\fB`), sizes (`\s-1`), motions and drawings (`\h'…'`, `\v'…'`, `\w'…'`, `\o'…'`),
/// registers (`\n[…]`) and the other escapes that print nothing are dropped; named characters
/// (`\(em`, `\[u00E9]`) and strings (`\*(lq`, and those the document defines with `.ds`) become
/// their text, through ``RoffGlyphs``. Nothing is expanded twice — a string's value is stored
/// resolved — so a line costs one pass, however its escapes nest.
struct RoffEscapes {
    /// The strings the document defines (`.ds`), by name, their values already resolved.
    var strings: [String: String] = [:]

    /// A line's text, and whether it ends in `\c`, which joins it to the next line's text.
    struct Resolved {
        var text: String
        var joinsNext: Bool
    }

    /// One argument of a request or macro, as written, and whether it was quoted (a quoted
    /// argument is never an mdoc macro's name, and `""` inside it is one `"`).
    struct Argument {
        var scalars: ArraySlice<Unicode.Scalar>
        var isQuoted: Bool
    }

    /// The text `line` prints.
    ///
    /// - Parameters:
    ///   - isQuoted: the line is a quoted argument, where `""` is a quote.
    ///   - budget: how many characters may still be produced; each one produced is taken from
    ///     it, and resolving stops when it runs out (a short line of strings can say a lot).
    func resolve(_ line: ArraySlice<Unicode.Scalar>, isQuoted: Bool = false, budget: inout Int) -> Resolved {
        var output = Output(budget: budget)
        defer { budget = output.budget }
        var finder = DelimiterFinder(line)
        let end = line.endIndex
        let lastVisible = line.lastIndex { $0 != " " && $0 != "\t" } ?? line.startIndex
        var joinsNext = false
        var index = line.startIndex
        while index < end, output.budget > 0 {
            let scalar = line[index]
            index += 1
            if scalar != "\\" {
                if isQuoted, scalar == "\"", index < end, line[index] == "\"" { index += 1 }
                output.append(scalar)
                continue
            }
            guard index < end else { break }
            let escape = line[index]
            index += 1
            switch escape {
            case "\"", "#", "!", "?":
                // A comment, a transparent line, an embedded request: the rest of the line is not text.
                return Resolved(text: output.text, joinsNext: false)
            case "\\", "e", "E": output.emit("\\")
            case "-": output.emit("-")
            case ".": output.emit(".")
            case "'": output.emit("´")
            case "`": output.emit("`")
            case " ", "~", "0", "t": output.emit(" ")
            case "c":
                joinsNext = index > lastVisible
            case "(":
                let name = line[index..<min(index + 2, end)]
                index = min(index + 2, end)
                if let text = RoffGlyphs.character(named: String(String.UnicodeScalarView(name))) { output.emit(text) }
            case "[":
                let name = finder.take(upTo: "]", from: &index)
                if let text = RoffGlyphs.character(named: String(String.UnicodeScalarView(name))) { output.emit(text) }
            case "*":
                let name = Self.name(in: line, at: &index, finder: &finder)
                // `\*[name arguments]`: groff's strings with arguments are named by their first word.
                let key = String(String.UnicodeScalarView(name.prefix { $0 != " " }))
                if let text = strings[key] ?? RoffGlyphs.string(named: key) { output.emit(text) }
            case "n":
                if index < end, line[index] == "+" || line[index] == "-" { index += 1 }
                _ = Self.name(in: line, at: &index, finder: &finder)
            case "f", "F", "g", "k", "m", "M", "V", "Y", "$", "O":
                _ = Self.name(in: line, at: &index, finder: &finder)
            case "s":
                Self.skipSize(in: line, at: &index, finder: &finder)
            case "N":
                // A glyph by its number in the font: ASCII in the fonts that matter for text.
                let number = Self.delimited(in: line, at: &index, finder: &finder)
                if let code = UInt32(String(String.UnicodeScalarView(number))), code < 0x80, let character = Unicode.Scalar(code) {
                    output.emit(String(character))
                }
            case "C":
                let name = Self.delimited(in: line, at: &index, finder: &finder)
                if let text = RoffGlyphs.character(named: String(String.UnicodeScalarView(name))) { output.emit(text) }
            case "h":
                // A motion to the right separates words (`\h'+01'` after a list's number).
                let distance = Self.delimited(in: line, at: &index, finder: &finder)
                if let first = distance.first, first != "-", !distance.allSatisfy({ $0 == "0" || $0 == "." }) { output.emit(" ") }
            case "v", "w", "o", "b", "l", "L", "D", "x", "X", "Z", "R", "A", "B", "S", "H":
                _ = Self.delimited(in: line, at: &index, finder: &finder)
            case "&", ":", "%", ")", "/", ",", "|", "^", "a", "d", "u", "r", "p", "z", "{", "}":
                // Zero-width, hyphenation, spacing and motion marks print nothing.
                break
            default:
                // An unknown escape prints the character escaped.
                output.append(escape)
            }
        }
        return Resolved(text: output.text, joinsNext: joinsNext)
    }

    /// What a line prints so far, and how much more it may.
    private struct Output {
        /// A `String`, whose appends grow it geometrically (`UnicodeScalarView`'s
        /// `append(contentsOf:)` reserves exactly what it appends: quadratic over a long line).
        var text = ""
        var budget: Int

        mutating func append(_ scalar: Unicode.Scalar) {
            text.unicodeScalars.append(scalar)
            budget -= 1
        }

        mutating func emit(_ piece: String) {
            text += piece
            budget -= piece.unicodeScalars.count
        }
    }

    /// The name after `\*`, `\n`, `\f`…: one character, `(xy`, or `[name]`.
    static func name(in line: ArraySlice<Unicode.Scalar>, at index: inout Int, finder: inout DelimiterFinder)
        -> ArraySlice<Unicode.Scalar>
    {
        guard index < line.endIndex else { return [] }
        switch line[index] {
        case "(":
            let start = index + 1
            index = min(start + 2, line.endIndex)
            return line[min(start, line.endIndex)..<index]
        case "[":
            index += 1
            return finder.take(upTo: "]", from: &index)
        default:
            index += 1
            return line[(index - 1)..<index]
        }
    }

    /// An argument between delimiters, as in `\h'1m'`: the character after the escape opens
    /// it, its next occurrence closes it (the rest of the line when there is none). A
    /// character outside ASCII delimits nothing.
    static func delimited(in line: ArraySlice<Unicode.Scalar>, at index: inout Int, finder: inout DelimiterFinder)
        -> ArraySlice<Unicode.Scalar>
    {
        guard index < line.endIndex, line[index].isASCII else { return [] }
        let delimiter = line[index]
        index += 1
        return finder.take(upTo: delimiter, from: &index)
    }

    /// `\s0`, `\s-1`, `\s+2`, `\s12`, `\s(12`, `\s[12]`, `\s'12'`, `\s-(12`.
    static func skipSize(in line: ArraySlice<Unicode.Scalar>, at index: inout Int, finder: inout DelimiterFinder) {
        let end = line.endIndex
        var signed = false
        if index < end, line[index] == "+" || line[index] == "-" {
            index += 1
            signed = true
        }
        guard index < end else { return }
        switch line[index] {
        case "(":
            index = min(index + 3, end)
        case "[":
            index += 1
            _ = finder.take(upTo: "]", from: &index)
        case "'":
            _ = delimited(in: line, at: &index, finder: &finder)
        case "0"..."9":
            // groff reads two digits when the first is 1 to 3 (`\s12`), one otherwise.
            let first = line[index]
            index += 1
            if !signed, ("1"..."3").contains(first), index < end, ("0"..."9").contains(line[index]) { index += 1 }
        default:
            break
        }
    }

    /// The arguments of a request or macro line (after its name): words separated by spaces,
    /// or quoted (`"two words"`, with `""` for a quote inside); a comment (`\"`) ends them.
    static func arguments(of line: ArraySlice<Unicode.Scalar>) -> [Argument] {
        var arguments: [Argument] = []
        var index = line.startIndex
        let end = line.endIndex
        while index < end {
            while index < end, line[index] == " " || line[index] == "\t" { index += 1 }
            guard index < end else { break }
            let isQuoted = line[index] == "\""
            if isQuoted { index += 1 }
            let start = index
            var argumentEnd: Int?
            var endsLine = false
            while index < end, argumentEnd == nil {
                let scalar = line[index]
                if scalar == "\\" {
                    if index + 1 < end, line[index + 1] == "\"" || line[index + 1] == "#" {
                        argumentEnd = index
                        endsLine = true
                    } else {
                        index += 2
                    }
                } else if isQuoted, scalar == "\"" {
                    if index + 1 < end, line[index + 1] == "\"" {
                        index += 2
                    } else {
                        argumentEnd = index
                        index += 1
                    }
                } else if !isQuoted, scalar == " " || scalar == "\t" {
                    argumentEnd = index
                } else {
                    index += 1
                }
            }
            let stop = min(argumentEnd ?? end, end)
            if stop > start || isQuoted {
                arguments.append(Argument(scalars: line[start..<stop], isQuoted: isQuoted))
            }
            if endsLine { break }
        }
        return arguments
    }
}

/// Finds the next occurrence of ASCII delimiters in a line read from left to right,
/// remembering each search, so that a line of a million unclosed `\h'` costs one pass per
/// delimiter character, not one per escape.
struct DelimiterFinder {
    private let line: ArraySlice<Unicode.Scalar>
    /// Per ASCII character: where it was last found, or `Int.max` when it is nowhere from
    /// `searchedFrom` on; nil before the first search.
    private var found: [Int]?
    private var searchedFrom: [Int] = []

    init(_ line: ArraySlice<Unicode.Scalar>) {
        self.line = line
    }

    /// The text from `index` to the next `delimiter` (the rest of the line when there is
    /// none); `index` moves past the delimiter.
    mutating func take(upTo delimiter: Unicode.Scalar, from index: inout Int) -> ArraySlice<Unicode.Scalar> {
        let start = min(index, line.endIndex)
        guard let close = next(delimiter, from: start) else {
            index = line.endIndex
            return line[start...]
        }
        index = close + 1
        return line[start..<close]
    }

    private mutating func next(_ delimiter: Unicode.Scalar, from start: Int) -> Int? {
        let key = Int(delimiter.value)
        guard key < 128 else { return nil }
        if found == nil {
            found = Array(repeating: -1, count: 128)
            searchedFrom = Array(repeating: Int.max, count: 128)
        }
        let known = found![key]
        if known >= start, known != Int.max { return known }
        if known == Int.max, searchedFrom[key] <= start { return nil }
        let position = line[start...].firstIndex(of: delimiter)
        found![key] = position ?? Int.max
        searchedFrom[key] = start
        return position
    }
}
