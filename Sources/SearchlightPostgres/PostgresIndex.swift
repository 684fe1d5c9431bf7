import Foundation
import Logging
import PostgresNIO
import Searchlight
import Synchronization

/// A searchable index in a PostgreSQL database, shared by many machines: the operations of
/// ``Searchlight/SearchableIndex`` on a server that any number of writers (one per domain)
/// and readers use at once (Docs/Contract.md#shared-index).
///
/// Every write is a transaction of rows keyed by (domain, identifier): writers of different
/// domains never update a common row, so their batches never conflict; PostgreSQL's MVCC
/// lets readers read while they write. A batch whose connection is lost (the server
/// restarted, an administrator ended the session) is retried on a new connection with
/// exponential backoff; a batch is all or nothing, so a retry never applies half of one.
///
/// ```swift
/// let index = try await PostgresIndex(url: "postgres://searchlight@db.example/index")
/// try await index.indexItems([item])
/// let results = try await index.search(words: ["quarterly", "rep"])
/// index.close()
/// ```
///
/// ## Overview
///
/// `PostgresIndex` is the async side of the PostgreSQL index: every call awaits postgres-nio
/// and blocks no thread. The library's synchronous interfaces (``Searchlight/IndexWriter``, the
/// file indexer's `FileIndexWriter`) are met by ``PostgresStore``, which wraps one
/// `PostgresIndex` and waits for its calls on a queue of its own; the scanner, the watcher and
/// the commands use the store, and the server awaits the store's async twins, which call this
/// class directly. Its searches and queries follow the SQLite index's contract
/// (Docs/Contract.md#search, #query-language): words are folded and split in Swift by the
/// `Searchlight` target's code before they reach the server, queries are parsed by its
/// ``Searchlight/QueryParser``, and results are ranked by the same order of fields.
///
/// The class is `Sendable`; any number of tasks may call one handle at once. Each call leases
/// one of at most `maximumConnections` connections (more calls wait for one), idle ones are
/// reused, and a connection that failed other than by a statement's error is closed.
///
/// ## Failures
///
/// A call fails with ``PostgresIndexError``, which prints one line without the password. A
/// transaction that lost its connection, or lost a race (a serialization failure, a deadlock),
/// is retried as ``retryPolicy`` says; one that runs past ``operationTimeout`` has its
/// connection closed and counts as lost. Once the server is found unreachable
/// (``unreachableSince``), calls stop retrying and fail at once, so that their callers retry at
/// their own pace, until one call gets through.
///
/// A reader's rows are filtered by the server (row-level security): a role that is not the
/// writers' sees only the items its person may open on the item's machine
/// (Docs/Contract.md#shared-index).
///
/// ## Topics
///
/// ### Connecting
///
/// - ``init(url:readOnly:maximumConnections:retryPolicy:operationTimeout:statementTimeout:taskExecutor:environment:logger:)``
/// - ``close()``
/// - ``location``
/// - ``isReadOnly``
///
/// ### Writing
///
/// - ``indexItems(_:)``
/// - ``apply(_:)``
/// - ``deleteItems(withIdentifiers:domain:)``
/// - ``deleteAllItems(inDomains:)``
/// - ``markUpdated(domain:date:)``
/// - ``setOrigin(host:root:domain:)``
///
/// ### Reading
///
/// - ``item(_:domain:)``
/// - ``items(withIdentifier:domain:)``
/// - ``itemCount(domain:)``
/// - ``domains()``
/// - ``statistics()``
///
/// ### Searching and querying
///
/// - ``search(words:domain:limit:)``
/// - ``countMatches(words:domain:)``
/// - ``query(_:domain:limit:)``
/// - ``explainQuery(_:domain:limit:)``
///
/// ### Failures and retries
///
/// - ``RetryPolicy``
/// - ``retryPolicy``
/// - ``operationTimeout``
/// - ``unreachableSince``
/// - ``retriedTransactions``
public final class PostgresIndex: Sendable {
    /// The database, with its password (never printed: see ``PostgresLocation``).
    public let location: PostgresLocation
    /// Whether this handle only reads (it neither creates nor upgrades the schema).
    public let isReadOnly: Bool
    /// How failed transactions are retried.
    ///
    /// Applies to reads as well as transactions: both go through the same retry loop. It is not
    /// used while the server is known to be unreachable (``unreachableSince``).
    public let retryPolicy: RetryPolicy
    /// How long one transaction or read may take before its connection is given up.
    ///
    /// Past it, the connection is closed and the call fails as a lost connection would
    /// (``PostgresIndexError/isConnectionLost``), so it is retried under ``retryPolicy``. Unlike
    /// the server's statement timeout, it also bounds a server that never answers at all.
    public let operationTimeout: Duration
    /// The connections, leased one per call (at most the `maximumConnections` of the initializer).
    ///
    /// The first connection, made by the initializer, is handed to the source so that it is
    /// reused rather than opened twice.
    let connections: ConnectionSource
    /// Where retries, outages and their ends are reported.
    let logger: Logger
    /// Where the tasks this handle starts run (a deadline's timer and work): the caller's
    /// executor when it has one of its own (``PostgresStore``'s bridge), so that a caller who
    /// blocks every thread of Swift's pool while waiting cannot starve them.
    let taskExecutor: (any TaskExecutor)?
    /// ``retriedTransactions``' counter.
    private let retries = Atomic<Int>(0)
    /// Since when the database has been unreachable, while it is.
    ///
    /// Set by the retry loop when a call gives up on a lost connection, cleared by the first
    /// call that succeeds; ``unreachableSince`` reads it.
    let outage = Mutex<Date?>(nil)
    /// The item table as the planner knows it, and when that was read (``plannedTable()``).
    let plannedItems = Mutex<(table: PlannedTable, read: Date)?>(nil)
    /// How many times a first page asked the field words' statistics (``fieldShare(_:_:_:on:)``):
    /// what tests check.
    let fieldSharesAsked = Atomic<Int>(0)

