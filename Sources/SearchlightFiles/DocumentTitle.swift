import Foundation

/// Finds a document's own title in its first bytes, for the formats that have one in text:
/// HTML's `<title>` and Markdown's first heading.
public enum DocumentTitle {
    /// How many bytes of a file are read to look for its title.
    public static let bytesRead = 64 * 1024

    /// Whether a file of this type and name may carry a title this type knows how to find.
    public static func applies(contentType: String?, fileName: String) -> Bool {
        guard let contentType else { return false }
        if contentType == "text/html" || contentType == "application/xhtml+xml" { return true }
        let lowered = fileName.lowercased()
        return contentType.hasPrefix("text/") && (lowered.hasSuffix(".md") || lowered.hasSuffix(".markdown"))
    }

    /// The title found in `bytes` (the start of the file), or `nil`.
    public static func title(in bytes: [UInt8], contentType: String?, fileName: String) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let found = contentType == "text/html" || contentType == "application/xhtml+xml"
            ? htmlTitle(text) : markdownTitle(text)
        guard let found else { return nil }
        let collapsed = found.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !collapsed.isEmpty else { return nil }
        return String(collapsed.prefix(300))
    }

    static func htmlTitle(_ text: String) -> String? {
        guard let open = text.range(of: "<title", options: .caseInsensitive),
              let openEnd = text[open.upperBound...].firstIndex(of: ">"),
              let close = text[openEnd...].range(of: "</title", options: .caseInsensitive) else { return nil }
        return decodeEntities(String(text[text.index(after: openEnd)..<close.lowerBound]))
    }

    static func markdownTitle(_ text: String) -> String? {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        // YAML front matter may name the title.
        if lines.first == "---", let end = lines.dropFirst().firstIndex(of: "---") {
            if let line = lines[1..<end].first(where: { $0.lowercased().hasPrefix("title:") }) {
                return line.dropFirst("title:".count).trimmingCharacters(in: CharacterSet(charactersIn: " \"'"))
            }
            lines = Array(lines[(end + 1)...])
        }
        var inFence = false
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") || line.hasPrefix("~~~") { inFence.toggle(); continue }
            if inFence { continue }
            if line.hasPrefix("#") {
                let heading = line.drop { $0 == "#" }
                if heading.first == " " || heading.first == "\t" {
                    return heading.trimmingCharacters(in: CharacterSet(charactersIn: " \t#"))
                }
            }
            // Setext: a line underlined with === or ---.
            if index + 1 < lines.count, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                let next = lines[index + 1].trimmingCharacters(in: .whitespaces)
                if next.count >= 2 && (next.allSatisfy { $0 == "=" } || next.allSatisfy { $0 == "-" }) {
                    return line
                }
            }
        }
        return nil
    }

    static func decodeEntities(_ text: String) -> String {
        var result = text
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&apos;", "'"),
                                    ("&nbsp;", " "), ("&amp;", "&")] {
            result = result.replacingOccurrences(of: entity, with: character)
        }
        return result
    }
}
