// mdoc(7), the semantic macros of BSD manual pages: what each line prints.
//
// A line's arguments are split into groups at the names of callable macros (`.Op Fl a Ar
// file` is `Op`, then `Fl a`, then `Ar file`); each group prints its words its macro's way
// (`Fl a` → `-a`, `Xr ls 1` → `ls(1)`), enclosures (`Op`, `Dq`…) close at the end of the
// line, and punctuation arguments (`.`, `,`, `)`) stick to the word before them.
extension RoffReader {
    /// Runs an mdoc macro line.
    mutating func mdocMacro(_ name: String, _ arguments: ArraySlice<Unicode.Scalar>) {
        let words = RoffEscapes.arguments(of: arguments)
        switch name {
        case "Dt":
            pageName = words.first.map { text(of: [$0]).text }
            pageSection = words.count > 1 ? text(of: [words[1]]).text : nil
        case "Dd", "Os", "Bk", "Ek", "Bf", "Ef", "Sm", "Db", "Xo", "Xc":
            break
        case "Sh", "Ss":
            heading(mdocPhrase(name, words).text)
        case "Pp", "Lp", "Bl", "El", "Rs", "Re":
            lineBreak()
        case "Bd":
            lineBreak()
            let literal = words.contains { ["-literal", "-unfilled", "-centered"].contains(String(String.UnicodeScalarView($0.scalars))) }
            isFilling = !literal
        case "Ed":
            lineBreak()
            isFilling = true
        case "D1", "Dl", "It":
            lineBreak()
            let phrase = mdocPhrase(name, words)
            write(phrase.text)
            if !phrase.text.isEmpty { lineBreak() }
        default:
            // In the SYNOPSIS, each command's name starts a line.
            if name == "Nm", sectionHeading == "SYNOPSIS" { lineBreak() }
            let phrase = mdocPhrase(name, words)
            if phrase.attachesToPrevious { joinsNext = true }
            write(phrase.text, joinsNext: phrase.leavesOpen)
        }
    }

    /// What an mdoc line prints, and how it meets the text around it.
    struct MdocPhrase {
        var text = ""
        /// No space before the next word (after `Ns`, an opening bracket, `Pf`'s prefix).
        var noSpace = false
        /// The closing characters of the enclosures open on the line, innermost last.
        var closers: [String] = []
        /// The line starts with a closing character or `Ns`: no space before it.
        var attachesToPrevious = false
        /// The line ends open (`Oo`, `Fo`'s parenthesis, `Ns`): no space after it.
        var leavesOpen: Bool { noSpace && !text.isEmpty }

        mutating func word(_ word: String) {
            guard !word.isEmpty else { return }
            if !text.isEmpty, !noSpace { text += " " }
            text += word
            noSpace = false
        }

        /// A word with no space before it: closing punctuation, a closing bracket.
        mutating func attach(_ word: String) {
            if text.isEmpty { attachesToPrevious = true }
            text += word
            noSpace = false
        }

        mutating func open(_ opening: String, closing: String?) {
            word(opening)
            noSpace = true
            if let closing { closers.append(closing) }
        }

        mutating func closeAll() {
            while let closer = closers.popLast() { attach(closer) }
        }
    }

    /// The text of an mdoc line: its macro `name` with its `arguments`.
    mutating func mdocPhrase(_ name: String, _ arguments: [RoffEscapes.Argument]) -> MdocPhrase {
        // Groups: a macro and the words up to the next callable macro.
        var groups: [(macro: String, words: [RoffEscapes.Argument])] = [(name, [])]
        for argument in arguments {
            let written = String(String.UnicodeScalarView(argument.scalars))
            if !argument.isQuoted, Self.callableMacros.contains(written) {
                groups.append((written, []))
            } else {
                groups[groups.count - 1].words.append(argument)
            }
        }
        var phrase = MdocPhrase()
        for (position, group) in groups.enumerated() {
            var words: [(text: String, isPunctuation: Bool)] = []
            for argument in group.words {
                let resolved = text(of: [argument]).text
                words.append((resolved, !argument.isQuoted && Self.isPunctuation(resolved)))
            }
            // Trailing punctuation of the line goes after the enclosures close: `[-a].`
            let trailing = position == groups.count - 1 ? words.reversed().prefix { $0.isPunctuation }.count : 0
            let body = Array(words.dropLast(trailing))
            mdocGroup(group.macro, body, into: &phrase)
            if trailing > 0 || position == groups.count - 1 { phrase.closeAll() }
            for (word, _) in words.suffix(trailing) { punctuation(word, into: &phrase) }
        }
        return phrase
    }

