import ExtractionProtocol

extension ExtractedDocument {
    /// Takes the collected text and whether it was cut.
    mutating func setText(_ collector: TextCollector) {
        text = collector.text
        isTextTruncated = collector.isTruncated
    }
}
