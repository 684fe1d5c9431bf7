import Foundation

/// The parameters of a request's query string (`?q=quarterly+report&limit=20`), decoded as a
/// form: `+` is a space and `%XX` a byte. A value that is not UTF-8 after decoding is dropped.
struct QueryParameters: Sendable {
    /// The values by name; of a name given twice, the first.
    private var values: [String: String] = [:]

    /// The parameters of `query` (the part after `?`, without it); `nil`: none. A name
    /// without `=` has the empty value.
    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = Self.decode(parts[0]), values[key] == nil else { continue }
            values[key] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
    }

    /// The value of the parameter `key`, or `nil` when it was not given.
    subscript(_ key: String) -> String? { values[key] }

    /// The parameters' names.
    var names: some Collection<String> { values.keys }

    /// `text` with `+` as a space and escapes decoded; `nil` when it is not UTF-8 then.
    private static func decode(_ text: Substring) -> String? {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return ItemLocation.percentDecode(spaced[...]).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
