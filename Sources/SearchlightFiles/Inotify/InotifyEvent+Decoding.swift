import SystemCalls

extension InotifyEvent {
    /// The size of the fixed part of a record: `wd`, `mask`, `cookie`, `len` (16 bytes).
    /// The name, when there is one, follows it.
    static let headerSize = SystemCall.InotifyRecordHeader.size

    /// Decodes the records that one `read(2)` of an inotify descriptor returned.
    ///
    /// Each record is a `struct inotify_event` followed by `len` bytes of name, NUL-padded
    /// (the flexible array member Swift cannot see); records follow each other with no gap.
    ///
    /// - Throws: ``FileSystemError/Code/readEvents``, without a cause, when a record runs past the end of the bytes,
    ///   which the kernel never does.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(FileSystemError) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        // Most names are short: a record is rarely under 32 bytes.
        events.reserveCapacity(bytes.count / 32)
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= headerSize else {
                throw truncated(at: offset, total: bytes.count)
            }
            let header = SystemCall.InotifyRecordHeader(bytes, at: offset)
            let nameStart = offset + headerSize
            let nameLength = header.nameLength
            guard bytes.count - nameStart >= nameLength else {
                throw truncated(at: offset, total: bytes.count)
            }
            let padded = bytes[nameStart..<(nameStart + nameLength)]
            let nameEnd = padded.firstIndex(of: 0) ?? padded.endIndex
            events.append(InotifyEvent(
                watch: WatchDescriptor(rawValue: header.watch),
                mask: InotifyEventMask(rawValue: header.mask),
                cookie: header.cookie,
                name: Array(bytes[nameStart..<nameEnd])))
            offset = nameStart + nameLength
        }
        return events
    }

    private static func truncated(at offset: Int, total: Int) -> FileSystemError {
        FileSystemError(.readEvents, errno: nil, detail: "truncated inotify record at byte \(offset) of \(total)")
    }
}
