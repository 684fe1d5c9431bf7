import PostgresNIO

/// An error of the PostgreSQL index, shaped as every subsystem's error is
/// (Docs/Architecture.md#errors): a ``code``, a ``message``, the database (``location``, its
/// URL without password) and the ``cause`` kept typed (postgres-nio's `PSQLError`, whose
/// ``sqlState`` says what the server meant). Prints as one line.
///
/// A caller tells failures apart by ``code`` and by the properties that read the cause:
/// ``isConnectionLost`` (the handle reconnects by itself; retry later), ``isStatementTimeout``
/// (the statement ran past the handle's `statementTimeout`), and ``sqlState`` for anything
/// finer. The printed line never holds the password (``location`` is the URL without it).
///
/// ```swift
/// do {
///     try await index.indexItems(items)
/// } catch let error as PostgresIndexError where error.isConnectionLost {
///     logger.warning("index unreachable, will retry: \(error)")
/// }
/// ```
///
/// ## Topics
///
/// ### The error
///
/// - ``code``
/// - ``message``
/// - ``location``
/// - ``cause``
/// - ``Code``
/// - ``Cause``
///
/// ### Telling failures apart
///
/// - ``isConnectionLost``
/// - ``isStatementTimeout``
/// - ``sqlState``
public struct PostgresIndexError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    ///
    /// A struct of static values rather than an enum, so that a code can be added without
    /// breaking a caller's `switch`; compare with `==`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The URL is not a PostgreSQL URL, or one of its parameters is wrong.
        public static let invalidLocation = Code(name: "invalid location")
        /// The server could not be reached, or refused the credentials.
        public static let cannotConnect = Code(name: "cannot connect")
        /// The database cannot hold an index (its encoding, a missing extension, an index
        /// written by a newer Searchlight).
        public static let unsupportedDatabase = Code(name: "unsupported database")
        /// A statement failed.
        public static let database = Code(name: "database error")
        /// A query string is malformed, or asks for what this index cannot answer.
        public static let invalidQuery = Code(name: "invalid query")
        /// The code's name (`cannot connect`).
        public var description: String { name }
    }

    /// What failed beneath.
    public enum Cause: Sendable {
        /// PostgreSQL's error, as postgres-nio reports it (the server's SQLSTATE included).
        case postgres(PSQLError)
        /// Any other error (a TLS configuration, a connection that could not be made).
        case other(any Error & Sendable)
    }

    /// The kind of failure.
    public var code: Code
    /// What happened, for people.
    public var message: String
    /// The database, as its URL without password.
    public var location: String?
    /// The underlying error, when there is one.
    public var cause: Cause?

    /// Creates an error of kind `code`, saying `message`, about the database at `location`,
    /// caused by `cause` (postgres-nio's transaction wrapper is looked into for its error).
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What failed, for people (`cannot write the batch`); no value of the user's.
    ///   - location: The database; only its description, without password, is kept.
    ///   - cause: The underlying error; a `PostgresTransactionError` is replaced by the error of
    ///     its closure, `BEGIN`, `COMMIT` or `ROLLBACK`, the first that is set.
    public init(_ code: Code, _ message: String, location: PostgresLocation? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.location = location?.description
        self.cause = Self.cause(of: cause).map { error in
            if let error = error as? PSQLError { .postgres(error) } else { .other(error) }
        }
    }

    /// The error inside postgres-nio's transaction wrapper, when there is one.
    ///
    /// - Returns: The first of the wrapper's closure, begin, commit and rollback errors that is
    ///   set; `error` itself when it is no wrapper.
    static func cause(of error: (any Error)?) -> (any Error & Sendable)? {
        guard let transaction = error as? PostgresTransactionError else { return error.map { $0 as any Error & Sendable } }
        let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? transaction.rollbackError
        return inner.map { $0 as any Error & Sendable }
    }

    /// PostgreSQL's SQLSTATE (`57P01`: the server ended the connection, `40P01`: deadlock…).
    public var sqlState: String? {
        if case .postgres(let error) = cause { error.serverInfo?[.sqlState] } else { nil }
    }

    /// The server's message, or postgres-nio's code when the server said nothing.
    ///
    /// Used by ``description`` after the message and the location; without a cause, the error
    /// prints its message and location only.
    var underlyingDescription: String? {
        switch cause {
        case .postgres(let error):
            // PSQLError's own description hides the server's message on purpose (it may hold
            // data); the message of an index error names no value of a bound parameter.
            if let message = error.serverInfo?[.message] {
                return message + (sqlState.map { " (SQLSTATE \($0))" } ?? "")
            }
            if let cause = error.underlying { return "\(error.code): \(cause)" }
            return "\(error.code)"
        case .other(let error):
            return "\(error)"
        case nil:
            return nil
        }
    }

    /// One line: the message, the database in parentheses, then the cause (the server's message and SQLSTATE).
    public var description: String {
        var line = message
        if let location { line += " (\(location))" }
        if let underlyingDescription { line += ": \(underlyingDescription)" }
        return line
    }

    /// Whether the server stopped a statement that ran past the handle's statement timeout
    /// (SQLSTATE 57014, `statement_timeout`).
    public var isStatementTimeout: Bool { sqlState == "57014" }

    /// Whether retrying on a new connection can succeed: the connection was lost (the server
    /// restarted, an administrator ended it, the network dropped) or the transaction lost a
    /// race (a deadlock, a serialization failure).
    ///
    /// What ``PostgresIndex``'s retry loop retries: SQLSTATE 40001 (serialization failure) and
    /// 40P01 (deadlock), and every case of ``isConnectionLost``.
    var isTransient: Bool {
        isConnectionLost || sqlState == "40001" || sqlState == "40P01"
    }

    /// Whether the database could not be reached or its connection was lost: the server is
    /// stopped, restarting, shutting down, out of connections, or cut off; an administrator
    /// ended the session (`pg_terminate_backend`); no answer came before the deadline. The
    /// handle reconnects by itself on its next call.
    ///
    /// SQLSTATE class 08 (connection exception), 57P01 (administrator shutdown), 57P02 (crash
    /// shutdown), 57P03 (cannot connect now) and 53300 (too many connections); without an
    /// SQLSTATE, postgres-nio's closed-connection and connection errors, or any
    /// ``Code/cannotConnect`` error (no answer before the deadline).
    public var isConnectionLost: Bool {
        if let sqlState {
            return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(sqlState)
        }
        guard case .postgres(let error) = cause else { return code == .cannotConnect }
        return [.serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown]
            .contains(error.code)
    }
}
