import Foundation
import Searchlight

/// Recovers the raw bytes of a command-line argument: Swift decodes `argv` as UTF-8, replacing
/// invalid bytes, but a file name that is not UTF-8 must be looked up by its exact bytes.
enum RawArgument {
    static func bytes(of parsed: String) -> [UInt8] {
        for position in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[position] else { continue }
            let raw = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                                count: strlen(pointer)))
            if String(decoding: raw, as: UTF8.self) == parsed { return raw }
        }
        return Array(parsed.utf8)
    }
}
