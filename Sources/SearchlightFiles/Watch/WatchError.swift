/// Why a watch stopped. Prints as one line.
public struct WatchError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// The root was deleted, moved away or unmounted.
    static func rootGone(_ root: String) -> WatchError {
        WatchError("the watched folder \(root) was deleted or moved away; the index is left as it was, "
                   + "so a restart on its new place reconciles it")
    }
}
