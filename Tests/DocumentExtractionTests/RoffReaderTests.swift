@testable import DocumentExtraction
import ExtractionProtocol
import Foundation
import SearchlightTestSupport
import Testing

/// Manual pages are read as the text they print, not their roff markup: man(7) and mdoc(7)
/// samples written here, a committed page shaped as help2man writes them, this machine's
/// `ls(1)`, and hostile pages.
@Suite("Manual pages (roff)", .ownThread)
struct RoffReaderTests {
    let tree = TemporaryTree("roff")

    static func read(_ roff: String, limit: Int = 1 << 20) -> ExtractedDocument {
        RoffExtractor.parse(roff, limit: limit)
    }

    /// The text of one line of escapes.
    static func resolved(_ line: String, strings: [String: String] = [:]) -> String {
        var budget = 1 << 20
        return RoffEscapes(strings: strings).resolve(Array(line.unicodeScalars)[...], budget: &budget).text
    }

    /// The worker's answer for a file, typed by libmagic as the indexer types it.
    static func extract(_ path: String, limit: Int = 1 << 20) throws -> (type: String, result: Result<ExtractedDocument, ExtractionFailure>) {
        let head = try FileHandle(forReadingFrom: URL(filePath: path)).read(upToCount: MemberType.maximumBytesRead) ?? Data()
        let contentType = MemberType.of(Array(head))
        let request = ExtractionRequest(jobID: 1, kind: .text, path: Array(path.utf8), limit: UInt32(limit), contentType: contentType)
        return (contentType, DocumentExtractor.extract(request))
    }

