import Foundation
import Glibc
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Searchlight
import SearchlightFiles
import SearchlightPostgres
import SearchlightServer
import SearchlightTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// A real folder scanned into a real index (libmagic, thumbnails from the extractor workers),
/// and a server over it: an SQLite file, or a database of the test PostgreSQL cluster.
final class ServerFixture: @unchecked Sendable {
    let tree = TemporaryTree("serve")
    let work = TemporaryTree("serve-index")
    let outside = TemporaryTree("serve-outside")
    var indexPath: String { work.path + "/index.sqlite" }
    let backend: IndexBackend
    /// The database's URL, on PostgreSQL.
    let url: String?
    let index: any FileIndexWriter
    let root: RootFolder
    var domain: String { root.path }

    /// A fixture on an SQLite file.
    convenience init() throws {
        try self.init(backend: .sqlite, url: nil)
    }

    /// A fixture on `backend`, with a database of its own on PostgreSQL.
    static func make(_ backend: IndexBackend) async throws -> ServerFixture {
        switch backend {
        case .sqlite: try ServerFixture()
        case .postgres: try ServerFixture(backend: .postgres, url: try await PostgresCluster.shared().makeDatabase("serve"))
        }
    }

    private init(backend: IndexBackend, url: String?) throws {
        self.backend = backend
        self.url = url
        if let url {
            index = try PostgresStore(url: url, readOnly: false, logger: Logger(label: "test"))
        } else {
            index = try SearchableIndex(path: work.path + "/index.sqlite")
        }
        root = try RootFolder(path: tree.path)
        makeImage("Holiday/beach sunset.png", width: 800, height: 600)
        tree.write("Quarterly Report 2024.txt", "Revenue grew in every region.\n")
        tree.write("notes/plan v2 (draft).md", "# Plan\n\nShip the search page.\n")
        tree.write("notes/budget.csv", "item,cost,count\npaper,12,3\npens,4,10\nink,30,2\n")
        tree.write("notes/page.html", "<html><head><title>A page</title></head><body><script>alert(1)</script></body></html>\n")
        tree.write(Array("odd %2F name\u{1}?#.txt".utf8), "odd\n")
        outside.write("secret.txt", "outside the root\n")
        try scan()
    }

    /// Writes `items` into the index, in one batch.
    func write(_ items: [SearchableItem]) throws {
        var batch = IndexBatch()
        for item in items { batch.upsert(item) }
        try index.apply(batch)
    }

    /// Makes an image with the `vips` command (libvips-tools).
    func makeImage(_ name: String, width: Int, height: Int) {
        if let slash = name.lastIndex(of: "/") { tree.mkdirs(String(name[..<slash])) }
        let temporary = work.path + "/noise.v"
        shell("vips", "gaussnoise", temporary, "\(width)", "\(height)", "--mean", "128", "--sigma", "40")
        shell("vips", "cast", temporary, tree.url(name), "uchar")
    }

    /// Reconciles the folder into the index, with thumbnails.
    func scan() throws {
        var configuration = ExtractorPool.Configuration()
        configuration.workerCount = 1
        let extraction = ItemExtraction(options: .init(thumbnails: true, content: false), configuration: configuration,
                                        logger: Logger(label: "test"))
        defer { extraction.shutdown() }
        let options = FolderScanner.Options(domain: root.path, pipeline: .init(extraction: extraction))
        _ = try FolderScanner(index: index, root: root, options: options, logger: Logger(label: "test")).reconcile()
        // As `searchlight scan` does: the domain's root, for paths and files.
        try index.setState(DomainState(root: root.path), domain: domain)
        // Text as the content extraction stores it.
        if var plan = try index.item("notes/plan v2 (draft).md", domain: domain)?.item {
            plan.attributeSet.textContent = "Plan\n\nShip the search page.\n"
            try write([plan])
        }
    }

    /// Runs a server in a service group on a free port, as `searchlight serve` does.
    func startServer(_ change: (inout SearchServer.Configuration) -> Void = { _ in })
        async throws -> (ServiceGroup, Int, Task<Void, any Error>) {
        let port = Mutex(0)
        let server = try await makeServer(change, onListening: { _, listening in port.withLock { $0 = listening } })
        let group = ServiceGroup(configuration: .init(services: [server], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        await eventually(timeout: 120, every: .milliseconds(20)) { port.withLock { $0 } != 0 }
        let listening = port.withLock { $0 }
        try #require(listening != 0, "the server did not start listening")
        return (group, listening, running)
    }

    func makeServer(_ change: (inout SearchServer.Configuration) -> Void = { _ in },
                    onListening: @escaping @Sendable (String, Int) async -> Void = { _, _ in }) async throws -> SearchServer {
        var configuration = SearchServer.Configuration()
        configuration.port = 0
        configuration.changeInterval = .milliseconds(50)
        change(&configuration)
        guard let url else {
            return try SearchServer(indexPath: indexPath, configuration: configuration, logger: Logger(label: "test"),
                                    onListening: onListening)
        }
        // As `searchlight-serve` opens a PostgreSQL index: one read-only handle, read through
        // its async calls, whose statements stop at the query timeout.
        let index = try await PostgresStore(url: url, queryTimeout: configuration.queryTimeout, logger: Logger(label: "test"))
        return try SearchServer(index: index, configuration: configuration, logger: Logger(label: "test"),
                                onListening: onListening)
    }

    /// The API path of an item below `endpoint` (`/api/files/`).
    func path(_ endpoint: String, _ id: String) -> String {
        endpoint + ItemLocation(domain: domain, identifier: ItemIdentifier(id)).encodedPath
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
    }
    var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
}

extension TestClientProtocol {
    /// A GET with the headers given (a loopback Host by default).
    func get(_ uri: String, _ headers: HTTPFields = [:]) async throws -> TestResponse {
        var headers = headers
        if headers[.hostHeader] == nil { headers[.hostHeader] = "127.0.0.1:8765" }
        return try await execute(uri: uri, method: .get, headers: headers)
    }
}

extension HTTPField.Name {
    /// `Host`, which HTTPTypes keeps as the request's authority; a test client sends it as a field.
    static let hostHeader = Self("Host")!
}

    /// A blocking HTTP/1.1 client on one socket, reading with a deadline.
final class Connection {
    let descriptor: Int32
    var received: [UInt8] = []

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        // MSG_NOSIGNAL: a closed connection is a failed expectation, not a SIGPIPE that ends the test run.
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until what was received contains `text`, or the deadline passes.
    func read(until text: String, timeout: TimeInterval = 30) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var closed = false
        // Each look waits in recv(2) for at most SO_RCVTIMEO (100 ms): no pause between looks.
        waitUntil(timeout: timeout, every: .zero) {
            if self.text.contains(text) || closed { return true }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 { received += buffer[0..<count] } else if count == 0 { closed = true }
            return self.text.contains(text)
        }
        return self.text.contains(text)
    }

    var text: String { String(decoding: received, as: UTF8.self) }
}

