/// The defaults of `searchlight serve`'s page and JSON API, shared by those that need them
/// without linking the server: the command line's options and configuration file (`[server]`),
/// the server itself, and the desktop service, which opens the page.
///
/// ```swift
/// let page = "http://\(ServerDefaults.host):\(ServerDefaults.port)/"   // http://127.0.0.1:8765/
/// ```
public enum ServerDefaults {
    /// The address listened on: loopback, which needs no token.
    public static let host = "127.0.0.1"
    /// The port listened on (`--port`, `[server] port`, `$SEARCHLIGHT_DESKTOP_PORT`).
    public static let port = 8765
    /// How long a search or query may run before it is stopped (`--query-timeout`), in seconds.
    public static let queryTimeoutSeconds = 5.0
}
