import CLibArchive
import ExtractionProtocol
import SystemCalls

/// One pass over an archive's members through libarchive: headers in order, each member's
/// data read (bounded) or skipped.
///
/// Unwraps every filter libarchive knows (gzip, bzip2, xz, lzma, lzip, zstd, lz4, compress),
/// then reads what is inside as ``Formats-swift.enum/archives`` (ZIP, tar, cpio, 7z, RAR, ISO)
/// or as ``Formats-swift.enum/oneStream`` (a compressed single file, `notes.txt.gz`, as one
/// member): a caller that has not yet looked at the decompressed bytes must not let libarchive
/// guess, since its guessing takes text for an archive (a changelog for an `mtree` listing).
final class ArchiveReader {
    private let archive: OpaquePointer
    private var entry: OpaquePointer?
    /// What the reader takes its input for.
    let formats: Formats

    /// What a reader reads once the filters are unwrapped.
    enum Formats {
        /// Every archive format libarchive knows, chosen by its bidding.
        case archives
        /// The decompressed stream as it is, one member (libarchive's raw format).
        case oneStream
    }

    /// One member's header.
    struct Member {
        /// Its path inside the archive (UTF-8; raw bytes decoded leniently).
        var path: String
        /// Whether it is a regular file (not a folder, link or device).
        var isRegularFile: Bool
        /// Its size as the header declares it, if it declares one.
        var declaredSize: Int?
        /// Whether its data (or the archive's headers) are encrypted.
        var isEncrypted: Bool
    }

    /// Opens the archive readable from `descriptor` (not closed; read from its start) as `formats`.
    /// The corresponding C functions are `archive_read_new(3)` and `archive_read_open_fd(3)`.
    init(descriptor: Int32, formats: Formats) throws(ExtractionFailure) {
        guard let archive = archive_read_new() else {
            throw ExtractionFailure(.internalError, "libarchive: cannot allocate a reader")
        }
        self.archive = archive
        self.formats = formats
        archive_read_support_filter_all(archive)
        switch formats {
        case .archives: archive_read_support_format_all(archive)
        case .oneStream: archive_read_support_format_raw(archive)
        }
        try? SystemCall.seek(descriptor, to: 0)
        guard archive_read_open_fd(archive, descriptor, 64 << 10) == ARCHIVE_OK else {
            // `deinit` frees the reader: every property is set, so a throw from here releases self.
            let message = errorMessage
            // Opening reads the first block through the filters: a damaged or truncated stream fails here.
            throw ExtractionFailure(.decodeFailed, formats == .oneStream
                ? "damaged \(noun) (\(message))" : "not an archive libarchive reads (\(message))")
        }
    }

    deinit { archive_read_free(archive) }

    private var errorMessage: String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
    }

    /// The archive's format, as libarchive names it (`ZIP 2.0 (deflation)`, `GNU tar format`, `raw`).
    var formatName: String { archive_format_name(archive).map { String(cString: $0) } ?? "" }

    /// Whether a compression filter wraps the file (libarchive's `none` filter is always
    /// counted). The corresponding C function is `archive_filter_count(3)`.
    var isCompressed: Bool { archive_filter_count(archive) > 1 }

    /// What a failure calls the file: `archive` or `compressed file`.
    var noun: String { formats == .oneStream ? "compressed file" : "archive" }

    /// Bytes read from the file so far (compressed). The corresponding C function is `archive_filter_bytes(3)`.
    var compressedBytesRead: Int { Int(archive_filter_bytes(archive, -1)) }

    /// The next member's header, or nil at the end. The corresponding C function is
    /// `archive_read_next_header(3)`.
    func next() throws(ExtractionFailure) -> Member? {
        var header: OpaquePointer?
        let status = archive_read_next_header(archive, &header)
        if status == ARCHIVE_EOF { return nil }
        guard status >= ARCHIVE_WARN, let header else {
            let message = errorMessage
            if message.lowercased().contains("encrypt") || message.lowercased().contains("passphrase") {
                throw ExtractionFailure(.encrypted, "encrypted archive: a password is needed to read it")
            }
            throw ExtractionFailure(.decodeFailed, "damaged \(noun) (\(message))")
        }
        entry = header
        // Not UTF-8 in the archive's own charset: decoded leniently (String(cString:) replaces
        // invalid bytes).
        let path = (archive_entry_pathname_utf8(header) ?? archive_entry_pathname(header)).map { String(cString: $0) } ?? ""
        return Member(
            path: path,
            isRegularFile: archive_entry_filetype(header) == 0o100000,
            declaredSize: archive_entry_size_is_set(header) != 0 ? Int(archive_entry_size(header)) : nil,
            isEncrypted: archive_entry_is_encrypted(header) != 0)
    }

    /// Reads the current member's data into `bytes` until they hold `limit` bytes, and tells
    /// whether that was all of it; a later call reads on from there. `onProgress` is called
    /// with each chunk's size and may stop the read by throwing (a bomb). The corresponding C
    /// function is `archive_read_data(3)`.
    func readData(into bytes: inout [UInt8], limit: Int, onProgress: (Int) throws(ExtractionFailure) -> Void)
        throws(ExtractionFailure) -> Bool
    {
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let count = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, wanted) }
            if count == 0 { return true }
            guard count > 0 else {
                let message = errorMessage
                if message.lowercased().contains("encrypt") || message.lowercased().contains("passphrase") {
                    throw ExtractionFailure(.encrypted, "encrypted archive: a password is needed to read it")
                }
                throw ExtractionFailure(.decodeFailed, "damaged \(formats == .oneStream ? noun : "archive member") (\(message))")
            }
            try onProgress(count)
            bytes.append(contentsOf: chunk[..<count])
        }
        return false
    }
}
