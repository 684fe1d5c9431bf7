import ExtractionProtocol
import Searchlight

// What `show` says of an archive's members: how many, and which ones hold the words of
// `--matching` (the archive's text is laid out as ArchiveText sections).
extension ShowCommand {
    /// `members` and, with `--matching`, `matchingMembers` rows for an archive's text;
    /// nothing for other items.
    func memberRows(_ text: String?, matching: String?) -> [(String, String)] {
        guard let text else { return [] }
        let sections = ArchiveText.sections(of: text)
        guard !sections.isEmpty else { return [] }
        var rows = [("members", String(sections.count))]
        if let matching {
            let names = Self.members(of: sections, matching: matching)
            rows.append(("matchingMembers", "(" + names.map(\.debugDescription).joined(separator: ", ") + ")"))
        }
        return rows
    }

    /// The members whose name or text holds every word of `query`, folded as search folds
    /// them (``WordFolding``: case, accents and marks in every script, `ß` as `ss`, final sigma,
    /// kana voicing): the members a search for those words found the archive by.
    static func members(of sections: [ArchiveText.Section], matching query: String) -> [String] {
        let words = WordFolding.fold(query).split { !$0.isLetter && !$0.isNumber }.map(String.init)
        guard !words.isEmpty else { return [] }
        return sections.filter { section in
            let haystack = WordFolding.fold(section.member + "\n" + section.text)
            return words.allSatisfy { haystack.contains($0) }
        }.map(\.member)
    }
}
