import SearchlightFiles
import SystemCalls

/// "More results": the search page of `searchlight serve` at `http://127.0.0.1:PORT/?q=…`,
/// opened with the desktop's browser; when no server answers there, `searchlight-serve serve`
/// (next to this executable) is started in the background on the index, in a session of its
/// own so that it outlives this process.
struct PageLauncher {
    let location: String
    let port: Int
    /// `searchlight-serve`.
    let serveExecutable: String
    /// How long a starting server may take to answer.
    static let startDeadline: Duration = .seconds(15)

    func open(terms: [String]) throws(DesktopError) {
        if !answers() {
            guard start() else { throw .failed("cannot run \(serveExecutable)") }
            let clock = ContinuousClock()
            let deadline = clock.now + Self.startDeadline
            while !answers() {
                guard clock.now < deadline else {
                    throw .failed("searchlight serve did not answer on port \(port) within \(Self.startDeadline)")
                }
                SystemCall.sleep(nanoseconds: 50_000_000)
            }
        }
        do {
            try FileOpener.open(url: url(terms: terms))
        } catch {
            throw .failed(error.description)
        }
    }

    /// The page's address for the terms, joined by spaces and percent-encoded.
    func url(terms: [String]) -> String {
        let encoded = FileURI.percentEncoded(terms.joined(separator: " ").utf8, keeping: FileURI.isUnreserved)
        return "http://127.0.0.1:\(port)/?q=\(encoded)"
    }

    /// Whether something accepts connections on the port. The corresponding C function is `connect(2)`.
    func answers() -> Bool { SystemCall.acceptsLoopbackConnections(port: port) }

    /// Starts the server, its output to /dev/null, in a new session. The corresponding C
    /// function is `posix_spawn(3)` with `POSIX_SPAWN_SETSID`.
    private func start() -> Bool {
        let arguments = [serveExecutable, "serve", "--port", String(port), "--index", location]
        var options = SystemCall.SpawnOptions()
        (options.standardInput, options.standardOutput, options.standardError) = (.null, .null, .null)
        options.newSession = true
        return (try? SystemCall.spawn(serveExecutable, arguments: arguments.map { Array($0.utf8) }, options: options)) != nil
    }
}
