/// An error that says how it is reported: the exit status a command ends with and the HTTP
/// status the JSON API answers with. Every subsystem's error conforms, so that the command
/// line and the server each have one rule (`ExitCode(error.exitStatus)`,
/// `error.httpStatus`) instead of a list of error types.
///
/// The defaults are those of a failure the user did not cause: exit status 1, HTTP 500.
/// A usage error (a malformed query, location or configuration) says 64 and 400; an index
/// that cannot be reached now says 503.
///
/// ```swift
/// } catch let error as any ReportableError {
///     print("searchlight: \(error)")
///     throw ExitCode(error.exitStatus)
/// }
/// ```
public protocol ReportableError: Error, CustomStringConvertible {
    /// 64 for a usage error, 1 for any other failure.
    var exitStatus: Int32 { get }
    /// 400 for a usage error, 503 for a service that may answer later, 500 for the rest.
    var httpStatus: Int { get }
}

extension ReportableError {
    /// Exit status 1: a failure the user did not cause.
    public var exitStatus: Int32 { 1 }
    /// HTTP 500: a failure the client did not cause.
    public var httpStatus: Int { 500 }
}

extension QueryParseError: ReportableError {
    /// Exit status 64: a malformed query is a usage error.
    public var exitStatus: Int32 { 64 }
    /// HTTP 400: the request's query is malformed.
    public var httpStatus: Int { 400 }
}

extension SearchWordsError: ReportableError {
    /// Exit status 64: a search word with a value it cannot take is a usage error.
    public var exitStatus: Int32 { 64 }
    /// HTTP 400: the request's search words are malformed.
    public var httpStatus: Int { 400 }
}

extension SearchlightError: ReportableError {
    /// 64 for a malformed query (``SearchlightError/Code/invalidQuery``), 1 for any other failure.
    public var exitStatus: Int32 { code == .invalidQuery ? 64 : 1 }

    /// 400 for a malformed query; 503 while there is no index, or it is damaged (the next
    /// scan or watch rebuilds it), or cannot be reached; 500 otherwise.
    public var httpStatus: Int {
        if code == .invalidQuery { return 400 }
        if code == .noIndex || isUnavailable || isDamage || isIndexUnavailable { return 503 }
        return 500
    }
}

extension IndexStoreError {
    /// 64 for a malformed location or query (``isUsageError``), 1 for any other failure.
    public var exitStatus: Int32 { isUsageError ? 64 : 1 }
    /// 400 for a usage error, 503 for a timeout or an index that cannot be reached now (the same
    /// request may succeed later), 500 otherwise.
    public var httpStatus: Int { isUsageError ? 400 : isTimeout || isUnavailable ? 503 : 500 }
}
