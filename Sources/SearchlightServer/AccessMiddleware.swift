import Foundation
import HTTPTypes
import Hummingbird

/// Who may use the server, checked before every route, and errors turned into JSON.
///
/// - With a token, every request must carry it: `Authorization: Bearer TOKEN`, or the cookie
///   set when the page is opened as `/?token=TOKEN` (which then redirects to the address
///   without it).
/// - Without a token (loopback only), the `Host` header must name a loopback address or the
///   bound host: a web site that rebinds its name to 127.0.0.1 cannot read the API.
/// - Every response says `nosniff` and refuses framing.
struct AccessMiddleware: RouterMiddleware {
    /// The server's request context, which carries the signed-in person.
    typealias Context = ServerContext

    /// The cookie that holds the token once the page was opened with it: `HttpOnly`,
    /// `SameSite=Strict`, for the whole site.
    static let cookieName = "searchlight_token"

    /// The token every request must carry; `nil` on loopback without one.
    let token: String?
    /// The address the server listens on, which a `Host` header may name besides loopback.
    let boundHost: String
    /// On a shared index with sign-in: the people, each reading as their own role.
    var people: PersonIndexes? = nil

    /// Checks the request (sign-in, token or `Host`), runs the route, turns any error into its
    /// JSON answer (an internal error logged), and adds the headers every response carries.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            if let people {
                var context = context
                context.person = try await signIn(request, people: people)
                response = try await next(request, context)
            } else if let redirect = try checkAccess(request) {
                response = redirect
            } else {
                response = try await next(request, context)
            }
        } catch {
            let apiError = APIError.from(error)
            if apiError.status == .internalServerError {
                context.logger.error("\(request.method) \(request.uri.path): \(error)")
            }
            response = try apiError.response(from: request, context: context)
            if apiError.status == .unauthorized, people != nil {
                response.headers[.wwwAuthenticate] = #"Basic realm="Searchlight", charset="UTF-8""#
            }
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.xFrameOptions] = "DENY"
        response.headers[.referrerPolicy] = "no-referrer"
        return response
    }

    /// Throws 401/403 when the request may not pass; answers a redirect when it brings the token
    /// in the page's address; `nil` when it may go on.
    private func checkAccess(_ request: Request) throws -> Response? {
        guard let token else {
            let host = request.head.authority ?? ""
            let name = ServerAddress.hostPart(ofHeader: host)
            guard ServerAddress.isLoopback(name) || name.lowercased() == boundHost.lowercased() else {
                throw APIError(.forbidden, "host \(name.debugDescription) is not this server's address")
            }
            return nil
        }
        if Self.constantTimeEqual(bearer(request), token) || Self.constantTimeEqual(cookie(request), token) {
            return nil
        }
        let parameters = QueryParameters(request.uri.query)
        if request.method == .get, request.uri.path == "/", Self.constantTimeEqual(parameters["token"], token) {
            var location = "/"
            if let q = parameters["q"] { location += "?q=" + ItemLocation.percentEncode(Array(q.utf8), keepingSlashes: false) }
            var response = Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
            response.setCookie(Cookie(name: Self.cookieName, value: token, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
        throw APIError(.unauthorized, "this server needs a token: open the page as /?token=TOKEN "
                       + "or send Authorization: Bearer TOKEN")
    }

    /// The person a request signs in as with HTTP Basic (`Authorization: Basic …`, RFC 7617),
    /// their password checked by PostgreSQL (``PersonIndexes``). The `Host` header is checked
    /// as without a token: the server listens on loopback only, behind a TLS proxy (which
    /// sends the upstream's address as `Host`, as nginx does by default) when reached from
    /// elsewhere.
    private func signIn(_ request: Request, people: PersonIndexes) async throws -> PersonIndexes.Person {
        let name = ServerAddress.hostPart(ofHeader: request.head.authority ?? "")
        guard ServerAddress.isLoopback(name) || name.lowercased() == boundHost.lowercased() else {
            throw APIError(.forbidden, "host \(name.debugDescription) is not this server's address")
        }
        guard let value = request.headers[.authorization], value.lowercased().hasPrefix("basic "),
              let decoded = Data(base64Encoded: String(value.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let credentials = String(data: decoded, encoding: .utf8),
              let colon = credentials.firstIndex(of: ":") else {
            throw APIError(.unauthorized, "sign in with your database role's name and password")
        }
        let user = String(credentials[..<colon]), password = String(credentials[credentials.index(after: colon)...])
        guard !user.isEmpty, !password.isEmpty else {
            throw APIError(.unauthorized, "sign in with your database role's name and password")
        }
        return try await people.person(user, password: password)
    }

    /// The token of an `Authorization: Bearer …` header, if any.
    private func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.lowercased().hasPrefix("bearer ") else { return nil }
        return String(value.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }

    /// The token of the ``cookieName`` cookie, if any.
    private func cookie(_ request: Request) -> String? {
        request.cookies[Self.cookieName]?.value
    }

    /// Compares without stopping at the first difference, so that timing tells nothing of the token.
    static func constantTimeEqual(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let a = Array(given.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
