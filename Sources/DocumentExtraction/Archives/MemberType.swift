import CShimMagic
import ExtractionProtocol
import Synchronization

/// libmagic's MIME type of an archive member's bytes, so that a member is routed to its
/// reader by the same rule as a file (``DocumentFormat/init(contentType:fileName:)``).
///
/// One handle for the worker, opened on first use (a worker that never meets an archive
/// never loads libmagic nor its database); a lock keeps it to one caller at a time, since libmagic
/// garbles results when two threads share a handle.
enum MemberType {
    private final class Handle: @unchecked Sendable {
        // Used only under `shared`'s lock.
        let cookie: magic_t?
        init() {
            // libmagic is opened on first use (CShimMagic); a worker that cannot load it
            // answers no type, as one whose database does not load.
            guard searchlight_magic_library_error() == nil else {
                cookie = nil
                return
            }
            let cookie = searchlight_magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR)
            if let cookie, searchlight_magic_load(cookie, nil) != 0 {
                searchlight_magic_close(cookie)
                self.cookie = nil
            } else {
                self.cookie = cookie
            }
        }
    }

    private static let shared = Mutex<Handle?>(nil)

    /// The most bytes of a member libmagic looks at: the first mebibyte, as the indexer's
    /// inspector reads of a file (`MAGIC_PARAM_BYTES_MAX`, which `magic_buffer` does not apply),
    /// so that a member's type is the type the same bytes get as a file, and a large member
    /// costs no more than a small one.
    static let maximumBytesRead = 1 << 20

    /// The MIME type of a member (or an attachment) named `name` (its path, or its last
    /// component), whose bytes are `bytes`: libmagic's, or the one ``TypeEvidence`` gives where
    /// libmagic's is a weak guess and the name and the bytes agree on another, as for a file.
    static func of(_ bytes: [UInt8], named name: [UInt8]) -> String {
        let type = of(bytes)
        let lastComponent = name.split(separator: 0x2F).last ?? []
        let evidence = TypeEvidence.decide(contentType: type, description: nil, fileName: lastComponent, size: bytes.count) {
            offset, length in
            offset < bytes.count ? Array(bytes[offset..<min(bytes.count, offset + length)]) : []
        }
        return evidence?.contentType ?? type
    }

    /// The MIME type of `bytes` (`text/plain`, `application/pdf`…); empty when libmagic
    /// cannot tell. The corresponding C function is `magic_buffer(3)`.
    static func of(_ bytes: [UInt8]) -> String {
        shared.withLock { handle in
            if handle == nil { handle = Handle() }
            guard let cookie = handle?.cookie else { return "" }
            let type = bytes.withUnsafeBytes { searchlight_magic_buffer(cookie, $0.baseAddress, min($0.count, maximumBytesRead)) }
            return type.map { String(cString: $0) } ?? ""
        }
    }
}
