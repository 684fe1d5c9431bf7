/// The icon theme's name for an item's type (freedesktop's icon naming specification), for a
/// result without a thumbnail: `application-pdf`, `image-x-generic`, `folder`…
enum ItemIcon {
    static func name(contentType: String?) -> String {
        guard let type = contentType?.lowercased(), !type.isEmpty else { return "text-x-generic" }
        if type == "inode/directory" { return "folder" }
        if type == "application/pdf" { return "application-pdf" }
        let family = type.split(separator: "/").first.map(String.init) ?? ""
        switch family {
        case "image": return "image-x-generic"
        case "audio": return "audio-x-generic"
        case "video": return "video-x-generic"
        case "text": return type == "text/html" ? "text-html" : "text-x-generic"
        case "font": return "font-x-generic"
        default: break
        }
        if type.contains("spreadsheet") || type.contains("excel") { return "x-office-spreadsheet" }
        if type.contains("presentation") || type.contains("powerpoint") { return "x-office-presentation" }
        if type.contains("wordprocessing") || type.contains("msword") || type.contains("opendocument.text")
            || type == "application/rtf" || type == "application/epub+zip" {
            return "x-office-document"
        }
        if type.contains("zip") || type.contains("tar") || type.contains("compressed") || type.contains("archive") {
            return "package-x-generic"
        }
        if type.hasPrefix("message/") { return "text-x-generic" }
        if type.contains("executable") || type.contains("sharedlib") { return "application-x-executable" }
        return "text-x-generic"
    }
}
