import SystemPackage

extension Inotify {
    /// The most directories one user may watch, over all inotify instances
    /// (`/proc/sys/fs/inotify/max_user_watches`). `ENOSPC` from ``addWatch(_:for:)`` means
    /// it is reached.
    ///
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/readInotifyLimit``.
    public static func maximumUserWatches() throws(FileSystemError) -> Int {
        try readLimit("max_user_watches")
    }

    /// The most events the kernel queues for one instance before it drops events and
    /// reports ``InotifyEventMask/queueOverflow`` (`/proc/sys/fs/inotify/max_queued_events`).
    ///
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/readInotifyLimit``.
    public static func maximumQueuedEvents() throws(FileSystemError) -> Int {
        try readLimit("max_queued_events")
    }

    /// The most inotify instances one user may create
    /// (`/proc/sys/fs/inotify/max_user_instances`).
    ///
    /// - Throws: ``FileSystemError`` with ``FileSystemError/Code/readInotifyLimit``.
    public static func maximumUserInstances() throws(FileSystemError) -> Int {
        try readLimit("max_user_instances")
    }

    private static func readLimit(_ name: String) throws(FileSystemError) -> Int {
        let path = FilePath("/proc/sys/fs/inotify").appending(name)
        let text: String
        do {
            let file = try FileDescriptor.open(path, .readOnly, options: .closeOnExec)
            defer { try? file.close() }
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = try bytes.withUnsafeMutableBytes { try file.read(into: $0) }
            text = String(decoding: bytes[..<count], as: UTF8.self)
        } catch let error as Errno {
            throw FileSystemError(.readInotifyLimit, errno: error, path: path)
        } catch {
            throw FileSystemError(.readInotifyLimit, errno: nil, path: path, detail: "\(error)")
        }
        let digits = text.trimmingPrefix(while: \.isWhitespace).prefix(while: \.isNumber)
        guard let value = Int(digits) else {
            throw FileSystemError(.readInotifyLimit, errno: nil, path: path, detail: "not a number: \(text.debugDescription)")
        }
        return value
    }
}
