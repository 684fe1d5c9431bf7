import ExtractionProtocol

/// Reads Word 97–2003 (`.doc`), Excel 97–2003 (`.xls`) and PowerPoint 97–2003 (`.ppt`) files:
/// title, author, dates and page or slide count from the OLE2 summary information (libgsf);
/// the text of Word and Excel files through Debian's `catdoc` and `xls2csv`, run as child
/// processes under a deadline and an output cap (``ConverterProcess``); PowerPoint's from its
/// text records (``PowerPointText``; `catppt` misses the text of many files).
public enum LegacyOfficeExtractor {
    /// Which of the three programs wrote the file, as its content type tells: it chooses the
    /// converter and where the text is.
    public enum Format: Sendable {
        /// A `.doc`, an `.xls` or a `.ppt` file.
        case word, excel, powerPoint
    }

    /// The converter of Word files.
    static let wordConverter = "catdoc"
    /// The converter of Excel files.
    static let excelConverter = "xls2csv"

    /// Where the converters this reader runs are installed: the only programs a sandboxed
    /// worker may run.
    public static var converterPaths: [String] { [wordConverter, excelConverter].compactMap(ConverterProcess.locate) }

    /// The most bytes of a `PowerPoint Document` stream read.
    static let maximumPowerPointStream = 64 << 20

    /// Extracts the file readable from `descriptor`.
    /// - Parameter deadline: How long a converter may run.
    public static func extract(
        descriptor: Int32, format: Format, textLimit: Int, deadline: Duration = .seconds(8)
    ) throws(ExtractionFailure) -> ExtractedDocument {
        var result = ExtractedDocument()
        try CompoundFileSummary.read(descriptor: descriptor, into: &result)
        var text = TextCollector(limit: textLimit)
        switch format {
        case .word:
            try convert(descriptor, program: wordConverter, ["-d", "utf-8", "-w"], deadline: deadline, into: &text)
        case .excel:
            try convert(descriptor, program: excelConverter, ["-d", "utf-8", "-q", "0", "-c", "\t"], deadline: deadline, into: &text)
        case .powerPoint:
            let stream = try CompoundFileSummary.stream("PowerPoint Document", descriptor: descriptor, limit: maximumPowerPointStream)
            let slides = PowerPointText.read(stream, into: &text)
            if result.pageCount == nil, slides > 0 { result.pageCount = slides }
        }
        result.setText(text)
        return result
    }

    /// Runs a converter on the open file and collects its output, one line per line.
    private static func convert(
        _ descriptor: Int32, program: String, _ options: [String], deadline: Duration, into text: inout TextCollector
    ) throws(ExtractionFailure) {
        // The converter reads the same open file, whatever its name (a reopenable one: see
        // WorkerFile.reopenable, which RichDocumentExtractor applied).
        let output = try ConverterProcess(
            program: program, arguments: options + [ConverterProcess.inheritedPath], deadline: deadline,
            outputLimit: text.limit + 4, inheritedDescriptor: descriptor
        ).run()
        // Sheets are separated by form feeds.
        for line in String(decoding: output.bytes, as: UTF8.self).split(whereSeparator: { $0.isNewline || $0 == "\u{0C}" }) {
            text.append(line.trimmingWhitespace())
            text.appendBreak()
        }
        if output.isTruncated { text.markTruncated() }
    }
}
