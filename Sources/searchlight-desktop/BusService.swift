// Glibc for free(3) of the strings the C shim (CShimGio) allocates.
import Glibc
import SystemCalls
import CShimGio

/// A service on the session bus (GDBus through ``CShimGio``): objects described by introspection
/// XML, one handler for every method call, a name owned while it runs.
///
/// Calls are handled one at a time on the thread that called ``run(name:idleSeconds:)``,
/// which runs GLib's main loop; GDBus has already checked each call's argument types.
final class BusService {
    private let service: OpaquePointer
    private let handler: Handler

    /// Connects to the bus that started the process, else the session bus.
    /// - Throws: ``DesktopError`` when there is no bus to connect to.
    init(handler: @escaping (BusCall) -> Void) throws(DesktopError) {
        self.handler = Handler(body: handler)
        var error: UnsafeMutablePointer<CChar>?
        let context = Unmanaged.passUnretained(self.handler).toOpaque()
        guard let service = cdbus_service_new({ context, call in
            Unmanaged<Handler>.fromOpaque(context!).takeUnretainedValue().body(BusCall(raw: call!))
        }, context, &error) else {
            throw DesktopError.failed("cannot connect to the session bus: \(Self.take(error))")
        }
        self.service = service
    }

    deinit { cdbus_service_free(service) }

    /// Serves `interface` (described in `xml`) at `path`.
    func register(xml: String, interface: String, path: String) throws(DesktopError) {
        var error: UnsafeMutablePointer<CChar>?
        if cdbus_service_register(service, xml, interface, path, &error) != 0 {
            throw DesktopError.failed("cannot serve \(interface) at \(path): \(Self.take(error))")
        }
    }

    /// Owns `name` and answers calls until `idleSeconds` pass without one (0: never), SIGTERM
    /// or SIGINT. The corresponding C function is `g_main_loop_run`.
    /// - Throws: ``DesktopError`` when the name is owned by another process or is lost.
    func run(name: String, idleSeconds: UInt32) throws(DesktopError) {
        if cdbus_service_run(service, name, idleSeconds) != 0 {
            throw DesktopError.failed("the name \(name) is owned by another process, or was lost")
        }
    }

    private static func take(_ error: UnsafeMutablePointer<CChar>?) -> String {
        guard let error else { return "unknown error" }
        defer { free(error) }
        return String(cString: error)
    }

    private final class Handler {
        let body: (BusCall) -> Void
        init(body: @escaping (BusCall) -> Void) { self.body = body }
    }
}

/// One method call; answered exactly once, by one of the `reply` methods (an unanswered call
/// gets an error).
struct BusCall {
    let raw: OpaquePointer

    var method: String { String(cString: cdbus_call_method(raw)) }
    var interface: String { String(cString: cdbus_call_interface(raw)) }

    /// The strings of argument `index`: an `as`'s elements, or an `s` alone.
    func strings(at index: Int) -> [String] {
        guard let strings = cdbus_call_strings(raw, index) else { return [] }
        defer { cdbus_strings_free(strings) }
        var result: [String] = []
        var cursor = strings
        while let string = cursor.pointee {
            result.append(String(cString: string))
            cursor += 1
        }
        return result
    }

    func replyEmpty() { cdbus_reply_empty(raw) }

    /// Answers with the D-Bus error `name` (`org.freedesktop.DBus.Error.Failed`, …).
    func replyError(_ name: String, _ message: String) { cdbus_reply_error(raw, name, message) }

    /// Answers `(as)`.
    func reply(strings: [String]) {
        SystemCall.withCStrings(strings) { cdbus_reply_strings(raw, $0.baseAddress!, strings.count) }
    }

    /// Answers `(a(sss))`.
    func reply(triples: [(String, String, String)]) {
        SystemCall.withCStrings(triples.flatMap { [$0.0, $0.1, $0.2] }) { cdbus_reply_string_triples(raw, $0.baseAddress!, triples.count) }
    }

    /// Answers `(aa{sv})`, every value a string; each dictionary's pairs in order.
    func reply(dictionaries: [[(String, String)]]) {
        let list = cdbus_dictionaries_new()
        for dictionary in dictionaries {
            SystemCall.withCStrings(dictionary.map(\.0)) { keys in
                SystemCall.withCStrings(dictionary.map(\.1)) { values in
                    cdbus_dictionaries_add(list, keys.baseAddress!, values.baseAddress!, dictionary.count)
                }
            }
        }
        cdbus_reply_dictionaries(raw, list)
    }

    /// Answers KRunner's `(a(sssida{sv}))`.
    func reply(matches: [RunnerMatch]) {
        let list = cdbus_matches_new()
        for match in matches {
            SystemCall.withCStrings(match.urls) { urls in
                cdbus_matches_add(list, match.id, match.text, match.icon, match.type, match.relevance, urls.baseAddress!,
                                  match.urls.count, match.subtext, match.category)
            }
        }
        cdbus_reply_matches(raw, list)
    }
}
