import Foundation
import HTTPTypes
import Hummingbird
import Searchlight

/// Who may use the Elasticsearch endpoint, and its errors as Elasticsearch writes them.
///
/// Samba connects without credentials (its backend has no setting for them), so the endpoint
/// listens on loopback only and takes no token; its `Host` header is the machine's name
/// (Samba's `get_myname()`), so a request must name a loopback address, the bound address or
/// this machine: a web page that rebinds its name to 127.0.0.1 cannot read the endpoint.
/// Every refusal is logged with its reason, since Samba logs only the status.
struct ElasticsearchAccess: RouterMiddleware {
    typealias Context = ServerContext

    let boundHost: String
    /// This machine's names, lowercased: the full one and its first label.
    let machineNames: Set<String>

    init(boundHost: String) {
        self.boundHost = boundHost.lowercased()
        machineNames = Self.machineNames()
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let name = ServerAddress.hostPart(ofHeader: request.head.authority ?? "").lowercased()
            guard ServerAddress.isLoopback(name) || name == boundHost || machineNames.contains(name) else {
                throw ElasticsearchError(.forbidden, type: "security_exception",
                                         "host [\(name)] is not this server's name or a loopback address")
            }
            return try await next(request, context)
        } catch {
            let answer = Self.elasticsearchError(error)
            if answer.status == .internalServerError {
                context.logger.error("Elasticsearch endpoint: \(request.method) \(request.uri.path): \(error)")
            } else {
                context.logger.warning("Elasticsearch endpoint: \(request.method) \(request.uri): \(answer.status.code) \(answer)")
            }
            return try answer.response(from: request, context: context)
        }
    }

    /// Any error of a handler as Elasticsearch's kind of error.
    static func elasticsearchError(_ error: any Error) -> ElasticsearchError {
        switch error {
        case let error as ElasticsearchError:
            return error
        case let error as QueryParseError:
            return .query("\(error)")
        case let error as HTTPError:
            return ElasticsearchError(error.status, type: "parsing_exception", error.body ?? error.status.reasonPhrase.lowercased())
        default:
            let answer = APIError.from(error)
            let type = answer.status == .serviceUnavailable ? "search_phase_execution_exception" : "exception"
            return ElasticsearchError(answer.status, type: type, answer.message)
        }
    }

    /// `gethostname(2)`'s name and its first label, lowercased.
    static func machineNames() -> Set<String> {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        return [name, String(name.split(separator: ".").first ?? "")]
    }
}
