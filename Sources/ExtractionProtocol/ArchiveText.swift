/// How an archive's text is laid out, so that a reader of the stored text can tell which
/// member each part came from (`searchlight show --matching` lists the members that match).
///
/// Each member is a section: a header line `=== path/in/archive ===` (its name, searchable
/// like its text), then the member's text, if any. Members follow the archive's order.
///
/// ```
/// === drafts/letter-to-landlord.txt ===
/// Dear Mr. Dupont, the heating has failed again.
/// === drafts/poem_v1.txt ===
/// Ωmega, the last letter, the first search.
/// ```
public enum ArchiveText {
    static let opening = "=== "
    static let closing = " ==="

    /// One member of an archive's text.
    public struct Section: Sendable, Hashable {
        /// The member's path inside the archive.
        public var member: String
        /// Its text, without the header.
        public var text: Substring
    }

    /// The header line of `member` (ending in a newline). Line breaks in the name become spaces.
    public static func header(for member: String) -> String {
        let name = String(member.map { $0.isNewline ? " " : $0 })
        return opening + name + closing + "\n"
    }

    /// The sections of an archive's `text`, in order; empty when `text` does not start with a
    /// header (the text of a file that is not an archive).
    public static func sections(of text: String) -> [Section] {
        var sections: [Section] = []
        var current: (member: String, start: String.Index)?
        var lineStart = text.startIndex
        while lineStart < text.endIndex {
            let lineEnd = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[lineStart..<lineEnd]
            if line.hasPrefix(opening), line.hasSuffix(closing), line.count > opening.count + closing.count {
                if let current { sections.append(Section(member: current.member, text: text[current.start..<lineStart])) }
                let name = line.dropFirst(opening.count).dropLast(closing.count)
                current = (String(name), lineEnd < text.endIndex ? text.index(after: lineEnd) : lineEnd)
            } else if current == nil {
                return []
            }
            lineStart = lineEnd < text.endIndex ? text.index(after: lineEnd) : lineEnd
        }
        if let current { sections.append(Section(member: current.member, text: text[current.start...])) }
        return sections
    }
}
