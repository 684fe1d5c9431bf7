#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

extension SystemCall {
    /// Maps the first `size` bytes of the open file `descriptor` into memory, read-only and
    /// private; the mapping outlives the descriptor, until ``unmap(_:size:)``.
    /// The corresponding C function is `mmap(2)`.
    public static func mapReadOnly(_ descriptor: Int32, size: Int) throws(Errno) -> UnsafeRawPointer {
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else {
            throw Errno(rawValue: errno)
        }
        return UnsafeRawPointer(mapping)
    }

    /// Releases a mapping ``mapReadOnly(_:size:)`` made. The corresponding C function is `munmap(2)`.
    public static func unmap(_ base: UnsafeRawPointer, size: Int) {
        munmap(UnsafeMutableRawPointer(mutating: base), size)
    }

    /// Asks the kernel to read ahead the pages that hold `range` of the mapping at `base`, so
    /// that the first reader does not wait for each page in turn. The corresponding C function
    /// is `madvise(2)` with `MADV_WILLNEED`.
    public static func adviseWillNeed(_ base: UnsafeRawPointer, range: Range<Int>) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = range.lowerBound / page * page
        _ = madvise(UnsafeMutableRawPointer(mutating: base + start), range.upperBound - start, MADV_WILLNEED)
    }
}
