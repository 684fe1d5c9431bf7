import Searchlight
import SystemCalls
import SystemPackage

/// The extended attributes desktops and browsers give files, and the ``UserAttributes`` they
/// stand for: `user.xdg.tags` (comma-separated) → tags, `user.xdg.comment` → comment,
/// `user.baloo.rating` (0–10) → a rating of 0–5 stars, `user.xdg.origin.url` and
/// `user.xdg.referrer.url` → where the file came from. The one home of these rules: the
/// inspector reads files with them and `searchlight tag` writes tags with them.
public enum ExtendedAttributes {
    /// Tags, comma-separated (the freedesktop convention, also Baloo's and Dolphin's).
    public static let tags = "user.xdg.tags"
    /// A comment on the file (Dolphin's and Nautilus' comment field).
    public static let comment = "user.xdg.comment"
    /// Baloo's rating: 0 to 10, two per star.
    public static let rating = "user.baloo.rating"
    /// The address a file was downloaded from (browsers set it), then the page that linked it.
    public static let originURL = "user.xdg.origin.url"
    /// The page that linked the download of ``originURL``.
    public static let referrerURL = "user.xdg.referrer.url"

    /// The user attributes of an open file. A file system without user attributes, or a
    /// value that cannot be read, gives none: they are never a reason not to index a file.
    /// The corresponding C function is `fgetxattr(2)`.
    /// The names are listed first (`flistxattr(2)`): most files have none, and then one
    /// system call answers instead of one per attribute.
    /// With them, the value of the file's POSIX ACL (``posixACL``) when it has one: the same
    /// listing tells, so that a file with neither still costs one system call.
    public static func read(descriptor: Int32) -> (user: UserAttributes, posixACL: [UInt8]?) {
        guard let names = try? SystemCall.extendedAttributeNames(descriptor: descriptor), !names.isEmpty else {
            return (UserAttributes(), nil)
        }
        let present = Set(names)
        func value(_ name: String) -> [UInt8]? {
            guard present.contains(Array(name.utf8)) else { return nil }
            return (try? SystemCall.extendedAttribute(name, descriptor: descriptor)) ?? nil
        }
        let user = names.contains(where: { $0.starts(with: userPrefix) }) ? userAttributes(value) : UserAttributes()
        return (user, value(posixACL))
    }

    /// The attribute holding a file's or folder's POSIX ACL (`acl(5)`), read for ``FileAccess``.
    public static let posixACL = "system.posix_acl_access"

    /// The namespace of every attribute read here.
    private static let userPrefix = Array("user.".utf8)

    /// The user attributes a file's values give: `value(name)` is the value of the
    /// attribute `name`, or `nil` when the file has none.
    public static func userAttributes(_ value: (String) -> [UInt8]?) -> UserAttributes {
        var attributes = UserAttributes()
        attributes.userTags = value(tags).map(Self.tags(in:)) ?? []
        attributes.comment = value(comment).flatMap(text).flatMap { $0.isEmpty ? nil : $0 }
        attributes.starRating = value(rating).flatMap(text).flatMap(Self.stars(rating:))
        attributes.whereFroms = [originURL, referrerURL].compactMap { value($0).flatMap(text) }.filter { !$0.isEmpty }
        return attributes
    }

    /// The tags of a `user.xdg.tags` value: split at commas, trimmed, empty ones and repeats
    /// (ignoring case) left out.
    public static func tags(in value: [UInt8]) -> [String] {
        var seen = Set<String>()
        return (text(value) ?? "").split(separator: ",")
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// The `user.xdg.tags` value of `tags`.
    public static func value(ofTags tags: [String]) -> [UInt8] {
        Array(tags.joined(separator: ",").utf8)
    }

    /// Stars (0–5, halves allowed) from Baloo's rating (0–10); `nil` for anything else.
    static func stars(rating: String) -> Double? {
        guard let number = Int(rating.trimmingWhitespace()), (0...10).contains(number) else { return nil }
        return Double(number) / 2
    }

    /// A value as text: UTF-8 (a trailing NUL, which some programs write, left out), else nothing.
    private static func text(_ value: [UInt8]) -> String? {
        String(validating: value.last == 0 ? Array(value.dropLast()) : value, as: UTF8.self)
    }
}

private extension StringProtocol {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
