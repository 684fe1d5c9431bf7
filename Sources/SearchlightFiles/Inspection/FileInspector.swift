import ExtractionProtocol
import Logging
import Searchlight
import SystemCalls
import SystemPackage

/// Step ③ of the write path, inspection: one file's type and attributes, by libmagic.
///
/// Identifies files with libmagic and derives their attribute sets. One per worker thread:
/// it owns its libmagic handles.
///
/// Not `Sendable`: libmagic's handles are not thread-safe, so an inspector lives and is used
/// on one thread (the scanner keeps one per inspector thread for the whole watch). Making one
/// loads libmagic's database, which costs milliseconds; inspecting a file costs an `openat`,
/// a status, its extended attributes and libmagic's read of its first bytes.
///
/// ```swift
/// let inspector = try FileInspector()
/// switch inspector.inspect("Documents/report.pdf", in: root, domain: root.path) {
/// case .item(let item, _): print(item.attributeSet.contentType ?? "?")
/// case .vanished, .secret: break
/// }
/// ```
public final class FileInspector {
    /// The libmagic handles of this inspector, with the MIME types learned.
    private let identifier: ContentIdentifier

    /// Opens this inspector's libmagic handles.
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/inspection`` when libmagic's database cannot be loaded.
    public convenience init() throws(FileSystemError) {
        try self.init(learning: LearnedContentTypes())
    }

    /// Opens this inspector's libmagic handles; MIME types are learned into `learned`, which
    /// the other inspectors of a pool share.
    init(learning learned: LearnedContentTypes) throws(FileSystemError) {
        identifier = try ContentIdentifier(learning: learned)
    }

    /// What the inspection of one file found.
    public enum Outcome {
        /// The file's item, possibly with a recorded failure (an unreadable file keeps its name).
        case item(SearchableItem, FileStatus)
        /// The file is gone or is no longer a regular file: nothing to index.
        case vanished
        /// The file is a private key or a credential store by its content (``SecretContent``):
        /// never indexed, not even by name.
        case secret
    }

    /// Inspects the file at `relativePath` below `root` and builds its item.
    ///
    /// The file is opened with `O_NOFOLLOW | O_NONBLOCK` (a FIFO swapped in cannot block us) and
    /// identified through the open descriptor; the status used is that of the open file.
    ///
    /// Reads no more than libmagic needs (and ``TypeEvidence`` when it overrules a weak guess):
    /// the file's content is decoded later, by the extraction workers. Never throws: every
    /// failure is an outcome.
    ///
    /// - Parameters:
    ///   - relativePath: The file's path below the root: the item's identifier.
    ///   - domain: The domain the item is made for.
    /// - Returns: The item with its status (an unreadable file keeps its name, with its failure),
    ///   or why there is none: the file vanished, or is a secret.
    public func inspect(_ relativePath: ItemIdentifier, in root: RootFolder, domain: String) -> Outcome {
        let descriptor: Int32
        do {
            descriptor = try Self.open(relativePath, in: root)
        } catch {
            if error.isNoSuchFile || error.cause == .tooManySymbolicLinkLevels { return .vanished }
            // Unreadable: keep what the directory entry tells, and record why.
            guard let status = try? root.status(of: relativePath), status.kind == .regular else {
                return .vanished
            }
            var found = item(relativePath, domain: domain, status: status, type: nil, description: nil,
                             failure: ExtractionFailure(.unreadable, error.description).stored)
            found.access = status.access(posixACL: nil)
            return .item(found, status)
        }
        defer { SystemCall.close(descriptor) }
        guard let status = try? FileStatus.of(descriptor: descriptor, path: relativePath), status.kind == .regular else {
            return .vanished
        }
        // Tags, comment, rating and origins: a system call on the open file, not a decoder's job.
        let (user, acl) = ExtendedAttributes.read(descriptor: descriptor)
        let access = status.access(posixACL: acl)
        do {
            let identity = status.size == 0 ? ContentIdentifier.empty : try identifier.identify(descriptor: descriptor)
            if SecretContent.isSecret(descriptor: descriptor, size: Int(clamping: status.size), description: identity.description) {
                return .secret
            }
            let (type, text) = Self.strongest(identity, of: relativePath, descriptor: descriptor, size: Int(clamping: status.size))
            var found = item(relativePath, domain: domain, status: status, type: type, description: text, failure: nil)
            found.attributeSet.userAttributes = user
            found.access = access
            return .item(found, status)
        } catch {
            var found = item(relativePath, domain: domain, status: status, type: nil, description: nil,
                             failure: ExtractionFailure(.decodeFailed, "libmagic: \(error)").stored)
            found.attributeSet.userAttributes = user
            found.access = access
            return .item(found, status)
        }
    }

