import Foundation

/// The parameters of a request's query string (`?q=quarterly+report&limit=20`), decoded as a
/// form: `+` is a space and `%XX` a byte. A value that is not UTF-8 after decoding is dropped.
struct QueryParameters: Sendable {
    private var values: [String: String] = [:]

    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = Self.decode(parts[0]), values[key] == nil else { continue }
            values[key] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
    }

    subscript(_ key: String) -> String? { values[key] }

    /// The parameters' names.
    var names: some Collection<String> { values.keys }

    private static func decode(_ text: Substring) -> String? {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return ItemLocation.percentDecode(spaced[...]).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