    /// Since when the database has been unreachable (a call failed because the server could
    /// not be reached, and none has succeeded since), or `nil` when it is reachable. While it
    /// is unreachable, each call tries once to connect and fails at once, without the retries
    /// of ``retryPolicy``: its caller retries at its own pace (the watcher, with back-off), and
    /// a reader (`serve`) answers at once. The first call that succeeds ends it.
    public var unreachableSince: Date? { outage.withLock { $0 } }

    /// How many transactions were retried since this handle opened (a lost connection, a
    /// deadlock): what `status` can show, and what tests check.
    ///
    /// Counted with a relaxed atomic: reading it costs nothing and never waits for a call.
    public var retriedTransactions: Int { retries.load(ordering: .relaxed) }

    /// How a transaction that lost its connection is retried: after `initialDelay`, doubled
    /// at each attempt up to `maximumDelay`, at most `maximumAttempts` times in all.
    ///
    /// Only transient failures are retried (a lost connection, SQLSTATE 40001 or 40P01); an error
    /// in a statement itself (a constraint, a syntax error, a statement timeout) fails at once.
    ///
    /// ```swift
    /// // Fail fast, for a test or an interactive tool.
    /// let impatient = PostgresIndex.RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(10))
    /// ```
    public struct RetryPolicy: Sendable {
        /// How many times a transaction runs at most, the first included.
        ///
        /// `1` means no retry.
        public var maximumAttempts: Int
        /// The wait before the first retry.
        public var initialDelay: Duration
        /// The longest wait between two attempts, however many came before.
        public var maximumDelay: Duration

        /// The default: 8 attempts, from 0.1 s up to 5 s apart, about 11 s of waiting in all.
        ///
        /// - Parameters:
        ///   - maximumAttempts: How many times a transaction runs at most, the first included.
        ///   - initialDelay: The wait before the first retry; each later wait is twice the one before.
        ///   - maximumDelay: The cap on any one wait.
        public init(maximumAttempts: Int = 8, initialDelay: Duration = .milliseconds(100),
                    maximumDelay: Duration = .seconds(5)) {
            self.maximumAttempts = maximumAttempts
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }
    }