    /// The user attributes (``ExtendedAttributes``) and status of the file at `relativePath`,
    /// without identifying or reading it: for a file whose content is known unchanged (only
    /// its change time moved, as `setfattr` or `chmod` move it). `nil` when it cannot be
    /// opened or is no longer a regular file: the caller inspects it fully.
    ///
    /// Safe from any thread: it uses no libmagic handle.
    public static func userAttributes(of relativePath: ItemIdentifier, in root: RootFolder)
        -> (attributes: UserAttributes, access: FileAccess, status: FileStatus)? {
        guard let descriptor = try? open(relativePath, in: root) else { return nil }
        defer { SystemCall.close(descriptor) }
        guard let status = try? FileStatus.of(descriptor: descriptor, path: relativePath), status.kind == .regular else {
            return nil
        }
        let (user, acl) = ExtendedAttributes.read(descriptor: descriptor)
        return (user, status.access(posixACL: acl), status)
    }

    /// libmagic's answer, or the one ``TypeEvidence`` gives where that answer is a weak guess
    /// and the name and the bytes agree on something else (a Greek `.txt` libmagic calls a
    /// DOS program). Reads nothing unless the type and the name leave room for the rule.
    static func strongest(_ identity: ContentIdentifier.Identity, of relativePath: ItemIdentifier, descriptor: Int32,
                          size: Int) -> (type: String, description: String) {
        let name = relativePath.lastComponent
        guard TypeEvidence.mayOverrule(contentType: identity.contentType, fileName: name),
              let evidence = TypeEvidence.decide(
                contentType: identity.contentType, description: identity.description, fileName: name, size: size,
                read: { offset, length in try? SystemCall.readBytes(descriptor, limit: length, at: Int64(offset)) })
        else { return (identity.contentType, identity.description) }
        return (evidence.contentType, evidence.description)
    }

    /// Opens the file at `relativePath` below `root` for reading, with `O_NOFOLLOW | O_NONBLOCK`:
    /// a FIFO swapped in cannot block us, a final symbolic link is not followed.
    ///
    /// Each folder on the way is opened in turn, never through a symbolic link
    /// (``SystemCall/open(below:_:_:options:)``): one `openat(2)` of the whole path followed a
    /// folder replaced by a link between the walk and the inspection, and the indexer read
    /// (and, on a shared index, published) a file outside the root. A few `openat` calls more
    /// per file cost microseconds beside libmagic's quarter of a millisecond.
    private static func open(_ relativePath: ItemIdentifier, in root: RootFolder) throws(FileSystemError) -> Int32 {
        try root.withDescriptor { descriptor throws(FileSystemError) in
            try FileSystemError.attributing("open", path: relativePath) { () throws(Errno) in
                try SystemCall.open(below: descriptor, relativePath.bytes, .readOnly, options: .readingSafely)
            }
        }
    }

    /// The item of a regular file: its attributes made from its name, status and type
    /// (``FileAttributes``), stamped with its change stamp, its identifier a path.
    private func item(
        _ relativePath: ItemIdentifier, domain: String, status: FileStatus, type: String?, description: String?,
        failure: String?
    ) -> SearchableItem {
        SearchableItem(
            uniqueIdentifier: relativePath, domainIdentifier: domain,
            attributeSet: FileAttributes.make(relativePath: relativePath, status: status, contentType: type,
                                              contentDescription: description),
            changeStamp: status.changeStamp, failure: failure, identifierIsPath: true)
    }
}
