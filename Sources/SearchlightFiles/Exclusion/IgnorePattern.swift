/// One line of a `.searchlightignore` file (or one configured exclusion), in gitignore syntax.
///
/// The rules are git's (`gitignore(5)`):
/// - a leading `!` negates the pattern (a matching path is included again); `\!` and `\#`
///   stand for a literal `!` or `#` at the start;
/// - a trailing `/` makes the pattern match directories only;
/// - a pattern with a `/` at its start or in its middle is anchored: it is matched against the
///   whole path relative to the folder of the file that holds it; otherwise it is matched
///   against the last component of the path, at any depth;
/// - `*` matches anything but `/`, `?` one byte but `/`, `[a-z]` and `[!a-z]` a class;
///   `**/` at the start matches in every folder, `/**` at the end everything inside,
///   `/**/` zero or more folders; `\` escapes the next byte.
///
/// Patterns are matched as bytes, like the paths of the index. The common shapes (a plain
/// name, `*.ext`, `name*`) are matched without the general matcher: the walk asks once per
/// entry.
///
/// A value: parsing costs one pass over the line, and matching a plain name, suffix or prefix
/// one comparison of bytes. The general matcher backtracks over `*` and `**` as git's does,
/// so its cost grows with the number of stars and the length of the path; ignore files are
/// meant to hold short patterns.
///
/// ```swift
/// let pattern = IgnorePattern("build/")!        // any folder named build, at any depth
/// pattern.matchesDirectoriesOnly                 // true
/// IgnorePattern("# a comment")                   // nil
/// IgnorePattern("!keep.log")!.isNegated          // true
/// ```
///
/// ## Topics
///
/// ### Reading a pattern
///
/// - ``init(_:)``
/// - ``source``
/// - ``isNegated``
/// - ``matchesDirectoriesOnly``
/// - ``isAnchored``
public struct IgnorePattern: Sendable, Equatable {
    /// How the pattern is matched.
    ///
    /// Chosen once, when the line is parsed: most ignore files hold names and extensions, which
    /// the walk then tests without the general matcher.
    enum Shape: Sendable, Equatable {
        /// The last component equals these bytes.
        case name([UInt8])
        /// The last component ends with these bytes (`*.pem`).
        case suffix([UInt8])
        /// The last component starts with these bytes (`id_rsa*`).
        case prefix([UInt8])
        /// The general matcher, over the last component (unanchored) or the whole path.
        case glob([UInt8])
    }

    /// The line as written (without a trailing newline).
    public let source: String
    /// A `!` pattern: a match includes the path again.
    public let isNegated: Bool
    /// A pattern ending in `/`: it matches directories only.
    public let matchesDirectoriesOnly: Bool
    /// Matched against the whole relative path rather than its last component.
    public let isAnchored: Bool
    /// How ``matches(_:nameStart:isDirectory:)`` tests a path: a fast shape, or the general
    /// matcher.
    let shape: Shape

    /// Parses one line; `nil` for a blank line or a comment.
    ///
    /// A trailing carriage return and trailing spaces are dropped (a space escaped as `\ ` is
    /// kept); a pattern that is nothing but `/` is no pattern. The line is read as UTF-8 bytes.
    ///
    /// - Parameter line: One line of an ignore file, without its newline.
    public init?(_ line: String) {
        var bytes = Array(line.utf8)
        if bytes.last == 0x0D { bytes.removeLast() }
        // Trailing spaces are ignored unless escaped with a backslash.
        while bytes.last == 0x20, !(bytes.count >= 2 && bytes[bytes.count - 2] == 0x5C) { bytes.removeLast() }
        guard let first = bytes.first, first != 0x23 else { return nil }
        source = line
        var negated = false
        if first == 0x21 {
            negated = true
            bytes.removeFirst()
        } else if first == 0x5C, bytes.count > 1, bytes[1] == 0x21 || bytes[1] == 0x23 {
            bytes.removeFirst()
        }
        isNegated = negated
        var directoriesOnly = false
        while bytes.count > 1, bytes.last == 0x2F {
            directoriesOnly = true
            bytes.removeLast()
        }
        if bytes == [0x2F] { return nil }
        matchesDirectoriesOnly = directoriesOnly
        isAnchored = bytes.dropLast().contains(0x2F)
        if bytes.first == 0x2F { bytes.removeFirst() }
        guard !bytes.isEmpty else { return nil }
        shape = Self.shape(of: bytes, anchored: isAnchored)
    }

    /// The fast shape of an unanchored pattern without special bytes but a leading or trailing
    /// `*`; every other pattern is a glob.
    private static func shape(of bytes: [UInt8], anchored: Bool) -> Shape {
        if anchored { return .glob(bytes) }
        func isSpecial(_ byte: UInt8) -> Bool { byte == 0x2A || byte == 0x3F || byte == 0x5B || byte == 0x5C }
        let body = bytes.dropFirst()
        if !bytes.contains(where: isSpecial) { return .name(bytes) }
        if bytes.first == 0x2A, !body.isEmpty, !body.contains(where: isSpecial) { return .suffix(Array(body)) }
        let head = bytes.dropLast()
        if bytes.last == 0x2A, !head.isEmpty, !head.contains(where: isSpecial) { return .prefix(Array(head)) }
        return .glob(bytes)
    }

