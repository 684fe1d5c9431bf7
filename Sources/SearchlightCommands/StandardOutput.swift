import Foundation
import SystemCalls

/// Buffered writes of raw bytes to standard output: file names are bytes, not strings.
final class StandardOutput {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    deinit { flush() }

    func write(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write(_ text: String) { write(text.utf8) }

    /// Writes one byte: a line's terminator, without an array of its own.
    func write(byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `bytes`, then `terminator`.
    func writeLine(_ bytes: [UInt8], terminator: UInt8) {
        buffer.append(contentsOf: bytes)
        write(byte: terminator)
    }

    func flush() {
        Self.writeAll(buffer, to: 1)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes every byte to `descriptor`, retrying after EINTR; gives up on any other error
    /// (a closed pipe: the reader is gone). The corresponding C function is `write(2)`.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        try? SystemCall.write(descriptor, bytes)
    }
}
