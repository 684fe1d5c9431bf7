import HTTPTypes
import Hummingbird
import SearchlightJSON

/// An error of the Elasticsearch endpoint, answered as Elasticsearch answers one, so that
/// Samba (which logs the status) and a person with `curl` (who reads the body) both see it:
///
/// ```json
/// {"error":{"root_cause":[{"type":"query_shard_exception","reason":"…"}],"type":"query_shard_exception","reason":"…"},"status":400}
/// ```
///
/// Anything the endpoint does not understand (a field Searchlight does not keep, a syntax it
/// does not read, an option of the search API) is one of these, never a guess.
public struct ElasticsearchError: HTTPResponseError, CustomStringConvertible {
    /// The HTTP status of the answer: 400 unless said otherwise.
    public var status: HTTPResponse.Status
    /// Elasticsearch's name for the kind of error, such as `query_shard_exception`.
    public var type: String
    /// One line for people: what was not understood, and where.
    public var reason: String

    /// An error of Elasticsearch's `type`, with its `reason`.
    ///
    /// ```swift
    /// throw ElasticsearchError(type: "parsing_exception", "unknown query [fuzzy]")
    /// ```
    public init(_ status: HTTPResponse.Status = .badRequest, type: String, _ reason: String) {
        self.status = status
        self.type = type
        self.reason = reason
    }

    public var description: String { "\(type): \(reason)" }

    /// A query that cannot be read or answered: `query_shard_exception`, 400.
    static func query(_ reason: String) -> ElasticsearchError {
        ElasticsearchError(type: "query_shard_exception", reason)
    }

    /// A request body or parameter the endpoint does not take: `parsing_exception`, 400.
    static func request(_ reason: String) -> ElasticsearchError {
        ElasticsearchError(type: "parsing_exception", reason)
    }

    var json: [UInt8] {
        var cause = JSONLine()
        cause.add("type", type)
        cause.add("reason", reason)
        var error = JSONLine()
        error.add("root_cause", objects: [cause])
        error.add("type", type)
        error.add("reason", reason)
        var object = JSONLine()
        object.add("error", object: error)
        object.add("status", status.code)
        return object.finished
    }

    /// The error in Elasticsearch's JSON shape, with its status.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        .json(json, status: status)
    }
}
