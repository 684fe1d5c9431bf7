import Logging
import PostgresNIO

/// The connections of one ``PostgresIndex``: at most `maximum` open at once, idle ones reused,
/// closed ones (the server ended them) forgotten. A caller that finds them all busy waits
/// for one.
///
/// postgres-nio's `PostgresClient` pools connections too, but only while a task runs its
/// `run()`, a lifetime a library handle would have to own; connections made on demand need
/// no background task, and they close with the handle.
actor ConnectionSource {
    private let configuration: PostgresConnection.Configuration
    private let maximum: Int
    private let logger: Logger
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 1
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isClosed = false

    /// - Parameter first: A connection opened already (the handle's check that the server
    ///   answers and takes the password), kept as the first idle one: a command that makes
    ///   one search signs in once, not twice.
    init(configuration: PostgresConnection.Configuration, maximum: Int, logger: Logger, first: PostgresConnection? = nil) {
        self.configuration = configuration
        self.maximum = max(1, maximum)
        self.logger = logger
        if let first {
            idle = [first]
            open = 1
        }
    }

    /// A connection for the caller alone, until it gives it back with ``release(_:reusable:)``.
    func lease() async throws -> PostgresConnection {
        while true {
            guard !isClosed else { throw PostgresIndexError(.database, "the index handle was closed") }
            while let connection = idle.popLast() {
                if !connection.isClosed { return connection }
                open -= 1
            }
            if open < maximum {
                open += 1
                let id = nextID
                nextID += 1
                do {
                    return try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
                } catch {
                    open -= 1
                    wakeOne()
                    throw error
                }
            }
            await withCheckedContinuation { waiters.append($0) }
        }
    }

    /// Takes a connection back; one that is closed, or in an unknown state after a failure
    /// other than a statement's (`reusable == false`), is closed and forgotten.
    func release(_ connection: PostgresConnection, reusable: Bool) async {
        if reusable, !isClosed, !connection.isClosed {
            idle.append(connection)
        } else {
            open -= 1
            Self.close(connection)
        }
        wakeOne()
    }

    /// Closes the idle connections (the server they lead to went away); the next lease connects anew.
    func discardIdle() {
        let connections = idle
        idle.removeAll()
        open -= connections.count
        for connection in connections { Self.close(connection) }
        for _ in connections { wakeOne() }
    }

    /// Closes `connection` without waiting: a connection whose server vanished must not hold
    /// up the others' leases.
    private static func close(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        Task { try? await connection.close() }
    }

    /// Closes every idle connection and refuses new leases.
    func close() async {
        isClosed = true
        let connections = idle
        idle.removeAll()
        open -= connections.count
        for connection in connections { try? await connection.close() }
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }

    private func wakeOne() {
        if !waiters.isEmpty { waiters.removeFirst().resume() }
    }
}
