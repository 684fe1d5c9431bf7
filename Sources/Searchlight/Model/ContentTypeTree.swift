import Synchronization

/// Derives a content type's parents, in the spirit of Uniform Type Identifiers' conformance.
///
/// The trees are made by rules, not looked up: a type's top-level part, the `public.*`
/// families of its top level, archives, composite documents (PDF and office formats), and
/// structured text (`+xml`, `+json`). Safe from any thread; each type's tree is derived once
/// and kept (up to 4 096 types).
public enum ContentTypeTree {
    /// The type and its parents, most specific first.
    ///
    /// `text/markdown` gives `["text/markdown", "text", "public.text", "public.content",
    /// "public.data", "public.item"]`; `nil` gives `["public.item"]`.
    ///
    /// The type is lowercased; an empty type gives `["public.item"]`, and an `inode/…` type
    /// (a folder, a link) has no `public.data`.
    public static func tree(of contentType: String?) -> [String] {
        guard let contentType else { return ["public.item"] }
        // A page of results asks for the trees of a few types over and over (its JSON and
        // its kinds): each is derived once.
        if let tree = derived.withLock({ $0[contentType] }) { return tree }
        let tree = derive(contentType)
        derived.withLock { trees in
            if trees.count < maximumDerived { trees[contentType] = tree }
        }
        return tree
    }

    /// The trees derived so far, by content type as given.
    private static let derived = Mutex<[String: [String]]>([:])
    /// Content types whose trees are kept (an index holds a few hundred at most).
    private static let maximumDerived = 4096

    /// Makes the tree of one type; ``tree(of:)`` keeps what it makes.
    private static func derive(_ contentType: String) -> [String] {
        let type = contentType.lowercased()
        guard !type.isEmpty else { return ["public.item"] }
        var tree = [type]
        let top = type.split(separator: "/", maxSplits: 1).first.map(String.init) ?? type
        if top != type { tree.append(top) }
        switch top {
        case "text": tree += ["public.text", "public.content"]
        case "image": tree += ["public.image", "public.content"]
        case "audio": tree += ["public.audio", "public.audiovisual-content", "public.content"]
        case "video": tree += ["public.movie", "public.audiovisual-content", "public.content"]
        case "font": tree += ["public.font"]
        case "inode": return tree + ["public.item"]
        default: break
        }
        if archiveTypes.contains(type) { tree += ["public.archive"] }
        if type == "application/pdf" || ItemKind.occurs("officedocument", in: type) || ItemKind.occurs("opendocument", in: type)
            || type == "application/msword" || type == "application/rtf" {
            tree += ["public.composite-content", "public.content"]
        }
        if type == "application/json" || type == "application/xml" || type.hasSuffix("+xml") || type.hasSuffix("+json") {
            tree += ["public.text", "public.content"]
        }
        tree += ["public.data", "public.item"]
        var seen = Set<String>()
        return tree.filter { seen.insert($0).inserted }
    }

    /// The compressed and archive formats, whose trees hold `public.archive`.
    static let archiveTypes: Set<String> = [
        "application/zip", "application/gzip", "application/x-tar", "application/x-bzip2",
        "application/x-xz", "application/x-7z-compressed", "application/x-rar", "application/zstd",
        "application/vnd.rar", "application/x-zstd", "application/x-lz4",
    ]
}
