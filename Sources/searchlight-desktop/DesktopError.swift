/// Why the desktop service failed, shaped as every subsystem's error is
/// (Docs/Architecture.md#errors): a ``code`` (the D-Bus error a caller is told), a ``message``,
/// and the index's error beneath (``cause``), kept typed. A call's failure is answered as that
/// D-Bus error; a bus the service cannot use ends it with exit status 1 and this one line.
struct DesktopError: Error, CustomStringConvertible {
    /// What kind of failure this is: the D-Bus error's name.
    struct Code: Hashable, CustomStringConvertible {
        let name: String
        /// `org.freedesktop.DBus.Error.Failed`: the call could not be answered.
        static let failed = Code(name: "org.freedesktop.DBus.Error.Failed")
        /// `org.freedesktop.DBus.Error.InvalidArgs`: an argument (a result identifier) is not one.
        static let invalidArguments = Code(name: "org.freedesktop.DBus.Error.InvalidArgs")
        /// The D-Bus error's name.
        var description: String { name }
    }

    /// The kind of failure.
    var code: Code
    /// What happened, for people (the caller's desktop may show it).
    var message: String
    /// The index's error, when reading the index failed.
    var cause: (any Error)?

    /// Creates an error of kind `code`, saying `message`, caused by `cause`.
    init(_ code: Code, _ message: String, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.cause = cause
    }

    /// The D-Bus error's name, as `replyError` takes it.
    var name: String { code.name }

    /// The message.
    var description: String { message }

    /// The call could not be answered.
    static func failed(_ message: String) -> DesktopError { DesktopError(.failed, message) }

    /// An argument is not one the call takes.
    static func invalid(_ message: String) -> DesktopError { DesktopError(.invalidArguments, message) }
}