    /// Connects to the database at `url`, creating or upgrading the schema unless `readOnly`.
    ///
    /// One connection is made first, so that a wrong password or an unreachable server fails
    /// here with the server's reason. A writable handle then migrates the schema (in a
    /// transaction of its own, which other writers that start at the same time wait for) and
    /// makes again the words of items written before schema version 8; a read-only one only
    /// checks that the schema is one this build reads.
    ///
    /// ```swift
    /// let reader = try await PostgresIndex(url: "postgres://ada@db.example/index", readOnly: true,
    ///                                      statementTimeout: .seconds(10))
    /// ```
    ///
    /// - Parameters:
    ///   - url: `postgres://user[:password]@host[:port]/database[?sslmode=…]` (``PostgresLocation``).
    ///   - readOnly: Only read: never create nor migrate the schema.
    ///   - maximumConnections: The connections this handle opens at most (one per concurrent call).
    ///   - retryPolicy: How transactions that lost their connection are retried.
    ///   - operationTimeout: How long one transaction or read may wait for the server.
    ///   - statementTimeout: When given, the server stops any statement of this handle that runs
    ///     longer (`statement_timeout`): it fails with ``PostgresIndexError/isStatementTimeout``,
    ///     and is not retried. What `serve` gives its reads, as it interrupts SQLite's.
    ///   - taskExecutor: Where the tasks of this handle run (default: Swift's pool).
    ///   - environment: Where `PGPASSWORD`, `PGPASSFILE` and `HOME` are read.
    ///   - logger: Where retries, outages and their ends are reported (warnings and notices);
    ///     by default the label `searchlight.postgres`.
    /// - Throws: ``PostgresIndexError``: `.invalidLocation`, `.cannotConnect` (unreachable,
    ///   wrong password), `.unsupportedDatabase` (not UTF-8, no extensions, a newer schema;
    ///   or, read-only, no index yet).
    public init(url: String, readOnly: Bool = false, maximumConnections: Int = 8,
                retryPolicy: RetryPolicy = RetryPolicy(), operationTimeout: Duration = .seconds(300),
                statementTimeout: Duration? = nil, taskExecutor: (any TaskExecutor)? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment,
                logger: Logger = Logger(label: "searchlight.postgres")) async throws {
        let location = try PostgresLocation(url, environment: environment)
        self.location = location
        self.isReadOnly = readOnly
        self.retryPolicy = retryPolicy
        self.operationTimeout = operationTimeout
        self.taskExecutor = taskExecutor
        self.logger = logger
        // A first connection: a wrong password or an unreachable server fails here at once,
        // with the server's reason.
        var configuration = try Self.connectionConfiguration(location)
        if let statementTimeout {
            let milliseconds = max(1, statementTimeout.components.seconds * 1000
                                   + statementTimeout.components.attoseconds / 1_000_000_000_000_000)
            configuration.options.additionalStartupParameters.append(("statement_timeout", "\(milliseconds)"))
        }
        let first = try await Self.firstConnection(configuration, location: location, logger: logger)
        connections = ConnectionSource(configuration: configuration, maximum: maximumConnections, logger: logger, first: first)
        do {
            if readOnly {
                try await checkSchema()
            } else {
                try await migrate()
                try await refoldWords()
            }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// Closes the connections. Calls after this fail.
    ///
    /// Returns at once: the connections are closed by a task, and a call running on one of
    /// them fails. The handle closes itself when it is released.
    public func close() {
        let connections = self.connections
        Task { await connections.close() }
    }

    /// How to connect to `location`.
    ///
    /// A location with a socket directory connects through the Unix socket
    /// `FOLDER/.s.PGSQL.PORT`, without TLS; any other over TCP, with the TLS its `sslmode` asks
    /// for, except that `prefer` on a loopback host uses none. The connection attempt times out
    /// after 10 seconds.
    ///
    /// - Throws: ``PostgresIndexError`` with ``PostgresIndexError/Code/cannotConnect`` when the
    ///   TLS context cannot be made.
    static func connectionConfiguration(_ location: PostgresLocation) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let folder = location.socketDirectory {
            configuration = .init(unixSocketPath: "\(folder)/.s.PGSQL.\(location.port)", username: location.user,
                                  password: location.password, database: location.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            do {
                tls = switch location.tls {
                case .disable: .disable
                // `prefer` never checks who answers (a server that declines TLS is taken as it
                // is), so on loopback it protects nothing a local user could not read anyway;
                // the context it needs costs each command ~9 ms of CPU (the system's trust
                // roots parsed), a fifth of a search typed in a terminal.
                case .prefer where location.isLoopback: .disable
                case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
            } catch {
                throw PostgresIndexError(.cannotConnect, "cannot set up TLS", location: location, cause: error)
            }
            configuration = .init(host: location.host, port: location.port, username: location.user,
                                  password: location.password, database: location.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(10)
        // No JIT: a search's statements are short, but the planner's estimates of the spelling
        // look-ups (hundreds of subplans) passed `jit_above_cost`, and compiling them cost 9 to
        // 30 ms of a keystroke that the execution then did not win back.
        configuration.options.additionalStartupParameters.append(("jit", "off"))
        return configuration
    }

    /// Opens the handle's first connection, which its pool keeps: a wrong password or an
    /// unreachable server fails here, with the server's reason.
    ///
    /// - Throws: ``PostgresIndexError`` with ``PostgresIndexError/Code/cannotConnect``; when the
    ///   location has no password, the message says where one could have come from.
    private static func firstConnection(_ configuration: PostgresConnection.Configuration, location: PostgresLocation,
                                        logger: Logger) async throws -> PostgresConnection {
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch {
            throw PostgresIndexError(.cannotConnect, "cannot connect to the index" + (location.password == nil
                ? " (no password in the URL, the password file or PGPASSWORD)" : ""),
                location: location, cause: error)
        }
    }

    /// Fails unless the database holds an index this build can read.
    ///
    /// - Throws: ``PostgresIndexError`` with ``PostgresIndexError/Code/unsupportedDatabase`` when
    ///   the database holds no index, or one of another version than ``schemaVersion``; the
    ///   check's own statement timeout is retried up to five attempts.
    private func checkSchema() async throws {
        // The statement timeout of a reader is for the user's queries, and a short one (a
        // server's query deadline) can stop even this check on a loaded machine: tried again, a
        // few times, rather than refusing to open.
        for attempt in 1... {
            do {
                return try await checkSchemaOnce()
            } catch let error as PostgresIndexError where error.isStatementTimeout && attempt < 5 {
                logger.debug("the schema check met the statement timeout; trying again")
            }
        }
    }

    /// One attempt of ``checkSchema()``: reads the recorded schema version, in one statement
    /// (every search by `searchlight` opens a handle: each round trip is paid by every
    /// keystroke), and compares it with ``schemaVersion``. The same statement reads the item
    /// table as the planner knows it (``plannedTable()``), which a search asks next.
    ///
    /// - Throws: ``PostgresIndexError`` with ``PostgresIndexError/Code/unsupportedDatabase`` when
    ///   there is no `searchlight_schema_version` table or its version is not this build's.
    private func checkSchemaOnce() async throws {
        let logger = self.logger
        let version: Int
        do {
            let (found, table) = try await withConnection("cannot read the index") { connection in
                var found: (version: Int, table: PlannedTable?) = (0, nil)
                for try await (version, items, inline) in try await connection.query("""
                    SELECT version.number, item.reltuples::int8, coalesce(toast.relpages, 0) * 10 < greatest(item.relpages, 1)
                    FROM (SELECT coalesce(max(version), 0) AS number FROM searchlight_schema_version) AS version
                        LEFT JOIN pg_class AS item ON item.oid = to_regclass('item')
                        LEFT JOIN pg_class AS toast ON toast.oid = item.reltoastrelid
                    """, logger: logger).decode((Int, Int?, Bool?).self) {
                    found = (version, items.map { PlannedTable(items: $0, textsInline: inline ?? false) })
                }
                return found
            }
            version = found
            if let table { plannedItems.withLock { $0 = (table, Date()) } }
        } catch let error as PostgresIndexError where error.sqlState == "42P01" {
            version = 0  // undefined_table: no Searchlight index was made here
        }
        guard version > 0 else {
            // The library names no command: the command-line tool adds its advice.
            throw PostgresIndexError(.unsupportedDatabase, "the database holds no Searchlight index yet",
                                     location: location)
        }
        guard version == Self.schemaVersion else {
            throw PostgresIndexError(.unsupportedDatabase, "the index has schema version \(version), this Searchlight "
                                     + "reads version \(Self.schemaVersion)", location: location)
        }
    }

    // MARK: - Running statements

    /// Runs `body` on a connection, turning errors into ``PostgresIndexError``. Reads are
    /// retried like writes: a lost connection costs a retry, not an error.
    ///
    /// Each statement of `body` commits on its own (no `BEGIN`): use
    /// ``withTransaction(_:_:)`` when several must be seen together.
    ///
    /// - Parameters:
    ///   - failure: The message of the ``PostgresIndexError`` when `body` fails with another
    ///     error (`cannot read the index`).
    ///   - body: The work; it may run more than once, so it must only touch the database.
    /// - Returns: What `body` returns.
    /// - Throws: ``PostgresIndexError``, after the retries ``retryPolicy`` allows.
    func withConnection<T: Sendable>(_ failure: String,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await retrying(failure) {
            try await self.leasing { connection in try await body(connection) }
        }
    }

    /// Runs `body` in a transaction, retried on a new connection when the connection is lost
    /// or the transaction loses a race; `body` must only touch the database.
    ///
    /// On a failure in the server the transaction is rolled back and the connection reused; on
    /// a lost connection no `ROLLBACK` is sent (the server rolls back by itself).
    ///
    /// - Parameters:
    ///   - failure: The message of the ``PostgresIndexError`` when `body` fails with another
    ///     error (`cannot write the batch`).
    ///   - body: The statements of the transaction. It may run more than once, on different
    ///     connections, so it must have no effect outside the database.
    /// - Returns: What `body` returns, once the transaction has committed.
    /// - Throws: ``PostgresIndexError``, after the retries ``retryPolicy`` allows.
    ///
    /// - Parameter begin: The statement that begins it: `BEGIN`, or with its characteristics
    ///   (`BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`), which cost no round trip of their own.
    func withTransaction<T: Sendable>(_ failure: String, begin: PostgresQuery = "BEGIN",
                                      _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await retrying(failure) {
            try await self.leasing { connection in
                // BEGIN … COMMIT by hand: postgres-nio's withTransaction sends ROLLBACK even on
                // a connection the server ended, and that ROLLBACK could wait forever.
                try await connection.query(begin, logger: self.logger)
                do {
                    let result = try await body(connection)
                    try await connection.query("COMMIT", logger: self.logger)
                    return result
                } catch {
                    if !connection.isClosed, (PostgresIndexError.cause(of: error) as? PSQLError)?.code == .server
                        || PostgresIndexError.cause(of: error) is PostgresIndexError {
                        try? await connection.query("ROLLBACK", logger: self.logger)
                    }
                    throw error
                }
            }
        }
    }

    /// Runs `body` on a connection of this handle's own. A connection whose statement failed
    /// in the server is reused; after any other failure (a lost connection, a cancellation)
    /// it is closed.
    ///
    /// Waits for a connection when `maximumConnections` are already lent.
    private func leasing<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await connections.lease()
        do {
            let result = try await withDeadline(on: connection, body)
            await connections.release(connection, reusable: true)
            return result
        } catch {
            let cause = PostgresIndexError.cause(of: error)
            let statementFailed = (cause as? PSQLError)?.code == .server || cause is PostgresIndexError
            await connections.release(connection, reusable: statementFailed)
            throw error
        }
    }

    /// Runs `body`, giving up after ``operationTimeout``: the connection is closed and the
    /// call fails like any lost connection (and is retried). A connection whose server
    /// vanished without a word (a cable pulled, a host that froze), or a query that
    /// postgres-nio never completes after its server ended the session, cannot stall a
    /// writer: the call returns whether or not `body` ever does.
    ///
    /// Two tasks race, both on ``taskExecutor`` when there is one: `body`, and a timer that looks
    /// at the connection every ``closedConnectionCheck``. Whichever finishes first resumes the
    /// caller (``PendingResult``); `body` is not cancelled when the timer wins, it fails on its
    /// own once its connection is closed.
    ///
    /// - Throws: What `body` throws, or ``PostgresIndexError/Code/cannotConnect`` when the
    ///   connection closed more than ``closedConnectionGrace`` ago or ``operationTimeout`` passed.
    private func withDeadline<T: Sendable>(on connection: PostgresConnection,
                                           _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let timeout = operationTimeout
        let logger = self.logger
        let pending = PendingResult<T>()
        return try await withCheckedThrowingContinuation { continuation in
            pending.wait(continuation)
            pending.start(timer: Task(executorPreference: taskExecutor) {
                // Each second: a connection the server closed while `body` still waits is given
                // up after a grace period (postgres-nio may never complete a query whose session
                // was ended under it), long before `timeout`, which bounds everything else.
                let clock = ContinuousClock()
                let end = clock.now.advanced(by: timeout)
                var closedSince: ContinuousClock.Instant?
                while clock.now < end {
                    guard (try? await Task.sleep(for: min(Self.closedConnectionCheck, clock.now.duration(to: end)))) != nil
                    else { return }
                    guard connection.isClosed else { continue }
                    let since = closedSince ?? clock.now
                    closedSince = since
                    if since.duration(to: clock.now) >= Self.closedConnectionGrace {
                        pending.finish(.failure(PostgresIndexError(.cannotConnect, "the server closed the connection")))
                        return
                    }
                }
                logger.warning("no answer from the index within \(timeout): giving up its connection")
                pending.finish(.failure(PostgresIndexError(.cannotConnect, "no answer from the index within \(timeout)")))
                try? await connection.close()
            })
            Task(executorPreference: taskExecutor) {
                do {
                    pending.finish(.success(try await body(connection)))
                } catch {
                    pending.finish(.failure(error))
                }
            }
        }
    }

    /// How often a call's connection is looked at while the call waits, and how long a call
    /// may still wait once its connection is closed (its answer or its error is due at once).
    static let closedConnectionCheck: Duration = .seconds(1)
    /// How long a call may still wait once its connection is found closed, before it fails as
    /// a lost connection (see ``closedConnectionCheck``).
    static let closedConnectionGrace: Duration = .seconds(5)

    /// Runs `attempt` until it succeeds, retrying transient failures (a lost connection, a
    /// serialization failure or deadlock) with ``retryPolicy``'s backoff. A lost connection
    /// discards the idle connections too (they went with the server); once the server is known
    /// to be unreachable, or the attempts are spent, the failure is thrown and
    /// ``unreachableSince`` set. The first success ends an outage, with a notice in the log.
    ///
    /// With the default policy the waits are 0.1, 0.2, 0.4, 0.8, 1.6, 3.2 and 5 seconds. A
    /// cancelled task is not retried.
    ///
    /// - Parameters:
    ///   - failure: The message given to an error that is not already a ``PostgresIndexError``.
    ///   - attempt: One try; it runs again after each transient failure.
    /// - Returns: What the first successful attempt returns.
    /// - Throws: ``PostgresIndexError``: the last failure, the first one that is not transient,
    ///   or, during an outage, the first one.
    private func retrying<T: Sendable>(_ failure: String, _ attempt: @Sendable () async throws -> T) async throws -> T {
        var delay = retryPolicy.initialDelay
        var attempts = 0
        var firstFailure: Date?
        while true {
            attempts += 1
            do {
                let result = try await attempt()
                if let since = outage.withLock({ state in defer { state = nil }; return state }) {
                    logger.notice("the index's database is reachable again", metadata: [
                        "unreachable since": "\(since.formatted(.iso8601))"])
                }
                return result
            } catch {
                let indexError = (PostgresIndexError.cause(of: error) as? PostgresIndexError)
                    ?? PostgresIndexError(.database, failure, location: location, cause: error)
                if indexError.isConnectionLost {
                    // Its other idle connections went with the server: none is lent again.
                    await connections.discardIdle()
                    firstFailure = firstFailure ?? Date()
                    // Known to be unreachable: one attempt per call, the caller paces its retries.
                    let known = outage.withLock { $0 != nil }
                    if known || attempts >= retryPolicy.maximumAttempts || Task.isCancelled {
                        let since = outage.withLock { state in
                            if state == nil { state = firstFailure }
                            return state!
                        }
                        if !known {
                            logger.warning("the index's database is unreachable", metadata: [
                                "since": "\(since.formatted(.iso8601))", "error": "\(indexError)"])
                        }
                        throw indexError
                    }
                }
                guard indexError.isTransient, attempts < retryPolicy.maximumAttempts, !Task.isCancelled else {
                    throw indexError
                }
                retries.add(1, ordering: .relaxed)
                logger.warning("retrying after a lost connection or a conflict", metadata: [
                    "attempt": "\(attempts)", "error": "\(indexError)"])
                try await Task.sleep(for: delay)
                delay = min(delay * 2, retryPolicy.maximumDelay)
            }
        }
    }
}

/// The result of an operation that either its work or its timer delivers, whichever comes first.
///
/// The caller's continuation is resumed exactly once: the first ``finish(_:)`` resumes it and
/// forgets it, later ones find nothing to resume. Its state is behind a `Mutex`, so the work
/// and the timer may finish from any threads.
private final class PendingResult<T: Sendable>: Sendable {
    /// The caller's continuation until it is resumed, and the timer's task once started.
    private let state = Mutex<(continuation: CheckedContinuation<T, any Error>?, timer: Task<Void, Never>?)>((nil, nil))

    /// Keeps the continuation that ``finish(_:)`` resumes.
    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Keeps the timer's task, so that ``finish(_:)`` can cancel it when the work wins.
    func start(timer: Task<Void, Never>) {
        state.withLock { $0.timer = timer }
    }

    /// Resumes the caller with `result` unless it was resumed already, and stops the timer.
    func finish(_ result: Result<T, any Error>) {
        let timer = state.withLock { state in
            state.continuation?.resume(with: result)
            state.continuation = nil
            return state.timer
        }
        timer?.cancel()
    }
}
