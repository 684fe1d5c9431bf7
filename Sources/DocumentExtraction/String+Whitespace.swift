extension StringProtocol {
    /// The text without leading and trailing whitespace (newlines included).
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = lastIndex(where: { !$0.isWhitespace })!
        return String(self[first...last])
    }

    /// The text with every run of whitespace turned into one space, trimmed: for titles and
    /// names that documents wrap over several lines.
    func collapsingWhitespace() -> String {
        split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

extension Optional where Wrapped == String {
    /// nil for nil, empty or whitespace-only text, else the text with its whitespace collapsed.
    var nonBlank: String? {
        guard let text = self?.collapsingWhitespace(), !text.isEmpty else { return nil }
        return text
    }
}
