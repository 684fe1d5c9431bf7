import Foundation
import SystemCalls

/// Where a PostgreSQL index lives: a `postgres://` (or `postgresql://`) URL and the password
/// that goes with it.
///
/// The password comes from the URL (`postgres://user:secret@host/db`), else from a password
/// file in libpq's `~/.pgpass` format (`host:port:database:user:password`, `*` matching
/// anything; the file named by the URL's `passfile=` parameter, else `$PGPASSFILE`, else
/// `~/.pgpass`), else from `$PGPASSWORD`. It is never printed: ``description`` is the URL
/// without it.
///
/// Recognized URL parameters: `sslmode` (`disable`, `prefer`, the default, or `require`),
/// `passfile`, and `host` (a folder holding the server's Unix socket, instead of TCP).
///
/// ```swift
/// let location = try PostgresLocation("postgres://searchlight@db.example/index")
/// print(location) // postgres://searchlight@db.example:5432/index
/// ```
///
/// A value made once per handle: parsing reads the password file at most once, and
/// connecting never reads it again (a password changed in the file counts for the next
/// handle).
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the connection is encrypted.
    public enum TLSMode: String, Sendable, Hashable {
        /// libpq's `sslmode` values: plain TCP, TLS when the server offers it, or TLS or no connection.
        case disable, prefer, require
    }

    /// The server's host name or address (`localhost` when the URL has none).
    public var host: String
    /// The server's TCP port, or the number in its socket's name (5432 by default).
    public var port: Int
    /// A folder holding the server's socket (`.s.PGSQL.PORT`), when connecting through it.
    public var socketDirectory: String?
    /// The database role: the URL's, else `$PGUSER`, else `$USER`, else `postgres`.
    public var user: String
    /// The database: the URL's path, else the role's name (as libpq does).
    public var database: String
    /// Whether the connection is encrypted (`sslmode`, `prefer` by default).
    public var tls: TLSMode
    /// The password, if one was found. Never part of ``description``.
    public var password: String?

    /// Whether ``host`` is this machine's loopback: `localhost`, an address of `127.0.0.0/8`,
    /// or `::1`. A connection that stays on the machine.
    ///
    /// With `sslmode=prefer`, a loopback connection uses no TLS (``PostgresIndex``): the check
    /// `prefer` makes protects nothing on the machine itself.
    public var isLoopback: Bool { SystemCall.isLoopbackHost(host) }

    /// Whether `text` names a PostgreSQL index rather than an SQLite file.
    ///
    /// Only the scheme is looked at: `postgres://` or `postgresql://`, case-sensitive.
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a URL and finds its password.
    ///
    /// Parameters other than `sslmode`, `passfile` and `host` are ignored; a `host` parameter
    /// that is not an absolute folder is ignored too.
    ///
    /// - Parameters:
    ///   - url: `postgres://[user[:password]@]host[:port]/database[?parameters]`.
    ///   - environment: Where `PGPASSWORD`, `PGPASSFILE`, `PGUSER` and `HOME` are read.
    /// - Throws: ``PostgresIndexError`` with code `.invalidLocation` when the URL is malformed.
    public init(_ url: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard Self.isPostgresURL(url), let components = URLComponents(string: url), let host = components.host else {
            throw PostgresIndexError(.invalidLocation, "not a PostgreSQL URL (postgres://user@host/database): "
                                     + Self.redacted(url))
        }
        var parameters: [String: String] = [:]
        for item in components.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
        self.host = host.isEmpty ? "localhost" : host
        self.port = components.port ?? 5432
        self.socketDirectory = parameters["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        self.user = components.user?.removingPercentEncoding ?? environment["PGUSER"] ?? environment["USER"] ?? "postgres"
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        self.database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? user
        guard let tls = TLSMode(rawValue: parameters["sslmode"] ?? "prefer") else {
            throw PostgresIndexError(.invalidLocation, "sslmode must be disable, prefer or require in "
                                     + Self.redacted(url))
        }
        self.tls = tls
        if let password = components.password?.removingPercentEncoding {
            self.password = password
        } else {
            let file = parameters["passfile"] ?? environment["PGPASSFILE"]
                ?? environment["HOME"].map { $0 + "/.pgpass" }
            self.password = file.flatMap { Self.password(inFile: $0, host: self.host, port: self.port,
                                                         database: self.database, user: self.user) }
                ?? environment["PGPASSWORD"]
        }
    }

    /// The URL without its password: what messages and `status` show.
    ///
    /// The port is always written, the default included; the socket folder, when there is one,
    /// as the `host` parameter.
    public var description: String {
        var text = "postgres://\(user)@\(host):\(port)/\(database)"
        if let socketDirectory { text += "?host=\(socketDirectory)" }
        return text
    }

    /// `url` with any password replaced by `***`, for messages about a URL that did not parse.
    ///
    /// ```swift
    /// PostgresLocation.redacted("postgres://ada:secret@db/index")  // "postgres://ada:***@db/index"
    /// ```
    public static func redacted(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@") else {
            return url
        }
        let credentials = url[schemeEnd.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + ":***" + String(url[at...])
    }

    /// The password of the first matching line of a libpq password file, if any.
    ///
    /// Lines are `host:port:database:user:password`; `*` matches any value; `\:` and `\\`
    /// escape. libpq ignores a file that others can read; so does this.
    ///
    /// - Parameters:
    ///   - path: The password file.
    ///   - host: The server, as the URL names it.
    ///   - port: The server's port.
    ///   - database: The database.
    ///   - user: The role.
    /// - Returns: The password, or `nil` when the file is missing, unreadable, open to others,
    ///   or has no matching line.
    static func password(inFile path: String, host: String, port: Int, database: String, user: String) -> String? {
        guard let status = try? SystemCall.status(followingLinksOf: path), status.st_mode & 0o077 == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            var fields: [String] = [""]
            var escaped = false
            for character in line {
                if escaped {
                    fields[fields.count - 1].append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == ":" && fields.count < 5 {
                    fields.append("")
                } else {
                    fields[fields.count - 1].append(character)
                }
            }
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }
}
