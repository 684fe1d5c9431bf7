import Foundation
import PostgresNIO
import Searchlight

extension PostgresIndex {
    /// A value that changes whenever any writer commits a batch or a domain is added or
    /// deleted: each domain's id and count of batches (`domain.change_count`), in id order.
    ///
    /// What a reader polls to follow the index (Docs/Contract.md#web-page: the live page, `query --live`), as the
    /// SQLite index's `PRAGMA data_version`: one small table read, no item row touched. Only
    /// equality means anything.
    ///
    /// ```swift
    /// var last = try await index.changeMarker()
    /// while true {
    ///     try await Task.sleep(for: .seconds(1))
    ///     let marker = try await index.changeMarker()
    ///     if marker != last { last = marker; /* read again */ }
    /// }
    /// ```
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    public func changeMarker() async throws -> [Int64] {
        try await withConnection("cannot read the index") { connection in
            var marker: [Int64] = []
            let rows = try await connection.query("SELECT id, change_count FROM domain ORDER BY id", logger: self.logger)
            for try await (id, count) in rows.decode((Int64, Int64).self) { marker += [id, count] }
            return marker
        }
    }

    /// The machine each domain indexes a folder of, for the domains that recorded one
    /// (``setOrigin(host:root:domain:)``): a shared index holds folders of many machines, and
    /// only this machine's files can be served or opened here.
    ///
    /// - Throws: ``PostgresIndexError`` when the database cannot be read, after the retries of ``retryPolicy``.
    /// - Returns: Each domain's machine, by domain name; domains without one are absent.
    public func domainHosts() async throws -> [String: String] {
        try await withConnection("cannot read the index") { connection in
            var hosts: [String: String] = [:]
            let rows = try await connection.query("SELECT name, host FROM domain WHERE host IS NOT NULL", logger: self.logger)
            for try await (name, host) in rows.decode((String, String).self) { hosts[name] = host }
            return hosts
        }
    }
}

extension PostgresIndex {
    /// `error` as a reader reports it: a database that cannot be reached is a
    /// ``Searchlight/SearchlightError`` `.database` whose ``Searchlight/SearchlightError/isUnavailable``
    /// is true, saying since when, with the ``PostgresIndexError`` as its cause (what the
    /// watcher retries and `serve` answers with 503); any other error as it is.
    ///
    /// - Parameter error: An error of this index.
    /// - Returns: The error to show or to retry on.
    public func reported(_ error: any Error) -> any Error {
        guard let error = error as? PostgresIndexError, error.isConnectionLost else { return error }
        let since = unreachableSince ?? Date()
        return SearchlightError(.database, "the index's database is unreachable since \(since.formatted(.iso8601))",
                                cause: .other(error))
    }
}
