import Searchlight

/// Where an item lives in the API's URLs: `/api/items/DOMAIN/ID`, `/api/files/DOMAIN/ID`, …
///
/// Domains and identifiers are byte strings that may hold slashes, spaces, `%`, `?`, `#` and
/// bytes that are not UTF-8. Both are written with percent-encoding of their raw bytes: every
/// byte other than the unreserved characters of RFC 3986 (`A–Z a–z 0–9 - . _ ~`) becomes `%XX`.
/// The domain is one path segment, its slashes encoded (`%2F`); in the identifier the slash
/// separates components and stays literal, so that the last segment of a file's URL is its name.
/// Decoding turns every `%XX` back into its byte; a literal `/` and `%2F` in the identifier
/// mean the same. `/api/files/%2Fhome%2Fzoe%2FDocuments/Projects/plan%20v2.pdf` is the item
/// `Projects/plan v2.pdf` of the domain `/home/zoe/Documents`.
/// The library's ``Searchlight/ItemReference`` (domain and identifier), as the API writes it.
public typealias ItemLocation = ItemReference

extension ItemReference {
    /// The path below an endpoint: `DOMAIN/ID`, percent-encoded.
    ///
    /// ```swift
    /// ItemLocation(domain: "/home/zoe/Documents", identifier: "Projects/plan v2.pdf").encodedPath
    /// // "%2Fhome%2Fzoe%2FDocuments/Projects/plan%20v2.pdf"
    /// ```
    public var encodedPath: String {
        Self.percentEncode(Array(domain.utf8), keepingSlashes: false) + "/"
            + Self.percentEncode(identifier.bytes, keepingSlashes: true)
    }

    /// Reads `DOMAIN/ID` (the part of a request's path after the endpoint's prefix); `nil` when
    /// it is malformed: no identifier, a bad escape, or a domain that is not UTF-8.
    ///
    /// - Parameter encodedPath: The text after the endpoint's prefix; the first literal `/`
    ///   ends the domain.
    public init?(encodedPath: Substring) {
        guard let slash = encodedPath.firstIndex(of: "/"),
              let domainBytes = Self.percentDecode(encodedPath[..<slash]),
              let domain = String(validating: domainBytes, as: UTF8.self),
              let identifier = Self.percentDecode(encodedPath[encodedPath.index(after: slash)...]),
              !domain.isEmpty, !identifier.isEmpty
        else { return nil }
        self.init(domain: domain, identifier: ItemIdentifier(bytes: identifier))
    }

    /// Whether `byte` is one of RFC 3986's unreserved characters, written as it is.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// `bytes` with every byte but the unreserved ones (and `/` when kept) written `%XX`.
    ///
    /// - Parameters:
    ///   - bytes: The raw bytes: a domain's UTF-8, or an identifier.
    ///   - keepingSlashes: Whether `/` stays literal (an identifier's components).
    /// - Returns: ASCII text, upper-case hex in its escapes.
    public static func percentEncode(_ bytes: [UInt8], keepingSlashes: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        for byte in bytes {
            if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of a percent-encoded text; `nil` when a `%` is not followed by two hex digits.
    /// `+` stays `+` (in a path it is not a space).
    ///
    /// - Parameter text: Percent-encoded text; other bytes are taken as they are.
    /// - Returns: The raw bytes, or `nil` for a malformed escape.
    public static func percentDecode(_ text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    return nil
                }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// The value of a hex digit, either case; `nil` for another byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
