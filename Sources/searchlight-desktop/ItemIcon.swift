// Glibc for free(3) of the string the C shim (CShimGio) allocates.
import Glibc
import CShimGio

/// The icon of an item's type, for a result whose thumbnail would not read at a row's size (or
/// that has none).
enum ItemIcon {
    /// GNOME Shell's `gicon`: GIO's themed icon for the content type (shared-mime-info's names, as
    /// Nautilus shows in its list view: `. GThemedIcon application-pdf x-office-document …`),
    /// which the icon theme resolves from the most specific name to the generic one, ending in
    /// ``name(contentType:)``. The corresponding C functions are `g_content_type_get_icon` and
    /// `g_icon_to_string`.
    static func gicon(contentType: String?) -> String {
        let fallback = name(contentType: contentType)
        let type = contentType.flatMap { $0.isEmpty ? nil : $0.lowercased() } ?? "application/octet-stream"
        let themedPrefix = ". GThemedIcon "
        guard let text = cgio_content_type_icon(type) else { return themedPrefix + fallback }
        defer { free(text) }
        let names = String(cString: text)
        guard names.hasPrefix(themedPrefix) else { return names }
        return names.split(separator: " ").contains(Substring(fallback)) ? names : names + " " + fallback
    }

    /// One icon theme's name for an item's type (freedesktop's icon naming specification), as
    /// KRunner takes it: `application-pdf`, `image-x-generic`, `folder`…
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
