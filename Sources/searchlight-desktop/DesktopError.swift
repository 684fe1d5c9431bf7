/// Why the desktop service failed: a call a caller is told about, as a D-Bus error, or a bus
/// the service cannot use (it then exits 1 with this one line).
struct DesktopError: Error, CustomStringConvertible {
    /// `org.freedesktop.DBus.Error.InvalidArgs` for a result that is not one, `…Failed` otherwise.
    var name: String
    var description: String

    static func failed(_ message: String) -> DesktopError { DesktopError(name: "org.freedesktop.DBus.Error.Failed", description: message) }
    static func invalid(_ message: String) -> DesktopError {
        DesktopError(name: "org.freedesktop.DBus.Error.InvalidArgs", description: message)
    }
}