    /// Whether the pattern matches `path` (relative to the folder of the pattern's file, no
    /// leading `/`), whose last component starts at `nameStart`.
    ///
    /// Negation is not applied here: the caller (``ExclusionRules``) decides, the last matching
    /// pattern of a file winning as in git.
    ///
    /// - Parameters:
    ///   - path: The path's bytes.
    ///   - nameStart: The index in `path` where its last component starts.
    ///   - isDirectory: Whether the path is a folder (patterns ending in `/` need one).
    /// - Returns: Whether the pattern matches, negated or not.
    func matches(_ path: ArraySlice<UInt8>, nameStart: Int, isDirectory: Bool) -> Bool {
        if matchesDirectoriesOnly && !isDirectory { return false }
        let name = path[nameStart...]
        switch shape {
        case .name(let bytes): return name.elementsEqual(bytes)
        case .suffix(let bytes): return name.count >= bytes.count && name.suffix(bytes.count).elementsEqual(bytes)
        case .prefix(let bytes): return name.count >= bytes.count && name.prefix(bytes.count).elementsEqual(bytes)
        case .glob(let pattern):
            return pattern.withUnsafeBufferPointer { pattern in
                let subject = isAnchored ? path : name
                return subject.withUnsafeBufferPointer { subject in
                    GlobMatcher(pattern: pattern, subject: subject).matches(0, 0)
                }
            }
        }
    }
}

/// Matches a gitignore glob against a path, both as bytes (git's wildmatch with `WM_PATHNAME`).
///
/// Borrows both buffers for one call; it allocates nothing. Recursive: each `*` tries the
/// rest of the pattern at every position up to the next `/`.
struct GlobMatcher {
    /// The pattern's bytes, without the leading `/` of an anchored pattern.
    let pattern: UnsafeBufferPointer<UInt8>
    /// The path, or its last component, being matched.
    let subject: UnsafeBufferPointer<UInt8>

    /// `/`, which no `*`, `?` or class matches.
    static let slash: UInt8 = 0x2F
    /// `*`.
    static let star: UInt8 = 0x2A

    /// Whether `pattern[p...]` matches `subject[s...]`.
    ///
    /// - Parameters:
    ///   - p: Where to start in the pattern.
    ///   - s: Where to start in the subject.
    /// - Returns: Whether the rest of the pattern matches the whole rest of the subject.
    func matches(_ p: Int, _ s: Int) -> Bool {
        var p = p, s = s
        while p < pattern.count {
            let byte = pattern[p]
            switch byte {
            case Self.star:
                let isDouble = p + 1 < pattern.count && pattern[p + 1] == Self.star
                if isDouble && (p == 0 || pattern[p - 1] == Self.slash) {
                    let end = p + 2
                    if end == pattern.count { return true }  // `/**` at the end: everything inside
                    if pattern[end] == Self.slash {
                        // `**/`: zero or more whole folders.
                        if matches(end + 1, s) { return true }
                        var t = s
                        while t < subject.count {
                            if subject[t] == Self.slash && matches(end + 1, t + 1) { return true }
                            t += 1
                        }
                        return false
                    }
                }
                // `*` (or a `**` inside a component): anything but `/`.
                var next = p + 1
                while next < pattern.count && pattern[next] == Self.star { next += 1 }
                var t = s
                while true {
                    if matches(next, t) { return true }
                    if t == subject.count || subject[t] == Self.slash { return false }
                    t += 1
                }
            case 0x3F:  // ?
                guard s < subject.count, subject[s] != Self.slash else { return false }
                p += 1
                s += 1
            case 0x5B:  // [
                guard s < subject.count, subject[s] != Self.slash,
                      let (matched, end) = matchClass(at: p, subject[s]) else {
                    // An unterminated `[` is a literal.
                    if s < subject.count, subject[s] == byte, matchClass(at: p, subject[s]) == nil {
                        p += 1
                        s += 1
                        continue
                    }
                    return false
                }
                guard matched else { return false }
                p = end
                s += 1
            case 0x5C where p + 1 < pattern.count:  // backslash escape
                guard s < subject.count, subject[s] == pattern[p + 1] else { return false }
                p += 2
                s += 1
            default:
                guard s < subject.count, subject[s] == byte else { return false }
                p += 1
                s += 1
            }
        }
        return s == subject.count
    }

    /// Matches `byte` against the class starting at `pattern[start]` (a `[`); returns whether
    /// it matched and where the class ends, or `nil` when the class is not terminated.
    ///
    /// `[!…]` and `[^…]` negate; a `]` right after the `[` (or the negation) is a member; `\`
    /// escapes a member; `a-z` is a range of byte values.
    func matchClass(at start: Int, _ byte: UInt8) -> (Bool, Int)? {
        var p = start + 1
        var negated = false
        if p < pattern.count, pattern[p] == 0x21 || pattern[p] == 0x5E {
            negated = true
            p += 1
        }
        var matched = false
        var first = true
        while p < pattern.count {
            var low = pattern[p]
            if low == 0x5D && !first { return (matched != negated, p + 1) }
            first = false
            if low == 0x5C, p + 1 < pattern.count {
                p += 1
                low = pattern[p]
            }
            var high = low
            if p + 2 < pattern.count, pattern[p + 1] == 0x2D, pattern[p + 2] != 0x5D {
                high = pattern[p + 2]
                if high == 0x5C, p + 3 < pattern.count {
                    p += 1
                    high = pattern[p + 2]
                }
                p += 2
            }
            if low <= byte && byte <= high { matched = true }
            p += 1
        }
        return nil
    }
}
