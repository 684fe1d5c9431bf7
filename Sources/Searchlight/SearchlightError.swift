/// An error of the Searchlight library. Prints as one clear line.
public struct SearchlightError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The index file could not be opened or created.
        public static let cannotOpenIndex = Code(name: "cannot open index")
        /// The index file does not exist and the index was opened read-only.
        public static let noIndex = Code(name: "no index")
        /// A database operation failed.
        public static let database = Code(name: "database error")
        /// A query string is malformed.
        public static let invalidQuery = Code(name: "invalid query")
        /// No item has the given identifier.
        public static let notFound = Code(name: "not found")
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, for people.
    public var message: String
    /// The index file involved, when there is one.
    public var path: String?
    /// The underlying error (SQLite's, a system call's), when there is one.
    public var underlying: String?

    public init(_ code: Code, _ message: String, path: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.underlying = underlying.map { "\($0)" }
    }

    public var description: String {
        var line = message
        if let path { line += " (\(path))" }
        if let underlying { line += ": \(underlying)" }
        return line
    }
}
