// roff's requests and the man(7) macros (with the ms and me macros that break lines or
// switch filling): what each prints, if anything.
extension RoffReader {
    /// Runs a request or a man, ms or me macro; false when the name is none of them.
    mutating func macro(_ name: String, _ arguments: ArraySlice<Unicode.Scalar>, breaks: Bool) -> Bool {
        switch name {
        case "TH":
            let words = RoffEscapes.arguments(of: arguments)
            pageName = words.first.map { text(of: [$0]).text }
            pageSection = words.count > 1 ? text(of: [words[1]]).text : nil
        case "SH", "SS":
            heading(text(of: RoffEscapes.arguments(of: arguments)).text)
        case "TP", "TQ":
            lineBreak()
            pending = .tag
        case "sh", "uh":
            // me's numbered and unnumbered headings: `.sh 1 "Title"`.
            heading(text(of: RoffEscapes.arguments(of: arguments).filter { !Self.isNumeric($0) }).text)
        case "IP", "ip":
            // `.IP tag width`: the tag starts the paragraph.
            lineBreak()
            if let tag = RoffEscapes.arguments(of: arguments).first { write(text(of: [tag]).text) }
        case "B", "I", "SM", "SB", "R", "CW", "UL", "BX", "LG", "NL", "b", "i", "r", "u", "bi", "bx", "q":
            let resolved = text(of: RoffEscapes.arguments(of: arguments))
            write(resolved.text, joinsNext: resolved.joinsNext)
        case "BR", "BI", "IR", "RB", "RI", "IB":
            // Alternating fonts, the arguments joined with no space: `.BR ls (1)` is `ls(1)`.
            let resolved = text(of: RoffEscapes.arguments(of: arguments), separator: "")
            write(resolved.text, joinsNext: resolved.joinsNext)
        case "MR":
            // groff 1.23's `.MR ls 1 ,`: `ls(1),`.
            let words = RoffEscapes.arguments(of: arguments).map { text(of: [$0]).text }
            if let page = words.first {
                write(page + (words.count > 1 ? "(\(words[1]))" : "") + words.dropFirst(2).joined())
            }
        case "OP":
            write("[" + text(of: RoffEscapes.arguments(of: arguments)).text + "]")
        case "SY":
            lineBreak()
            write(text(of: RoffEscapes.arguments(of: arguments)).text)
        case "UR", "MT":
            link = RoffEscapes.arguments(of: arguments).first.map { text(of: [$0]).text }
        case "UE", "ME":
            // The link's text, then its address: `text <https://…>`, and the punctuation after.
            if let address = link, !address.isEmpty {
                write("<" + address + ">")
                joinsNext = true
            }
            link = nil
            write(text(of: RoffEscapes.arguments(of: arguments), separator: "").text)
        case "nf", "EX", "DS", "ID", "LD", "CD", "BD":
            lineBreak()
            isFilling = false
        case "fi", "EE", "DE":
            lineBreak()
            isFilling = true
        case "TS":
            lineBreak()
            table = Table(wasFilling: isFilling)
        case "EQ", "PS", "G1", "[":
            preprocessorEnd = ["EQ": "EN", "PS": "PE", "G1": "G2", "[": "]"][name]
        case "de", "de1", "dei", "dei1", "am", "am1", "ami", "ami1", "ig":
            beginDefinition(name, arguments)
        case "ds", "ds1", "as", "as1":
            defineString(name, arguments)
        case "rm":
            for argument in RoffEscapes.arguments(of: arguments) {
                let key = String(String.UnicodeScalarView(argument.scalars))
                escapes.strings[key] = nil
                macros[key] = nil
            }
        case _ where Self.breakingRequests.contains(name):
            if breaks { lineBreak() }
        case _ where Self.silentRequests.contains(name):
            break
        default:
            return false
        }
        return true
    }

    /// Requests and macros that end the line and print nothing: paragraphs, spacing,
    /// indentation, lists (man, mdoc's paragraphs, ms, me).
    static let breakingRequests: Set<String> = [
        "br", "sp", "bp", "ce", "in", "ti", "rj", "PP", "P", "LP", "HP", "RS", "RE", "YS", "Pp", "Lp", "Sp",
        "TL", "AU", "AI", "NH", "QP", "XP", "AB", "AE", "KS", "KE", "KF", "FS", "FE", "QS", "QE", "RP",
        "pp", "lp", "np", "bu", "(q", ")q", "(l", ")l", "(b", ")b", "(z", ")z", "(c", ")c",
        "(d", ")d", "(f", ")f", "(x", ")x", "bl",
    ]

    /// Requests and macros that print nothing and do not break: settings, registers,
    /// fonts, page layout, traps, environment, files, diversions, loops; man's and the
    /// packages' page settings.
    static let silentRequests: Set<String> = [
        "ab", "ad", "af", "aln", "als", "asciify", "backtrace", "bd", "blm", "box", "boxa", "break", "brp", "c2",
        "cc", "cf", "cflags", "ch", "char", "chop", "class", "close", "color", "composite", "continue", "cp", "cs",
        "cu", "da", "di", "do", "dt", "ec", "ecr", "ecs", "el", "em", "eo", "ev", "evc", "ex", "fam", "fc", "fchar",
        "fcolor", "fl", "fp", "fschar", "fspecial", "ft", "ftr", "fzoom", "gcolor", "hc", "hcode", "hla", "hlm",
        "hpf", "hpfa", "hpfcode", "hw", "hy", "hym", "hys", "it", "itc", "kern", "lc", "length", "lf", "lg", "linetabs",
        "ll", "lq", "ls", "lsm", "lt", "mc", "mk", "mso", "msoquiet", "na", "ne", "nh", "nm", "nn", "nop", "nr", "nroff", "ns", "nx",
        "open", "opena", "os", "output", "pc", "pev", "pi", "pl", "pm", "pn", "pnr", "po", "ps", "psbb", "pso", "ptr",
        "pvs", "rchar", "rd", "return", "rfschar", "rn", "rnn", "rr", "rs", "rt", "schar", "shc", "shift", "sizes",
        "so", "soquiet", "spreadwarn", "ss", "sty", "substring", "sv", "sy", "ta", "tc", "tkf", "tl", "tm", "tm1",
        "tmc", "tr", "trf", "trin", "trnt", "troff", "uf", "ul", "unformat", "vpt", "vs", "warn", "warnscale", "wh",
        "while", "write", "writec", "writem", "xflag",
        // man(7) settings, index entries and old macros; groff's www.tmac link style.
        "PD", "AT", "UC", "DT", "PT", "BT", "IX", "LINKSTYLE",
        // ms and me page settings.
        "1C", "2C", "MC", "DA", "ND", "TA", "XS", "XA", "XE", "TC", "PX", "RD", "he", "fo", "eh", "oh", "ef", "of",
        "sz", "ba", "bc", "lo", "th", "tp", "ld", "sk", "hx", "m1", "m2", "m3", "m4", "ep", "ar", "xp", "re", "ix",
        "pa", "hl",
    ]

    /// man's font macros, whose arguments are text.
    static let fontMacros: Set<String> = ["B", "I", "SM", "SB", "BR", "BI", "IR", "RB", "RI", "IB"]
}