    /// Prints one macro's words.
    private mutating func mdocGroup(_ macro: String, _ words: [(text: String, isPunctuation: Bool)], into phrase: inout MdocPhrase) {
        let plain = words.filter { !$0.isPunctuation }.map(\.text)
        func rest(after count: Int) {
            var taken = 0
            for (word, isPunctuation) in words {
                if !isPunctuation, taken < count {
                    taken += 1
                    continue
                }
                if isPunctuation { punctuation(word, into: &phrase) } else { phrase.word(word) }
            }
        }
        switch macro {
        case "Fl":
            // `.Fl Fl long` is `--long`: a bare dash sticks to what follows.
            if plain.isEmpty {
                phrase.word("-")
                phrase.noSpace = true
            }
            for (word, isPunctuation) in words {
                if isPunctuation { punctuation(word, into: &phrase) } else { phrase.word("-" + word) }
            }
        case "Xr":
            guard let page = plain.first else { return rest(after: 0) }
            phrase.word(plain.count > 1 ? "\(page)(\(plain[1]))" : page)
            rest(after: 2)
        case "Nm":
            if mdocName == nil { mdocName = plain.first }
            if plain.isEmpty, let name = mdocName { phrase.word(name) }
            rest(after: 0)
        case "Nd":
            phrase.word("-")
            rest(after: 0)
        case "Ar":
            if plain.isEmpty { phrase.word("file ...") }
            rest(after: 0)
        case "Fn":
            guard let function = plain.first else { return rest(after: 0) }
            phrase.word(function + "(" + plain.dropFirst().joined(separator: ", ") + ")")
            rest(after: plain.count)
        case "Fo":
            guard let function = plain.first else { return }
            phrase.word(function + "(")
            phrase.noSpace = true
            functionArguments = 0
        case "Fa" where functionArguments != nil:
            // Inside `.Fo name` … `.Fc`, each argument after the first follows a comma.
            for word in plain {
                if let count = functionArguments, count > 0 { phrase.attach(",") }
                phrase.word(word)
                functionArguments = (functionArguments ?? 0) + 1
            }
        case "Fc":
            functionArguments = nil
            phrase.attach(")")
            rest(after: 0)
        case "In":
            if let header = plain.first { phrase.word((sectionHeading == "SYNOPSIS" ? "#include " : "") + "<\(header)>") }
            rest(after: 1)
        case "Ex", "Rv":
            let names = plain.filter { $0 != "-std" }
            let subject = (names.isEmpty ? mdocName.map { [$0] } ?? [] : names)
            if macro == "Ex" {
                phrase.word("The \(subject.joined(separator: ", ")) utility exits 0 on success, and >0 if an error occurs.")
            } else {
                phrase.word("The \(subject.map { $0 + "()" }.joined(separator: ", ")) function returns the value 0 if successful; "
                    + "otherwise the value -1 is returned and the global variable errno is set to indicate the error.")
            }
        case "An" where plain.first == "-split" || plain.first == "-nosplit":
            break
        case "Pf":
            phrase.word(plain.first ?? "")
            phrase.noSpace = true
            rest(after: 1)
        case "Ns":
            if phrase.text.isEmpty { phrase.attachesToPrevious = true }
            phrase.noSpace = true
            rest(after: 0)
        case "Ap":
            phrase.attach("'")
            phrase.noSpace = true
            rest(after: 0)
        case _ where Self.enclosures[macro] != nil:
            let (opening, closing) = Self.enclosures[macro]!
            phrase.open(opening, closing: closing)
            rest(after: 0)
        case _ where Self.openers[macro] != nil:
            phrase.open(Self.openers[macro]!, closing: nil)
            rest(after: 0)
        case _ where Self.closers[macro] != nil:
            phrase.attach(Self.closers[macro]!)
            rest(after: 0)
        case _ where Self.systems[macro] != nil:
            let system = Self.systems[macro]!
            phrase.word(macro == "Bx" ? (plain.first ?? "") + system : ([system] + plain.prefix(1)).joined(separator: " "))
            rest(after: 1)
        default:
            rest(after: 0)
        }
    }

