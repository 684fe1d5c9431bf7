import Foundation

/// The unique identifier of an item within its domain, kept as raw bytes.
///
/// File indexers use the path relative to the root, which on Linux is any
/// sequence of bytes but NUL, not necessarily valid UTF-8. Applies that index
/// their own records usually build identifiers from strings:
///
/// ```swift
/// let id: ItemIdentifier = "note-42"
/// let fromPath = ItemIdentifier(bytes: [0x72, 0xE9, 0x73, 0x75, 0x6D, 0xE9]) // Latin-1 "résumé"
/// ```
///
/// Identifiers compare, sort and hash by their bytes: two identifiers that print alike
/// (``lossyString``) may differ. Byte order is the order of the index's `(domain, identifier)`
/// key and of the file indexer's walk (`DirectoryWalker`), so a folder's items are a range
/// (``descendantBounds``), and a `/` in an identifier is what the subtree operations
/// (``IndexBatch/deleteTree(_:domain:)``, ``IndexBatch/move(_:to:domain:rename:)``) and
/// ``SearchableItem/identifierIsPath`` split on.
public struct ItemIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier's bytes, exactly as given.
    public var bytes: [UInt8]

    /// Creates an identifier from raw bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Creates an identifier from the UTF-8 bytes of a string.
    public init(_ string: String) { self.bytes = Array(string.utf8) }

    /// An identifier written as a string literal: `"Reports/2024.pdf"`, its UTF-8 bytes.
    public init(stringLiteral value: String) { self.init(value) }

    /// The identifier as a string when its bytes are valid UTF-8, else `nil`.
    public var string: String? { String(validating: bytes, as: UTF8.self) }

    /// The identifier as a string, with each byte that is not valid UTF-8 replaced by U+FFFD.
    /// For display only: different identifiers can share a lossy string.
    public var lossyString: String { String(decoding: bytes, as: UTF8.self) }

    /// The identifier decoded the way Python's `surrogateescape` does: each byte that is not
    /// part of valid UTF-8 becomes the lone surrogate U+DC80...U+DCFF, so that two different
    /// identifiers always give two different escaped strings and the bytes can be recovered.
    /// Returned as UTF-16 code units because Swift strings cannot hold lone surrogates.
    public var surrogateEscapedUTF16: [UInt16] { SurrogateEscape.utf16(from: bytes) }

    /// The last path component (after the last `/`), as bytes.
    public var lastComponent: ArraySlice<UInt8> {
        if let slash = bytes.lastIndex(of: UInt8(ascii: "/")) { return bytes[(slash + 1)...] }
        return bytes[...]
    }

    /// The components before the last one (the folders of a relative path), as lossy strings.
    public var parentComponents: [String] {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return [] }
        return bytes[..<slash].split(separator: UInt8(ascii: "/")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bounds of the identifiers strictly below this one as a folder (`self/…`), in byte
    /// order: from `self/` (included; never an identifier itself) to `self0` (excluded), since
    /// `0` follows `/`. Moves and deletes of a subtree, and merges of a walk with the index,
    /// select a folder's items with it.
    public var descendantBounds: (lower: ItemIdentifier, upper: ItemIdentifier) {
        (ItemIdentifier(bytes: bytes + [UInt8(ascii: "/")]), ItemIdentifier(bytes: bytes + [UInt8(ascii: "0")]))
    }

    /// Whether this identifier is `ancestor` or lies below it (`ancestor/…`), as the items a
    /// subtree move or delete reaches. Every identifier lies below the empty one.
    ///
    /// ```swift
    /// ItemIdentifier("a/b/c").isInSubtree(at: "a/b")   // true
    /// ItemIdentifier("a/bc").isInSubtree(at: "a/b")    // false: not below the folder a/b
    /// ```
    ///
    /// - Parameter ancestor: The folder's identifier.
    /// - Returns: Whether this is `ancestor` or lies below it.
    public func isInSubtree(at ancestor: ItemIdentifier) -> Bool {
        Self.isPath(bytes, inSubtreeAt: ancestor.bytes)
    }

    /// ``isInSubtree(at:)`` on raw bytes: the one definition of the check.
    ///
    /// - Parameters:
    ///   - path: The bytes tested.
    ///   - ancestor: The folder's bytes; empty for the root, which holds everything.
    /// - Returns: Whether `path` is `ancestor` or lies below it.
    public static func isPath(_ path: [UInt8], inSubtreeAt ancestor: [UInt8]) -> Bool {
        if ancestor.isEmpty { return true }
        guard path.count >= ancestor.count else { return false }
        if path.count > ancestor.count, path[ancestor.count] != UInt8(ascii: "/") { return false }
        // Compare as memory: a watcher runs this once per watch on every directory move.
        return path.withUnsafeBytes { pathBytes in
            ancestor.withUnsafeBytes { ancestorBytes in
                memcmp(pathBytes.baseAddress!, ancestorBytes.baseAddress!, ancestorBytes.count) == 0
            }
        }
    }

    /// Byte order, shorter first on a common prefix: `lexicographicallyPrecedes`, compared as
    /// memory (ranking a common word sorts thousands of identifiers of the same date).
    public static func < (lhs: ItemIdentifier, rhs: ItemIdentifier) -> Bool {
        let common = Swift.min(lhs.bytes.count, rhs.bytes.count)
        let order = common == 0 ? 0 : lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, common) }
        }
        return order != 0 ? order < 0 : lhs.bytes.count < rhs.bytes.count
    }

    /// The identifier as text, each byte that is not valid UTF-8 replaced (for messages, not for
    /// round trips: use ``bytes``).
    public var description: String { lossyString }
}
