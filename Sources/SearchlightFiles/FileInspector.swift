import Glibc
import Logging
import Searchlight

/// Identifies files with libmagic and derives their attribute sets. One per worker thread:
/// it owns its libmagic handles.
public final class FileInspector {
    private let identifier: ContentIdentifier

    /// Opens this inspector's libmagic handles.
    /// - Throws: ``InspectionError`` when libmagic's database cannot be loaded.
    public init() throws(InspectionError) {
        identifier = try ContentIdentifier()
    }

    /// What the inspection of one file found.
    public enum Outcome {
        /// The file's item, possibly with a recorded failure (an unreadable file keeps its name).
        case item(SearchableItem, FileStatus)
        /// The file is gone or is no longer a regular file: nothing to index.
        case vanished
    }

    /// Inspects the file at `relativePath` below `root` and builds its item.
    ///
    /// The file is opened with `O_NOFOLLOW | O_NONBLOCK` (a FIFO swapped in cannot block us) and
    /// identified through the open descriptor; the status used is that of the open file.
    public func inspect(_ relativePath: ItemIdentifier, in root: RootFolder, domain: String) -> Outcome {
        let descriptor = DirectoryWalker.Level.withCString(relativePath.bytes) { path in
            openat(root.descriptor, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        }
        if descriptor < 0 {
            let error = FileSystemError("open", path: relativePath, errno: errno)
            if error.errno == ENOENT || error.errno == ELOOP || error.errno == ENOTDIR { return .vanished }
            // Unreadable: keep what the directory entry tells, and record why.
            guard let status = try? statusWithoutOpening(relativePath, in: root), status.kind == .regular else {
                return .vanished
            }
            return .item(item(relativePath, domain: domain, status: status, type: nil, description: nil,
                              failure: error.description), status)
        }
        defer { close(descriptor) }
        guard let status = try? FileStatus.of(descriptor: descriptor, path: relativePath), status.kind == .regular else {
            return .vanished
        }
        do {
            let identity = try identifier.identify(descriptor: descriptor)
            let (type, text) = (identity.contentType, identity.description)
            var found = item(relativePath, domain: domain, status: status, type: type, description: text, failure: nil)
            if let name = found.attributeSet.displayName, DocumentTitle.applies(contentType: type, fileName: name),
               let title = DocumentTitle.title(in: Self.firstBytes(of: descriptor), contentType: type, fileName: name) {
                found.attributeSet.title = title
            }
            return .item(found, status)
        } catch {
            return .item(item(relativePath, domain: domain, status: status, type: nil, description: nil,
                              failure: "libmagic: \(error)"), status)
        }
    }

    /// The first ``DocumentTitle/bytesRead`` bytes of an open file. The corresponding C function is `pread(2)`.
    static func firstBytes(of descriptor: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: DocumentTitle.bytesRead)
        var count = 0
        while true {
            count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 || errno != EINTR { break }
        }
        return Array(buffer.prefix(max(0, count)))
    }

    private func statusWithoutOpening(_ relativePath: ItemIdentifier, in root: RootFolder) throws -> FileStatus {
        try DirectoryWalker.Level.withCString(relativePath.bytes) { path throws(FileSystemError) in
            try FileStatus.of(path, in: root.descriptor, path: relativePath)
        }
    }

    private func item(
        _ relativePath: ItemIdentifier, domain: String, status: FileStatus, type: String?, description: String?,
        failure: String?
    ) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: relativePath, domainIdentifier: domain,
            attributeSet: FileAttributes.make(relativePath: relativePath, status: status, contentType: type,
                                              contentDescription: description),
            changeStamp: status.changeStamp, failure: failure)
    }
}