    /// Punctuation sticks to the word before it, an opening bracket to the word after it; `|`
    /// stands between spaces.
    private func punctuation(_ word: String, into phrase: inout MdocPhrase) {
        if word == "|" {
            phrase.word(word)
        } else if word == "(" || word == "[" {
            phrase.word(word)
            phrase.noSpace = true
        } else {
            phrase.attach(word)
        }
    }

    /// mdoc's delimiters: an argument that is one of these is punctuation (`...` is not).
    static func isPunctuation(_ word: String) -> Bool {
        word.count == 1 && ".,:;)]?!([|".contains(word)
    }

    /// Macros that enclose the rest of their line.
    static let enclosures: [String: (String, String)] = [
        "Op": ("[", "]"), "Dq": ("“", "”"), "Qq": ("\"", "\""), "Sq": ("‘", "’"), "Ql": ("‘", "’"), "Pq": ("(", ")"),
        "Bq": ("[", "]"), "Brq": ("{", "}"), "Aq": ("<", ">"),
    ]
    /// Macros that open an enclosure a later macro closes, and those that close it.
    static let openers: [String: String] = ["Oo": "[", "Do": "“", "Qo": "\"", "So": "‘", "Po": "(", "Bo": "[", "Bro": "{", "Ao": "<"]
    static let closers: [String: String] = ["Oc": "]", "Dc": "”", "Qc": "\"", "Sc": "’", "Pc": ")", "Bc": "]", "Brc": "}", "Ac": ">"]

    /// The operating systems mdoc names, with their version argument after (`Bx`: before).
    static let systems: [String: String] = [
        "Bx": "BSD", "Nx": "NetBSD", "Fx": "FreeBSD", "Ox": "OpenBSD", "Dx": "DragonFly", "Bsx": "BSD/OS", "Ux": "UNIX",
        "At": "AT&T UNIX",
    ]

    /// The mdoc macros that may also stand among another macro's arguments.
    static let callableMacros: Set<String> = [
        "Ac", "Ad", "An", "Ao", "Ap", "Aq", "Ar", "At", "Bc", "Bo", "Bq", "Brc", "Bro", "Brq", "Bsx", "Bx", "Cd", "Cm",
        "Dc", "Do", "Dq", "Dv", "Dx", "Ec", "Em", "En", "Eo", "Er", "Es", "Ev", "Fa", "Fc", "Fl", "Fn", "Fr", "Ft", "Fx",
        "Ic", "In", "Li", "Lk", "Ms", "Mt", "Nm", "No", "Ns", "Nx", "Oc", "Oo", "Op", "Ot", "Ox", "Pa", "Pc", "Pf", "Po",
        "Pq", "Qc", "Ql", "Qo", "Qq", "Sc", "So", "Sq", "St", "Sx", "Sy", "Ta", "Tn", "Ux", "Va", "Vt", "Xc", "Xo", "Xr",
    ]

    /// Every mdoc macro, callable or not.
    static let mdocMacros: Set<String> = callableMacros.union([
        "Dd", "Dt", "Os", "Sh", "Ss", "Pp", "Lp", "D1", "Dl", "Bd", "Ed", "Bl", "El", "It", "Nd", "Bk", "Ek", "Bf",
        "Ef", "Sm", "Db", "Rs", "Re", "%A", "%B", "%C", "%D", "%I", "%J", "%N", "%O", "%P", "%Q", "%R", "%T", "%U",
        "%V", "Ex", "Rv", "Fo", "Fd", "Hf", "Lb", "Em", "Ud", "Bt",
    ])
}
