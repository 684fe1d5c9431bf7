import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Searchlight
import SearchlightJSON

/// The server's error, shaped as every subsystem's error is (Docs/Architecture.md#errors):
/// its HTTP ``status`` is its code, a ``message``, and the item a malformed query names (its
/// ``column`` and ``caret``); the typed cause stays with the error it was made from
/// (``from(_:)``), whose line is the message. Answered as JSON: `{"error":"message"}`; the
/// messages are those the command line prints after `searchlight: `. Settings the server
/// refuses to start with (``SearchServer/check(_:)``) are one too, with status 400.
public struct APIError: HTTPResponseError, CustomStringConvertible {
    /// The HTTP status: the kind of failure.
    ///
    /// 400 for a malformed request, 401 without credentials, 403 for what this client may not
    /// do, 404 for what is not there, 503 past the query timeout or without the database.
    public var status: HTTPResponse.Status
    /// What happened, for people.
    public var message: String
    /// Where a malformed query went wrong (1-based), as `searchlight query` reports it.
    public var column: Int?
    /// The query with a caret under the column.
    public var caret: String?

    /// An error answered with `status`, saying `message`; a malformed query's `column` and `caret`.
    public init(_ status: HTTPResponse.Status, _ message: String, column: Int? = nil, caret: String? = nil) {
        self.status = status
        self.message = message
        self.column = column
        self.caret = caret
    }

    /// The message.
    public var description: String { message }

    /// The status and message of an error, as the command line would print it: a
    /// ``ReportableError`` says its own ``ReportableError/httpStatus``.
    ///
    /// A damaged index's message says that the next scan or watch rebuilds it; an error that
    /// reports no status is a 500.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as HTTPError:
            return APIError(error.status, error.body ?? error.status.reasonPhrase.lowercased())
        case let error as QueryParseError:
            return APIError(.init(reported: error.httpStatus), "\(error)", column: error.column, caret: error.caretDisplay)
        case let error as SearchlightError where error.isDamage:
            return APIError(.init(reported: error.httpStatus), "\(error); the next scan or watch rebuilds it")
        case let error as any ReportableError:
            return APIError(.init(reported: error.httpStatus), "\(error)")
        default:
            return APIError(.internalServerError, "\(error)")
        }
    }

    /// `{"error":MESSAGE,"status":CODE}`, with `column` and `caret` for a malformed query.
    ///
    /// ```
    /// {"error":"…","status":400,"column":9,"caret":"…"}
    /// ```
    var json: [UInt8] {
        var object = JSONLine()
        object.add("error", message)
        object.add("status", status.code)
        if let column { object.add("column", column) }
        if let caret { object.add("caret", caret) }
        return object.finished
    }

    /// The error as JSON with its status; a 401 also asks for a bearer token (`WWW-Authenticate`).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Response.json(json, status: status)
        if status == .unauthorized { response.headers[.wwwAuthenticate] = #"Bearer realm="searchlight""# }
        return response
    }
}

extension APIError: ReportableError {
    /// The status's code, as ``ReportableError`` hands it to whoever reports the error.
    public var httpStatus: Int { status.code }
}

extension HTTPResponse.Status {
    /// The status of a ``ReportableError/httpStatus``, with its reason phrase.
    init(reported code: Int) {
        switch code {
        case 400: self = .badRequest
        case 404: self = .notFound
        case 503: self = .serviceUnavailable
        case 500: self = .internalServerError
        default: self.init(code: code)
        }
    }
}

extension Response {
    /// A JSON body.
    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status,
                 headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
