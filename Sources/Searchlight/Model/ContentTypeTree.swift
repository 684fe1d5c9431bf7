/// Derives a content type's parents, in the spirit of Uniform Type Identifiers' conformance.
public enum ContentTypeTree {
    /// The type and its parents, most specific first.
    ///
    /// `text/markdown` gives `["text/markdown", "text", "public.text", "public.content",
    /// "public.data", "public.item"]`; `nil` gives `["public.item"]`.
    public static func tree(of contentType: String?) -> [String] {
        guard let type = contentType?.lowercased(), !type.isEmpty else { return ["public.item"] }
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
        if type == "application/pdf" || type.contains("officedocument") || type.contains("opendocument")
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

    static let archiveTypes: Set<String> = [
        "application/zip", "application/gzip", "application/x-tar", "application/x-bzip2",
        "application/x-xz", "application/x-7z-compressed", "application/x-rar", "application/zstd",
        "application/vnd.rar", "application/x-zstd",
    ]
}
