/// The patterns of one `.searchlightignore` file, or of the configuration: the last pattern
/// that matches a path decides whether it is excluded (gitignore semantics).
///
/// ```swift
/// let rules = IgnoreRules(text: "*.log\n!keep.log\nbuild/\n")
/// rules.decision(for: "debug.log", isDirectory: false)  // .excluded
/// rules.decision(for: "keep.log", isDirectory: false)   // .included
/// rules.decision(for: "notes.txt", isDirectory: false)  // nil: these rules say nothing
/// ```
public struct IgnoreRules: Sendable, Equatable {
    /// What a set of rules says of a path.
    public enum Decision: Sendable, Equatable {
        /// A pattern matched last: the path is left out.
        case excluded
        /// A negated pattern matched last: included again (unless a parent folder is excluded).
        case included
    }

    /// The patterns, in the order written.
    public let patterns: [IgnorePattern]

    /// Rules of patterns already parsed, in the order they apply.
    public init(patterns: [IgnorePattern]) { self.patterns = patterns }

    /// Parses the lines of an ignore file; blank lines and `#` comments are skipped.
    public init(text: String) {
        patterns = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).compactMap {
            IgnorePattern(String($0))
        }
    }

    /// Parses each string as one line.
    public init(lines: [String]) { patterns = lines.compactMap(IgnorePattern.init) }

    /// Whether there is no pattern: every path is left to the other rules.
    public var isEmpty: Bool { patterns.isEmpty }

    /// What the last matching pattern says of `path` (relative to the folder these rules
    /// belong to), or `nil` when none matches.
    public func decision(for path: String, isDirectory: Bool) -> Decision? {
        let bytes = Array(path.utf8)
        return decision(for: bytes[...], nameStart: Self.nameStart(of: bytes[...]), isDirectory: isDirectory)
    }

    /// What the last matching pattern says of `path`, whose last component starts at `nameStart`.
    func decision(for path: ArraySlice<UInt8>, nameStart: Int, isDirectory: Bool) -> Decision? {
        for pattern in patterns.reversed() where pattern.matches(path, nameStart: nameStart, isDirectory: isDirectory) {
            return pattern.isNegated ? .included : .excluded
        }
        return nil
    }

    /// Where the last component of `path` starts.
    static func nameStart(of path: ArraySlice<UInt8>) -> Int {
        (path.lastIndex(of: 0x2F).map { $0 + 1 }) ?? path.startIndex
    }
}
