#if canImport(Glibc)
import Glibc
#endif

extension SystemCall {
    /// Whether `descriptor` is a terminal. The corresponding C function is `isatty(3)`.
    public static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The width in columns of the terminal `descriptor`, `nil` when it is no terminal or
    /// does not say. The corresponding C function is `ioctl(2)` with `TIOCGWINSZ`.
    public static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
