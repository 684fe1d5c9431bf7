import Hummingbird
import NIOCore

/// The context of one request: Hummingbird's core storage and the address of the peer, which
/// decides whether a request may open files on the desktop.
public struct ServerContext: RequestContext {
    /// What Hummingbird keeps for every request (its logger, among others).
    public var coreContext: CoreRequestContextStorage
    /// The peer's address; `nil` when the request did not come through a socket (in-process tests).
    public let remoteAddress: SocketAddress?
    /// The person signed in (`serve --sign-in` on a shared index), whose role reads for them.
    var person: PersonIndexes.Person?

    /// The context Hummingbird makes for each request on a channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// Whether the peer is on this machine (127.0.0.0/8 or ::1).
    public var isFromLoopback: Bool {
        guard let remoteAddress else { return false }
        return ServerAddress.isLoopback(remoteAddress)
    }
}
