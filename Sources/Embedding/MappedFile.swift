import SystemCalls
import SystemPackage

/// A file mapped read-only into memory for the lifetime of this object: the model's 70 MB are
/// paged in as the encoder touches them, never read whole.
final class MappedFile: @unchecked Sendable {
    /// The first byte; valid until the object is released.
    let base: UnsafeRawPointer
    let size: Int
    let path: FilePath

    /// Maps `path`. The corresponding C functions are `open(2)`, `statx(2)` and `mmap(2)`.
    init(path: FilePath) throws(EmbeddingError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        } catch let error as Errno {
            if error == .noSuchFileOrDirectory {
                throw EmbeddingError(.missing, "no model file (install one with `make model` or Packaging/install-model)", path: path)
            }
            throw EmbeddingError(.unreadable, "cannot open the model file", path: path, cause: error)
        } catch {
            throw EmbeddingError(.unreadable, "cannot open the model file: \(error)", path: path)
        }
        defer { try? descriptor.close() }
        let status: SystemCall.Status
        do {
            status = try SystemCall.status(of: descriptor.rawValue)
        } catch {
            throw EmbeddingError(.unreadable, "cannot read the model file's size", path: path, cause: error)
        }
        guard status.isRegularFile else {
            throw EmbeddingError(.notAModel, "the model file is not a regular file", path: path)
        }
        let size = Int(status.size)
        guard size > 0 else {
            throw EmbeddingError(.truncated, "the model file is empty", path: path)
        }
        do {
            self.base = try SystemCall.mapReadOnly(descriptor.rawValue, size: size)
        } catch {
            throw EmbeddingError(.unreadable, "cannot map the model file", path: path, cause: error)
        }
        self.size = size
        self.path = path
    }

    /// Asks the kernel to read `range` ahead, so that the first embedding does not wait for
    /// each page in turn. The corresponding C function is `madvise(2)`.
    func willNeed(_ range: Range<Int>) {
        SystemCall.adviseWillNeed(base, range: range)
    }

    deinit {
        SystemCall.unmap(base, size: size)
    }
}
