import ExtractionProtocol
import Foundation
import Searchlight
import Synchronization

/// Derives the attribute set of a file from its name, its status and libmagic's answers: the
/// file rules (a file's title is its name without extension, its keywords start with its
/// name's words, its path's folders describe it) live here, not in the library, which only
/// stores what its caller derives without repeating it (`StoredText`).
///
/// Pure functions of their arguments, but for a small cache of each type's words: safe from
/// the inspector threads at once.
public enum FileAttributes {
    /// The attributes of a file.
    ///
    /// A name that is not UTF-8 is shown with U+FFFD for its invalid bytes (the identifier keeps
    /// the bytes). The creation date is the file's birth time, when the filesystem records one.
    ///
    /// - Parameters:
    ///   - relativePath: The file's path relative to its root.
    ///   - status: Its `statx` status.
    ///   - contentType: libmagic's MIME type, when known.
    ///   - contentDescription: libmagic's description, when known.
    /// - Returns: The name, title, type, description, size, dates and keywords; text and
    ///   document metadata come later, from extraction.
    public static func make(
        relativePath: ItemIdentifier, status: FileStatus, contentType: String?, contentDescription: String?
    ) -> AttributeSet {
        let name = String(decoding: relativePath.lastComponent, as: UTF8.self)
        var attributes = AttributeSet(contentType: contentType)
        attributes.displayName = name
        attributes.title = title(fromFileName: name)
        attributes.contentDescription = contentDescription
        attributes.size = Int64(status.size)
        attributes.contentModificationDate = status.modificationDate
        attributes.contentCreationDate = status.birthDate
        attributes.keywords = keywords(name: name, contentType: contentType, description: contentDescription)
        return attributes
    }

    /// The title a file has when its format gives none: its name without the extension
    /// (`Report.final.pdf` → `Report.final`); a name that is only an extension (`.profile`)
    /// keeps it. The index stores such a title as the start of the display name, without
    /// repeating it.
    public static func title(fromFileName name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// What a file's rename does in the index: the new name is the path's last component; a
    /// title that was the old name without extension, and keywords that started with the
    /// old name's words, follow the new name (a document's own title stays).
    ///
    /// ```swift
    /// FileAttributes.rename(from: "notes/draft.md", to: "notes/final.md")  // title draft → final
    /// ```
    public static func rename(from old: ItemIdentifier, to new: ItemIdentifier) -> IndexBatch.Rename {
        let oldName = String(decoding: old.lastComponent, as: UTF8.self)
        let newName = String(decoding: new.lastComponent, as: UTF8.self)
        return IndexBatch.Rename(displayName: newName,
                                 title: .init(old: title(fromFileName: oldName), new: title(fromFileName: newName)),
                                 nameKeywordsFollow: true)
    }

    /// The words of a MIME type and of its parents (`public.image` gives `image`), learned
    /// once per type: every file of a scan asks, and a tree holds a few hundred types.
    static func words(ofType type: String) -> [String] {
        if let words = typeWords.withLock({ $0[type] }) { return words }
        let words = NameTokenizer.words(in: type) + ContentTypeTree.tree(of: type).filter { $0.hasPrefix("public.") }
            .flatMap { NameTokenizer.words(in: String($0.dropFirst("public.".count))) }
        typeWords.withLock { known in
            if known.count >= 1024 { known.removeAll(keepingCapacity: true) }
            known[type] = words
        }
        return words
    }

    /// The words of each type met, emptied when it reaches 1 024 types.
    private static let typeWords = Mutex<[String: [String]]>([:])

    /// The most words of the type and description a file's keywords take.
    static let describingWords = 5

    /// Words too common in MIME types and libmagic's descriptions to describe anything.
    static let noiseWords: Set<String> = [
        "vnd", "x", "application", "data", "with", "and", "the", "of", "for", "version", "bit", "to",
        "openxmlformats", "officedocument", "document", "ms", "octet", "stream", "inode", "text", "very",
        "long", "lines", "no", "line", "terminators", "crlf", "lf", "a", "an", "in", "at", "by",
        "item", "content", "public", "plain",
    ]

    /// 5 to 10 words: the words of the name (at most 10), then at most ``describingWords`` of
    /// the type's and libmagic's description's, fewer only where the name leaves less room.
    ///
    /// The describing words do not depend on the name unless it has more than five words:
    /// the index keeps them once per type and description (`content_kind`), not once per
    /// name length, which made every description a handful of rows (and their words in the
    /// full-text index) on a real tree.
    public static func keywords(name: String, contentType: String?, description: String?) -> [String] {
        var keywords: [String] = []
        var seen = Set<String>()
        var limit = 10
        func add(_ words: [String], skippingNoise: Bool) {
            for word in words where keywords.count < limit {
                guard word.count > 1, !(skippingNoise && noiseWords.contains(word)),
                      !word.allSatisfy(\.isNumber) || !skippingNoise else { continue }
                if seen.insert(word).inserted { keywords.append(word) }
            }
        }
        let typeWords = contentType.map(Self.words(ofType:)) ?? []
        // What decided a type (``TypeEvidence``) describes the decision, not the file.
        let descriptionWords = description.map { NameTokenizer.words(in: String(TypeEvidence.kind(of: $0))) } ?? []
        // The name's words as the index derives them (stored once, with the name).
        add(AttributeSet.nameKeywords(of: name), skippingNoise: false)
        limit = min(10, keywords.count + describingWords)
        add(typeWords, skippingNoise: true)
        add(descriptionWords, skippingNoise: true)
        // Too few telling words: take the common ones too, rather than fewer than five.
        if keywords.count < 5 {
            add((typeWords + descriptionWords).filter { !["item", "public", "vnd", "x"].contains($0) }, skippingNoise: false)
        }
        return keywords
    }
}
