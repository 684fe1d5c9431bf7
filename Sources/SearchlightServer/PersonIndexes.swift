import Foundation
import Logging
import SearchlightFiles
import SearchlightPostgres

/// The people signed in to a server on a shared index (`serve --sign-in`): each person's
/// requests read the database as their own role, so that PostgreSQL shows them only what they
/// may read (Docs/Contract.md#shared-index). PostgreSQL checks the password: a person's first
/// request connects with it; later ones with the same password reuse that connection (the
/// password is kept in memory only, as the connection needs it to reconnect). A person idle
/// for ``idleTime`` is signed out and their connections closed.
actor PersonIndexes {
    /// A signed-in person: their name and their reads of the index.
    struct Person: Sendable {
        /// The database role the person signed in as.
        var name: String
        /// The index read as that role.
        var index: any FileIndexReader
    }

    /// One signed-in person's connection, and what proves a later request is theirs.
    private struct Entry {
        /// The password PostgreSQL accepted, compared in constant time with a later request's.
        var password: String
        /// The read-only store connected as the person's role.
        var index: PostgresStore
        /// When the person's last request came.
        var lastUse: ContinuousClock.Instant
    }

    /// How long a person may stay idle before being signed out: ten minutes.
    static let idleTime: Duration = .seconds(600)
    /// The most people signed in at once; the least recently seen goes first.
    static let capacity = 64

    /// The shared index's URL, into which each person's name and password are put.
    private let url: String
    /// The statement timeout of each person's reads, as the server's own.
    private let queryTimeout: Duration
    /// Where refused sign-ins are reported, and the logger each person's store is given.
    private let logger: Logger
    /// The people signed in, by name.
    private var entries: [String: Entry] = [:]

    /// Nobody signed in yet; each first request of a person connects as them.
    init(url: String, queryTimeout: Duration, logger: Logger) {
        self.url = url
        self.queryTimeout = queryTimeout
        self.logger = logger
    }

    /// The reads of `name` signed in with `password`.
    /// - Throws: ``APIError`` 401 when PostgreSQL refuses the name or the password, 503 when
    ///   it cannot be reached.
    func person(_ name: String, password: String) async throws -> Person {
        let now = ContinuousClock.now
        for (other, entry) in entries where now - entry.lastUse > Self.idleTime {
            entries[other] = nil
            entry.index.close()
        }
        if var entry = entries[name], AccessMiddleware.constantTimeEqual(password, entry.password) {
            entry.lastUse = now
            entries[name] = entry
            return Person(name: name, index: entry.index)
        }
        guard var components = URLComponents(string: url) else {
            throw APIError(.serviceUnavailable, "the index's URL cannot be read")
        }
        components.user = name
        components.password = password
        guard let personURL = components.string else { throw APIError(.unauthorized, "this name cannot sign in") }
        let index: PostgresStore
        do {
            index = try await PostgresStore(url: personURL, queryTimeout: queryTimeout, logger: logger)
        } catch let error as PostgresIndexError where error.sqlState?.hasPrefix("28") == true {
            logger.notice("sign-in refused for \(name.debugDescription)")
            throw APIError(.unauthorized, "the name or the password is wrong")
        } catch {
            throw APIError(.serviceUnavailable, "cannot sign in: \(error)")
        }
        if let replaced = entries[name] { replaced.index.close() }
        if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            oldest.value.index.close()
        }
        entries[name] = Entry(password: password, index: index, lastUse: now)
        return Person(name: name, index: index)
    }

    /// Closes every person's connections.
    func closeAll() {
        for entry in entries.values { entry.index.close() }
        entries.removeAll()
    }
}
