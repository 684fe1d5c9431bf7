import GRDB
import SystemPackage

// What kind of trouble an index error is: damage (the index must be rebuilt) or a fault of
// its storage that ends by itself (a full disk, a read-only folder, a database away): the one
// place where errors are classified, for the watcher's recovery and the commands' messages.
extension SearchlightError.Code {
    /// The index is damaged: corrupt pages, a file that is no database, a failed integrity
    /// check, or a schema written by a newer Searchlight. It is derived data: reset it
    /// (``SearchableIndex/reset(path:reason:logger:)``) and index everything again.
    public static let damagedIndex = SearchlightError.Code(name: "damaged index")
    /// The index cannot be reached or written for now (a database server away, a connection
    /// cut): a store's fault that is expected to end by itself. A store whose errors are not
    /// SQLite's (the PostgreSQL index) throws this code to join ``SearchlightError/isIndexUnavailable``.
    public static let indexUnavailable = SearchlightError.Code(name: "index unavailable")
}

extension SearchlightError {
    /// Whether the index is damaged (``Code/damagedIndex``, SQLite's `SQLITE_CORRUPT` or
    /// `SQLITE_NOTADB`): retrying cannot help; resetting and re-indexing does.
    public var isDamage: Bool {
        if code == .damagedIndex { return true }
        if case .database(let error) = cause { return Self.isDamage(error.resultCode) }
        return false
    }

    /// Whether the index cannot be written or reached for now, for a reason outside the
    /// program that is expected to end (Docs/Contract.md#when-things-break): a full disk or quota, a read-only or
    /// removed index folder, an I/O error, a database busy beyond the timeout, a database
    /// server away (``Code/indexUnavailable``). A writer keeps what it has not written and
    /// tries again later; any other error is a bug, or damage (``isDamage``).
    public var isIndexUnavailable: Bool {
        // `isUnavailable`: a PostgreSQL server that cannot be reached (SearchlightError+Unavailable).
        if code == .indexUnavailable || isUnavailable || isDiskFull || isBusy { return true }
        if isDamage { return false }
        switch cause {
        case .database(let error):
            return Self.unavailableResultCodes.contains(error.resultCode)
        case .system(let errno):
            return Self.unavailableErrnos.contains(errno)
        default:
            return false
        }
    }

    /// A short phrase for `status`: `disk full`, `index read-only`, `index unavailable`.
    public var faultSummary: String {
        if isDiskFull { return "disk full" }
        if isDamage { return "index damaged" }
        if isFileGone { return "index file removed" }
        switch cause {
        case .database(let error) where error.resultCode == .SQLITE_READONLY: return "index read-only"
        case .system(let errno) where errno == .readOnlyFileSystem: return "index read-only"
        default: break
        }
        if isBusy { return "index busy" }
        return "index unavailable"
    }

    /// What the damage is, in a few words (SQLite's message, or this error's).
    public var damageReason: String {
        if case .database(let error) = cause, let message = error.message { return message }
        return message
    }

    /// Whether the index's file is no longer at its path (removed, its folder removed, or
    /// moved): SQLite's `SQLITE_READONLY_DBMOVED` or `SQLITE_CANTOPEN` on a handle that was
    /// open. ``SearchableIndex/reopen()`` creates it again.
    public var isFileGone: Bool {
        if case .system(let errno) = cause { return errno == .noSuchFileOrDirectory }
        guard case .database(let error) = cause else { return false }
        return error.extendedResultCode == .SQLITE_READONLY_DBMOVED || error.resultCode == .SQLITE_CANTOPEN
    }

    static func isDamage(_ code: ResultCode) -> Bool { code == .SQLITE_CORRUPT || code == .SQLITE_NOTADB }

    /// Primary result codes of SQLite that say the storage failed, not the statement:
    /// `SQLITE_READONLY*` (a read-only file or folder), `SQLITE_CANTOPEN` (a removed folder),
    /// `SQLITE_IOERR*`, `SQLITE_FULL`, `SQLITE_BUSY`/`SQLITE_LOCKED` beyond the timeout,
    /// `SQLITE_PERM`, `SQLITE_NOLFS`, `SQLITE_PROTOCOL`.
    static let unavailableResultCodes: [ResultCode] = [
        .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_BUSY, .SQLITE_LOCKED,
        .SQLITE_PERM, .SQLITE_NOLFS, .SQLITE_PROTOCOL,
    ]

    /// System errors of a storage that failed for now.
    static let unavailableErrnos: Set<Errno> = [
        .noSpace, .diskQuotaExceeded, .readOnlyFileSystem, .ioError, .noSuchFileOrDirectory,
        .permissionDenied, .notPermitted, .staleNFSFileHandle, .operationNotSupportedByDevice, .timedOut,
    ]
}

extension Error {
    /// Whether this is an index error that ends by itself (see ``SearchlightError/isIndexUnavailable``).
    public var isIndexUnavailable: Bool { (self as? SearchlightError)?.isIndexUnavailable ?? false }
    /// Whether this is a damaged index (see ``SearchlightError/isDamage``).
    public var isIndexDamage: Bool { (self as? SearchlightError)?.isDamage ?? false }
}
