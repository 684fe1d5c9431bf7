import GRDB
import SystemPackage

/// An error of the index. Prints as one clear line; its ``cause`` keeps what failed beneath,
/// typed, so that a caller can tell a full disk from a busy database.
///
/// ```swift
/// do {
///     try index.apply(batch)
/// } catch let error as SearchlightError where error.isDiskFull {
///     // SQLITE_FULL or ENOSPC: nothing of the batch landed; wait for room and try again
/// } catch let error as SearchlightError where error.isDamage {
///     // retrying cannot help: SearchableIndex.openResettingDamage(path:) starts it afresh
/// }
/// ```
///
/// ## Topics
///
/// ### The error
///
/// - ``code``
/// - ``message``
/// - ``path``
/// - ``cause``
/// - ``Code``
/// - ``Cause``
///
/// ### Telling failures apart
///
/// - ``isDiskFull``
/// - ``isBusy``
/// - ``isDamage``
/// - ``isUnavailable``
/// - ``isIndexUnavailable``
/// - ``extendedResultCode``
public struct SearchlightError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    ///
    /// A struct of static values rather than an enum, so that a code can be added (as
    /// ``damagedIndex`` is, beside the faults) without breaking a caller's `switch`; compare with
    /// `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The index file could not be opened or created.
        public static let cannotOpenIndex = Code(name: "cannot open index")
        /// The index file does not exist and the index was opened read-only.
        public static let noIndex = Code(name: "no index")
        /// The index has an older schema and was opened read-only (only a writer upgrades it).
        public static let outdatedIndex = Code(name: "outdated index")
        /// A database operation failed.
        public static let database = Code(name: "database error")
        /// A query string is malformed.
        public static let invalidQuery = Code(name: "invalid query")
        /// The code's name, as the error's line prints it (`cannot open index`).
        public var description: String { name }
    }

    /// What failed beneath.
    public enum Cause: Sendable {
        /// SQLite's error, as GRDB reports it (its extended result code included).
        case database(DatabaseError)
        /// A system call's error.
        case system(Errno)
        /// Any other error (Foundation's, while creating the index's folder).
        case other(any Error & Sendable)
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, for people.
    public var message: String
    /// The index file involved, when there is one.
    public var path: String?
    /// The underlying error, when there is one.
    public var cause: Cause?

    /// Creates an error of kind `code`, saying `message`, about the index file at `path`, caused by `cause`.
    ///
    /// ```swift
    /// } catch let error as Errno {
    ///     throw SearchlightError(.cannotOpenIndex, "cannot move the damaged index aside", path: path,
    ///                            cause: .system(error))
    /// }
    /// ```
    public init(_ code: Code, _ message: String, path: String? = nil, cause: Cause? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause
    }

    /// `error` as the index's error: a ``SearchlightError`` as it is, SQLite's word that the
    /// file is damaged as ``Code/damagedIndex``, anything else as `code` with
    /// `message`, the error kept as its cause.
    static func wrapping(_ error: any Error, _ code: Code, _ message: String, path: String) -> SearchlightError {
        if let error = error as? SearchlightError { return error }
        let cause = cause(of: error)
        if case .database(let error) = cause, isDamage(error.resultCode) {
            return SearchlightError(.damagedIndex, "the index is damaged", path: path, cause: cause)
        }
        return SearchlightError(code, message, path: path, cause: cause)
    }

    /// `error` as a cause: GRDB's errors keep their type.
    static func cause(of error: any Error) -> Cause {
        switch error {
        case let error as DatabaseError: .database(error)
        case let error as Errno: .system(error)
        default: .other(error)
        }
    }

    /// SQLite's extended result code (`SQLITE_FULL`, `SQLITE_BUSY_SNAPSHOT`, …), when SQLite failed.
    public var extendedResultCode: ResultCode? {
        if case .database(let error) = cause { error.extendedResultCode } else { nil }
    }

    /// Whether the disk (or the file system's quota) is full: `SQLITE_FULL`, or `ENOSPC`/`EDQUOT`.
    public var isDiskFull: Bool {
        switch cause {
        case .database(let error): error.resultCode == .SQLITE_FULL
        case .system(let errno): errno == .noSpace || errno == .diskQuotaExceeded
        default: false
        }
    }

    /// Whether another connection held the database for longer than the busy timeout.
    ///
    /// Another writer held the file's lock past the busy timeout (30 seconds for the index's
    /// connections); trying again later usually succeeds.
    public var isBusy: Bool {
        if case .database(let error) = cause { error.resultCode == .SQLITE_BUSY } else { false }
    }

    /// One line: the message, the path in parentheses, then the cause (SQLite's message and
    /// extended result code, or the `errno`).
    public var description: String {
        var line = message
        if let path { line += " (\(path))" }
        switch cause {
        case .database(let error): line += ": \(error.message ?? "\(error.resultCode)") (\(error.extendedResultCode))"
        case .system(let errno): line += ": \(errno)"
        case .other(let error): line += ": \(error)"
        case nil: break
        }
        return line
    }
}
