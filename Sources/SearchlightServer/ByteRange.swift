import Foundation

/// A `Range: bytes=…` header against a file of known size (RFC 9110 §14): one range is served;
/// several ranges, or a header we do not understand, get the whole file.
enum ByteRange: Equatable {
    /// Serve the whole file (200): no range, several, or one not understood.
    case whole
    /// Serve these bytes (206), clamped to the file.
    case part(ClosedRange<Int64>)
    /// The range starts past the end, or asks for no byte (416).
    case unsatisfiable

    /// Reads `header` against a file of `size` bytes: `bytes=A-B`, `bytes=A-` or the last
    /// `N` bytes, `bytes=-N`.
    static func parse(_ header: String, size: Int64) -> ByteRange {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        if parts[0].isEmpty {
            // The last N bytes.
            guard let suffix = Int64(parts[1]) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        }
        guard let start = Int64(parts[0]), start >= 0 else { return .whole }
        guard start < size else { return .unsatisfiable }
        let end = parts[1].isEmpty ? size - 1 : Int64(parts[1])
        guard let end, end >= start else { return .whole }
        return .part(start...min(end, size - 1))
    }
}
