import Searchlight

/// The string a desktop shell holds for a result, and the item it names: the domain, U+001F,
/// then the identifier with `%` written `%25` (and, when it is not valid UTF-8, every byte
/// from 0x80 written `%XX`), so that any identifier's bytes come back exactly.
struct ResultID: Hashable {
    var domain: String
    var identifier: ItemIdentifier

    private static let separator: Character = "\u{1F}"

    init(domain: String, identifier: ItemIdentifier) {
        self.domain = domain
        self.identifier = identifier
    }

    /// Reads a string made by ``string``; `nil` when it is not one.
    init?(_ string: String) {
        guard let cut = string.firstIndex(of: Self.separator) else { return nil }
        var bytes: [UInt8] = []
        let escaped = Array(string[string.index(after: cut)...].utf8)
        var index = 0
        while index < escaped.count {
            if escaped[index] == UInt8(ascii: "%") {
                guard index + 2 < escaped.count,
                      let value = UInt8(String(decoding: escaped[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
                index += 3
            } else {
                bytes.append(escaped[index])
                index += 1
            }
        }
        self.init(domain: String(string[..<cut]), identifier: ItemIdentifier(bytes: bytes))
    }

    var string: String {
        let validUTF8 = identifier.string != nil
        let escaped = FileURI.percentEncoded(identifier.bytes) { $0 != UInt8(ascii: "%") && (validUTF8 || $0 < 0x80) }
        return domain + String(Self.separator) + escaped
    }
}
