@testable import SearchlightCommands
import Testing

/// `serve --elasticsearch`'s `PORT`, `HOST:PORT` and `[V6]:PORT`: an IPv6 address without
/// brackets is refused, not read as a host and its last group as the port.
@Suite("serve: the Elasticsearch address")
struct ServeAddressTests {
    @Test func portsHostsAndBracketedAddresses() {
        #expect(ServeCommand.hostAndPort("9200")?.port == 9200)
        #expect(ServeCommand.hostAndPort("127.0.0.1:9201").map { [$0.host, String($0.port)] } == ["127.0.0.1", "9201"])
        #expect(ServeCommand.hostAndPort("[::1]:9200").map { [$0.host, String($0.port)] } == ["::1", "9200"])
        #expect(ServeCommand.hostAndPort("localhost:0")?.port == 0)
        for refused in ["::1", "fe80::1:9200", "[::1]", ":9200", "host:", "host:65536", "host:-1", "host:port"] {
            #expect(ServeCommand.hostAndPort(refused) == nil, "\(refused)")
        }
    }
}