    @Test("man(7): headings on their lines, fonts gone, alternation joined, comments dropped, the title from .TH")
    func manPage() {
        let document = Self.read(#"""
            .\" A comment line.
            .TH MARMOT "1" "December 2026" "marmot 1.0" "User Commands"
            .SH NAME
            marmot \- whistle at the approaching eagles
            .SH SYNOPSIS
            .B marmot
            [\fI\,OPTION\/\fR]... [\fI\,BURROW\/\fR]...
            .SH DESCRIPTION
            Warns the \fBburrow\fR before the eagles land.   \" a trailing comment
            See
            .BR ls (1)
            and
            .IR burrow (5),
            or \f(CWwhistle\fP and \f[B]hum\f[].
            .TP
            .B \-l, \-\-loud
            whistle louder
            .IP \(bu 2
            a bullet item
            .PP
            .nf
            kept   as
              written
            .fi
            joined
            line\c
            continued
            .SH "SEE ALSO"
            .MR eagle 7 ,
            .UR https://example.org/marmots
            the marmot site
            .UE .
            """#)
        #expect(document.text == """
            NAME
            marmot - whistle at the approaching eagles
            SYNOPSIS
            marmot [OPTION]... [BURROW]...
            DESCRIPTION
            Warns the burrow before the eagles land. See ls(1) and burrow(5), or whistle and hum.
            -l, --loud
            whistle louder
            • a bullet item
            kept   as
              written
            joined linecontinued
            SEE ALSO
            eagle(7), the marmot site <https://example.org/marmots>.
            """)
        #expect(document.title == "marmot(1)")
        #expect(document.subject == "marmot - whistle at the approaching eagles")
    }

    @Test("Escapes: special characters and strings become their characters, sizes, motions and registers nothing")
    func escapes() {
        #expect(Self.resolved(#"Dashes\(em\(en \- quotes \(lqloud\(rq \*(lqsoft\*(rq \(aqa\(aq \(dqb\(dq"#)
                == #"Dashes—– - quotes “loud” “soft” 'a' "b""#)
        #expect(Self.resolved(#"\(co \(bu \*R \*(Tm \*[lq]x\*[rq] \(*a\(*W \N'65'\C'em'"#) == "© • ® ™ “x” αΩ A—")
        #expect(Self.resolved(#"caf\[u00E9] na\[char239]ve \('e\(:o \[u0065_0301]"#) == "café naïve éö e\u{301}")
        #expect(Self.resolved(#"back\e\\slash no\&break \:joined\%word \)x"#) == #"back\\slash nobreak joinedword x"#)
        #expect(Self.resolved(#"non\ breaking\~space\0zero"#) == "non breaking space zero")
        #expect(Self.resolved(#"\s-1SMALL\s0 \s+2big\s0 \s(12x\s[10]y\s'8'z"#) == "SMALL big xyz")
        #expect(Self.resolved(#"moved\h'2m'\v'-1'up\kx\o'ab'\zmark\w'width'\h'-1'"#) == "moved upmark")
        #expect(Self.resolved(#"\n[reg]\n(xy\nz\n+a\f(CW\f[]\F[T]\m[red]\X'tty: link'"#) == "")
        #expect(Self.resolved(#"Unknown \[xyzzy]glyph and \*(Zzstring."#) == "Unknown glyph and string.")
        #expect(Self.resolved(#"\*(Mk and \*[Mk]"#, strings: ["Mk": "marmot"]) == "marmot and marmot")
        #expect(Self.resolved(#"text \" comment"#) == "text ")
        #expect(Self.resolved(##"text \# comment"##) == "text ")
        // Unclosed arguments end with the line.
        #expect(Self.resolved(#"a\h'never closed"#) == "a ")
        #expect(Self.resolved(#"a\[unclosed"#) == "a")
        var budget = 100
        let continued = RoffEscapes().resolve(Array(#"word\c"#.unicodeScalars)[...], budget: &budget)
        #expect(continued.text == "word" && continued.joinsNext)
        #expect(budget == 96)
    }

    @Test("mdoc(7): .Nm, .Nd, .Fl as -flag, .Op, .Xr as name(section), .Dq, .Fn, callable macros dropped, the title from .Dt")
    func mdocPage() {
        let document = Self.read("""
            .Dd December 6, 2026
            .Dt MARMOT 1
            .Os
            .Sh NAME
            .Nm marmot
            .Nd whistle at the approaching eagles
            .Sh SYNOPSIS
            .Nm
            .Op Fl lq
            .Op Fl o Ar file
            .Op Fl Fl loud
            .Ar burrow ...
            .Sh DESCRIPTION
            The
            .Nm
            utility warns the
            .Pa /var/burrow
            before the eagles land, as
            .Xr eagle 7
            and
            .Xr hawk 7 ,
            say.
            .Bl -tag -width Ds
            .It Fl l
            Whistle
            .Em louder .
            .It Fl o Ar file
            Write to
            .Ar file
            (see
            .Dq the log ) .
            .El
            .Pp
            Call
            .Fn whistle "int loud" "char *tune" ;
            or
            .Sy never
            .Ql sleep .
            .Bd -literal -offset indent
            marmot -l   burrow
              marmot -q
            .Ed
            .Sh EXIT STATUS
            .Ex -std
            """)
        #expect(document.text == """
            NAME
            marmot - whistle at the approaching eagles
            SYNOPSIS
            marmot [-lq] [-o file] [--loud] burrow ...
            DESCRIPTION
            The marmot utility warns the /var/burrow before the eagles land, as eagle(7) and hawk(7), say.
            -l
            Whistle louder.
            -o file
            Write to file (see “the log”).
            Call whistle(int loud, char *tune); or never ‘sleep’.
            marmot -l   burrow
              marmot -q
            EXIT STATUS
            The marmot utility exits 0 on success, and >0 if an error occurs.
            """)
        #expect(document.title == "marmot(1)")
        #expect(document.subject == "marmot - whistle at the approaching eagles")
    }

    @Test("Macro definitions are skipped, strings defined, conditions taken as nroff's, tbl cells and eqn blocks read and dropped")
    func requestsAndPreprocessors() {
        let document = Self.read(##"""
            .TH TBL 7
            .de Vx \" a macro whose body keeps lines
            .nf
            .ne \\$1
            ..
            .de Q
            \\$1
            ..
            .de NOISE
            .tm this text is never printed
            ..
            .ds Bu burrow\(em\fBdeep\fR
            .ie n .ds Wh "whistle
            .el .ds Wh "never
            .if t \{\
            typeset only
            .if n nested
            .\}
            .if n \{\
            .  if !t terminal
            .\}
            .if \n(.g .ds Gr groff
            .ig
            ignored text
            ..
            .SH DESCRIPTION
            The \*(Bu, a \*(Wh, \*(Gr.
            .NOISE
            .Q quoted
            .Vx 2
            first line
            second line
            .fi
            .TS
            allbox tab(:);
            l l
            lb l.
            Name:Meaning
            _
            marmot:a rodent
            T{
            eagle
            T}:a bird
            .TE
            After.
            .EQ
            x sup 2
            .EN
            .\# a groff comment
            End.
            """##)
        #expect(document.text == """
            terminal
            DESCRIPTION
            The burrow—deep, a whistle, groff. quoted
            first line
            second line
            Name Meaning
            marmot a rodent
            eagle a bird
            After. End.
            """)
        #expect(document.title == "TBL(7)", "no NAME line spells the name otherwise")
        #expect(document.subject == nil)
    }

    @Test("Pod::Man's preamble: its branches, its macros and its strings")
    func podManPreamble() {
        let document = Self.read(#"""
            .de Vb \" Begin verbatim text
            .ft CW
            .nf
            .ne \\$1
            ..
            .de Ve \" End verbatim text
            .ft R
            .fi
            ..
            .ds C+ C\v'-.1v'\h'-1p'\s-2+\h'-1p'+\s0\v'.1v'\h'-1p'
            .ie n \{\
            .    ds L" ""
            .    ds R" ""
            'br\}
            .el\{\
            .    ds L" ``
            .    ds R" ''
            'br\}
            .ie \n(.g .ds Aq \(aq
            .el       .ds Aq '
            .de IX
            ..
            .if \nF \{\
            .    de IX
            .    tm Index:\\$1\t\\n%\t"\\$2"
            ..
            .    if !\nF==2 \{\
            .        nr % 0
            .    \}
            .\}
            .IX Title "Marmot::Whistle 3pm"
            .TH Marmot::Whistle 3pm "2026-12-06" "perl v5.36.0" "User Contributed Perl Documentation"
            .SH "NAME"
            Marmot::Whistle \- warn the colony from \*(C+ or Perl
            .SH "SYNOPSIS"
            .IX Header "SYNOPSIS"
            .Vb 2
            \&  use Marmot::Whistle;
            \&  whistle(\*(L"loud\*(R");
            .Ve
            Don\*(Aqt wait.
            """#)
        #expect(document.text == """
            NAME
            Marmot::Whistle - warn the colony from C++ or Perl
            SYNOPSIS
              use Marmot::Whistle;
              whistle("loud");
            Don't wait.
            """)
        #expect(document.title == "Marmot::Whistle(3pm)")
    }

    @Test("ms and me papers keep their words: their requests go, unknown macros' arguments stay")
    func papers() {
        let document = Self.read(#"""
            .TL
            Burrow Acoustics of the Alpine Marmot
            .AU
            Zoë Chénier
            .AB
            We measured \fIwhistles\fP in 40 burrows.
            .AE
            .NH 1
            Introduction
            .PP
            Marmots whistle when an eagle nears.
            .IP 1.
            first item
            .DS I
            code   kept
            .DE
            .sh 2 "A me heading"
            .pp
            Me paragraph text.
            .XY 3 "an unknown macro's words"
            'tis a line that starts with an apostrophe
            """#)
        #expect(document.text == """
            Burrow Acoustics of the Alpine Marmot
            Zoë Chénier
            We measured whistles in 40 burrows.
            Introduction
            Marmots whistle when an eagle nears.
            1. first item
            code   kept
            A me heading
            Me paragraph text. an unknown macro's words 'tis a line that starts with an apostrophe
            """)
        #expect(document.title == nil)
    }

    @Test("A page shaped as help2man writes them, typed by libmagic, through the worker's entry point")
    func help2manPage() throws {
        let (type, result) = try Self.extract(DocumentFixtures.path("whistle.1"))
        #expect(type == "text/troff")
        let document = try result.get()
        #expect(document.title == "whistle(1)")
        #expect(document.text == """
            NAME
            whistle - warn the colony of approaching eagles
            SYNOPSIS
            whistle [OPTION]... [BURROW]...
            DESCRIPTION
            Warn every marmot in each BURROW (the current burrow by default) that an eagle is near.  The pitch rises with the danger level.
            Mandatory arguments to long options are mandatory for short options too.
            -l, --loud
            whistle at twice the usual volume
            -p, --pitch=HZ
            start at HZ hertz; e.g., '--pitch=880'
            --help
            display this help and exit
            Exit status:
            0
            if OK,
            2
            if the colony did not answer.
            EXAMPLES
            whistle -l north-slope
            whistle --pitch=440 \\
                meadow
            AUTHOR
            Written by Zoë Chénier and René Maître.
            REPORTING BUGS
            Help: <https://example.org/marmot-tools/>
            COPYRIGHT
            Copyright © 2026 The Marmot Society.
            This is free software: you are free to change and redistribute it.
            SEE ALSO
            eagle(7), burrow(5)
            info whistle
            """)
    }

    /// coreutils' `ls(1)`, on every machine with man-db (CI has it: `dpkg -S
    /// /usr/share/man/man1/ls.1.gz` names coreutils), read through the compressed-file path.
    @Test("This machine's ls(1), gzip'd, reads as its words",
          .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/man/man1/ls.1.gz")))
    func systemPage() throws {
        let (type, result) = try Self.extract("/usr/share/man/man1/ls.1.gz")
        #expect(type == "application/gzip")
        let document = try result.get()
        #expect(document.title == "ls(1)")
        #expect(document.text.hasPrefix("NAME\nls - list directory contents\nSYNOPSIS\nls [OPTION]... [FILE]...\n"), "\(document.text.prefix(300))")
        #expect(document.text.contains("\n-a, --all\ndo not ignore entries starting with .\n"), "\(document.text.prefix(1500))")
        for markup in [#"\f"#, #"\-"#, ".SH", ".TP", ".B ", #"\(co"#, #".\""#] {
            #expect(!document.text.contains(markup), "\(markup)")
        }
    }

    @Test("Latin-1 pages are decoded as plain text is, with or without preconv's coding line")
    func latin1() throws {
        for head in ["", ".\\\" -*- coding: latin-1 -*-\n"] {
            let bytes = Array((head + ".TH CAF").utf8) + [0xC9] + Array(" 1\n.SH NAME\ncaf".utf8) + [0xE9]
                + Array(" \\- brew the morning coffee\n".utf8)
            let source = try DocumentSource(bytes: bytes, path: Array("cafe.1".utf8), textLimit: 1 << 20, contentType: "text/troff")
            defer { source.close() }
            let document = try RoffExtractor.read(source)
            #expect(document.text == "NAME\ncafé - brew the morning coffee", "\(head)")
            #expect(document.title == "café(1)")
        }
    }

    @Test("Routing: troff types and text named as a manual page go to the roff reader; text that is not roff stays plain")
    func routing() throws {
        func format(_ type: String, _ name: String) -> DocumentFormat? { DocumentFormat(contentType: type, fileName: Array(name.utf8)) }
        #expect(format("text/troff", "ls.1") == .roff)
        #expect(format("text/troff", "paper.ms") == .roff)
        #expect(format("application/x-troff-man", "ls") == .roff)
        #expect(format("text/x-c", "utmp.5") == .roff)
        #expect(format("text/plain", "Carp.3pm") == .roff)
        #expect(format("text/x-c", "main.c") == .plainText)
        #expect(format("text/plain", "notes.txt") == .plainText)
        #expect(DocumentFormat.isManualPageName(Array("ls.1.gz".utf8)))
        #expect(DocumentFormat.isManualPageName(Array("openssl.1ssl.xz".utf8)))
        #expect(!DocumentFormat.isManualPageName(Array("report.2024".utf8)))
        #expect(!DocumentFormat.isManualPageName(Array("notes.txt.gz".utf8)))

        // A rotated log is named as a section-1 page: its backslashes and dots stay.
        let log = "Dec  6 08:00:01 host cron[42]: .hourly job ran\nC:\\fBoot\\-path kept\n"
        let source = try DocumentSource(bytes: Array(log.utf8), path: Array("syslog.1".utf8), textLimit: 1 << 20, contentType: "text/plain")
        defer { source.close() }
        #expect(try DocumentExtractor.read(source, as: .roff).text == log)

        // A page that includes another one holds no text, and is no failure.
        let link = try DocumentSource(bytes: Array(".so man7/environ.7\n".utf8), path: Array("environment.5".utf8), textLimit: 1 << 20,
                                      contentType: "text/troff")
        defer { link.close() }
        #expect(try DocumentExtractor.read(link, as: .roff).text == "")
    }

    @Test("Hostile pages: long lines, unclosed escapes, nested conditions, an endless definition stay linear and bounded")
    func hostile() throws {
        let count = 200_000
        var pages: [String] = []
        pages.append(".TH H 1\n" + String(repeating: #"\h'"#, count: count) + "\n")
        let delimiters = (0..<count).map { index -> String in #"\h"# + String(UnicodeScalar(UInt8(33 + index % 90))) }
        pages.append(".TH H 1\n" + delimiters.joined() + "\n")
        pages.append(".TH H 1\n" + String(repeating: #"\n["#, count: count) + "\n" + String(repeating: #"\f["#, count: count) + "x\n")
        pages.append(String(repeating: ".if n ", count: count) + "deep\n" + String(repeating: ".ie n x\n", count: count / 4)
            + ".de X\n" + String(repeating: "body\n", count: count / 4))
        pages.append(String(repeating: ".if n \\{\\\n", count: count / 4) + "text\n.TS\nl.\n" + String(repeating: "T{\n", count: count / 4))
        let strings = String(repeating: #".ds a \*a\*a\*a\*a\*a\*a\*a\*a"# + "\n", count: 30)
        pages.append(strings + ".ds b " + String(repeating: "x", count: 300) + "\n" + String(repeating: #"\*b"#, count: count) + "\n")
        pages.append(".Dt H 1\n.Op " + String(repeating: "Op ", count: count) + "\n.Ar " + String(repeating: "w ", count: count) + "\n")
        pages.append(".TH H 1\n" + String(repeating: "word \\c\n", count: count / 4) + String(repeating: "\\\n", count: count))
        let limit = 64 << 10
        for (number, page) in pages.enumerated() {
            let document = Self.read(page, limit: limit)
            #expect(document.text.utf8.count <= limit, "page \(number)")
        }
        #expect(Self.read(pages[5], limit: limit).isTextTruncated, "a short line of strings says no more than the limit")

        // A 100 MB line: only the prefix the limit asks for is read.
        let path = tree.url("long.1")
        FileManager.default.createFile(atPath: path, contents: Data(".TH LONG 1\n".utf8))
        let handle = try FileHandle(forWritingTo: URL(filePath: path))
        try handle.seekToEnd()
        let chunk = Data(String(repeating: #"\fBmarmot\fR "#, count: 80_000).utf8)
        for _ in 0..<(100_000_000 / chunk.count) { try handle.write(contentsOf: chunk) }
        try handle.close()
        let document = try Self.extract(path, limit: limit).result.get()
        #expect(document.isTextTruncated)
        #expect(document.text.utf8.count <= limit)
        #expect(document.text.hasPrefix("marmot marmot marmot"))
    }
}
