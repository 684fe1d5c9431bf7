// tbl(1)'s tables between `.TS` and `.TE`: the options and format lines are dropped, each
// data row becomes a line of its cells separated by spaces, text blocks (`T{` … `T}`)
// included; rules (`_`, `=`) and spans (`\^`) print nothing.
extension RoffReader {
    /// The table being read.
    struct Table {
        enum Stage { case options, format, data }
        var stage = Stage.options
        /// The cell separator (`tab(:)` in the options).
        var tab: Unicode.Scalar = "\t"
        /// Inside a text block, whose lines are read as text until `T}`.
        var isInTextBlock = false
        /// Filling before the table, restored after it.
        var wasFilling: Bool
    }

    mutating func tableLine(_ line: ArraySlice<Unicode.Scalar>) {
        guard var current = table else { return }
        if let request = Self.controlLine(line), request.name == "TE" {
            lineBreak()
            isFilling = current.wasFilling
            table = nil
            return
        }
        let trimmed = line.reversed().drop { $0 == " " || $0 == "\t" }
        switch current.stage {
        case .options:
            current.stage = .format
            if trimmed.first == ";" {
                current.tab = Self.tableTab(line) ?? current.tab
                table = current
                return
            }
            fallthrough
        case .format:
            if trimmed.first == "." { current.stage = .data }
            table = current
        case .data:
            if let request = Self.controlLine(line) {
                if request.name == "T&" {
                    current.stage = .format
                    table = current
                } else {
                    run(request.name, request.arguments, line: line)
                }
            } else if current.isInTextBlock {
                if line.starts(with: ["T", "}"]) {
                    table?.isInTextBlock = false
                    tableRow(line.dropFirst(2))
                } else {
                    isFilling = true
                    textLine(line)
                }
            } else {
                tableRow(line)
            }
        }
    }

    /// A data row (or what follows a text block's end on its line): its cells as text.
    mutating func tableRow(_ row: ArraySlice<Unicode.Scalar>) {
        guard let tab = table?.tab else { return }
        for cell in row.split(separator: tab, omittingEmptySubsequences: true) {
            let written = String(String.UnicodeScalarView(cell)).trimmingWhitespace()
            if ["_", "=", "\\_", "\\=", "\\^", "^"].contains(written) { continue }
            if written.hasPrefix("T{") {
                // The block's text is on the lines that follow.
                table?.isInTextBlock = true
                return
            }
            var budget = remainingBudget
            let text = escapes.resolve(cell, budget: &budget).text
            if !text.isEmpty {
                output.appendSpace()
                output.append(text)
            }
        }
        lineBreak()
    }

    /// The separator named by the `tab(x)` option.
    static func tableTab(_ options: ArraySlice<Unicode.Scalar>) -> Unicode.Scalar? {
        let lowered = options.map { $0.isASCII ? Unicode.Scalar(UInt8(ascii: $0) | 0x20) : $0 }
        guard let start = lowered.indices.first(where: { lowered[$0...].starts(with: ["t", "a", "b", "("]) }),
              start + 4 < lowered.count else { return nil }
        return options[options.startIndex + start + 4]
    }
}
