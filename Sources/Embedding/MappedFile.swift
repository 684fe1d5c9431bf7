#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemPackage

/// A file mapped read-only into memory for the lifetime of this object: the model's 70 MB are
/// paged in as the encoder touches them, never read whole.
final class MappedFile: @unchecked Sendable {
    /// The first byte; valid until the object is released.
    let base: UnsafeRawPointer
    let size: Int
    let path: FilePath

    /// Maps `path`. The corresponding C functions are `open(2)`, `fstat(2)` and `mmap(2)`.
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
        var status = stat()
        guard fstat(descriptor.rawValue, &status) == 0 else {
            let error = Errno(rawValue: errno)
            throw EmbeddingError(.unreadable, "cannot read the model file's size", path: path, cause: error)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw EmbeddingError(.notAModel, "the model file is not a regular file", path: path)
        }
        let size = Int(status.st_size)
        guard size > 0 else {
            throw EmbeddingError(.truncated, "the model file is empty", path: path)
        }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor.rawValue, 0),
              mapping != MAP_FAILED
        else {
            let error = Errno(rawValue: errno)
            throw EmbeddingError(.unreadable, "cannot map the model file", path: path, cause: error)
        }
        self.base = UnsafeRawPointer(mapping)
        self.size = size
        self.path = path
    }

    /// Asks the kernel to read `range` ahead, so that the first embedding does not wait for
    /// each page in turn. The corresponding C function is `madvise(2)`.
    func willNeed(_ range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = range.lowerBound / page * page
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), range.upperBound - start, MADV_WILLNEED)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
    }
}
