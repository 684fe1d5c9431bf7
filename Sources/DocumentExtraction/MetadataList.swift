/// Lists that documents keep in one text field: authors, keywords.
enum MetadataList {
    /// Keywords as documents write them: separated by `;` or `,`, else by spaces (LibreOffice
    /// joins them with spaces in DOCX and RTF).
    static func keywords(_ text: String) -> [String] {
        if text.contains(";") || text.contains(",") { return authors(text) }
        return text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Authors as documents write them: separated by `;`, else by `,`.
    static func authors(_ text: String) -> [String] {
        let separators: Set<Character> = text.contains(";") ? [";"] : [","]
        return text.split(whereSeparator: { separators.contains($0) })
            .map { String($0).trimmingWhitespace() }
            .filter { !$0.isEmpty }
    }
}
