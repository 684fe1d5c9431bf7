#if canImport(Glibc)
import Glibc
#endif

/// The kinds of inotify events, and the flags that change how a watch is added.
///
/// Glibc imports the `IN_*` macros with mixed integer types (`IN_CREATE` as `Int32`,
/// `IN_ONESHOT` as `UInt32`, `IN_CLOEXEC` as `Int`), while `inotify_add_watch(2)` takes and
/// `struct inotify_event` carries a `UInt32`. This option set is the one place that converts.
///
/// ```swift
/// let mask: InotifyEventMask = [.create, .closeWrite, .movedFrom, .movedTo]
/// if event.mask.contains(.isDirectory) { … }
/// ```
public struct InotifyEventMask: OptionSet, Hashable, Sendable {
    /// The bits as `inotify_add_watch(2)` takes them and `struct inotify_event` carries them.
    public var rawValue: UInt32

    /// The events and flags of a mask read from the kernel or built by hand.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    private init(_ constant: some BinaryInteger) {
        self.rawValue = UInt32(truncatingIfNeeded: constant)
    }

    // MARK: Events that can be watched for (and are reported)

    /// A file was read (`IN_ACCESS`).
    public static let access = InotifyEventMask(IN_ACCESS)
    /// A file was written (`IN_MODIFY`).
    public static let modify = InotifyEventMask(IN_MODIFY)
    /// Metadata changed: permissions, timestamps, extended attributes, link count, owner
    /// (`IN_ATTRIB`).
    public static let attrib = InotifyEventMask(IN_ATTRIB)
    /// A file opened for writing was closed (`IN_CLOSE_WRITE`).
    public static let closeWrite = InotifyEventMask(IN_CLOSE_WRITE)
    /// A file or directory not opened for writing was closed (`IN_CLOSE_NOWRITE`).
    public static let closeNoWrite = InotifyEventMask(IN_CLOSE_NOWRITE)
    /// A file or directory was opened (`IN_OPEN`).
    public static let open = InotifyEventMask(IN_OPEN)
    /// An entry was renamed or moved out of the watched directory (`IN_MOVED_FROM`).
    public static let movedFrom = InotifyEventMask(IN_MOVED_FROM)
    /// An entry was renamed or moved into the watched directory (`IN_MOVED_TO`).
    public static let movedTo = InotifyEventMask(IN_MOVED_TO)
    /// An entry was created in the watched directory (`IN_CREATE`).
    public static let create = InotifyEventMask(IN_CREATE)
    /// An entry was deleted from the watched directory (`IN_DELETE`).
    public static let delete = InotifyEventMask(IN_DELETE)
    /// The watched directory itself was deleted (`IN_DELETE_SELF`).
    public static let deleteSelf = InotifyEventMask(IN_DELETE_SELF)
    /// The watched directory itself was moved (`IN_MOVE_SELF`).
    public static let moveSelf = InotifyEventMask(IN_MOVE_SELF)

    // MARK: Events that are always reported

    /// The file system holding the watched directory was unmounted (`IN_UNMOUNT`).
    public static let unmount = InotifyEventMask(IN_UNMOUNT)
    /// The kernel's event queue overflowed and events were lost (`IN_Q_OVERFLOW`).
    /// The event's watch descriptor is `-1`: a full rescan is the only safe answer.
    public static let queueOverflow = InotifyEventMask(IN_Q_OVERFLOW)
    /// The watch was removed: explicitly, or because its directory was deleted or its file
    /// system unmounted (`IN_IGNORED`). Its descriptor may be reused afterwards.
    public static let ignored = InotifyEventMask(IN_IGNORED)
    /// The subject of the event is a directory (`IN_ISDIR`).
    public static let isDirectory = InotifyEventMask(IN_ISDIR)

    // MARK: Flags for inotify_add_watch(2)

    /// Only watch the path if it is a directory, else fail with `ENOTDIR` (`IN_ONLYDIR`).
    public static let onlyDir = InotifyEventMask(IN_ONLYDIR)
    /// Do not follow a symbolic link as the last component of the path (`IN_DONT_FOLLOW`).
    public static let dontFollow = InotifyEventMask(IN_DONT_FOLLOW)
    /// Stop reporting events for children once they are unlinked (`IN_EXCL_UNLINK`).
    public static let exclUnlink = InotifyEventMask(IN_EXCL_UNLINK)
    /// Add to the events of an existing watch instead of replacing them (`IN_MASK_ADD`).
    public static let maskAdd = InotifyEventMask(IN_MASK_ADD)
    /// Fail with `EEXIST` if the inode is already watched (`IN_MASK_CREATE`, Linux 4.18).
    public static let maskCreate = InotifyEventMask(IN_MASK_CREATE)
    /// Report one event, then remove the watch (`IN_ONESHOT`).
    public static let oneShot = InotifyEventMask(IN_ONESHOT)

    // MARK: Combinations

    /// Either kind of close (`IN_CLOSE`).
    public static let close: InotifyEventMask = [.closeWrite, .closeNoWrite]
    /// Either half of a move (`IN_MOVE`).
    public static let move: InotifyEventMask = [.movedFrom, .movedTo]
    /// Every event that can be watched for (`IN_ALL_EVENTS`, a macro Swift cannot import).
    public static let allEvents: InotifyEventMask = [
        .access, .modify, .attrib, .closeWrite, .closeNoWrite, .open,
        .movedFrom, .movedTo, .create, .delete, .deleteSelf, .moveSelf,
    ]

    /// The events a folder indexer needs to keep an index equal to the disk.
    ///
    /// `.modify` is deliberately absent: a program writing a file produces one `IN_MODIFY`
    /// per `write(2)`, thousands for a large save, while `IN_CLOSE_WRITE` arrives once
    /// when the writer is done, so close-after-write coalesces the burst in the kernel and
    /// the indexer extracts the file once, after its content is complete. (A writer that
    /// keeps a file open forever is not indexed until it closes it; `mmap` writes are not
    /// reported by inotify at all. A rescan catches both.) `.attrib` catches `touch`,
    /// `chmod` and hard-link count changes; a rename onto an existing file shows up as
    /// `.movedTo`.
    public static let standard: InotifyEventMask = [
        .create, .closeWrite, .attrib, .delete, .deleteSelf,
        .movedFrom, .movedTo, .moveSelf,
    ]
}

extension InotifyEventMask: CustomStringConvertible {
    private static let names: [(InotifyEventMask, String)] = [
        (.access, "access"), (.modify, "modify"), (.attrib, "attrib"),
        (.closeWrite, "closeWrite"), (.closeNoWrite, "closeNoWrite"), (.open, "open"),
        (.movedFrom, "movedFrom"), (.movedTo, "movedTo"), (.create, "create"),
        (.delete, "delete"), (.deleteSelf, "deleteSelf"), (.moveSelf, "moveSelf"),
        (.unmount, "unmount"), (.queueOverflow, "queueOverflow"), (.ignored, "ignored"),
        (.isDirectory, "isDirectory"), (.onlyDir, "onlyDir"), (.dontFollow, "dontFollow"),
        (.exclUnlink, "exclUnlink"), (.maskCreate, "maskCreate"), (.maskAdd, "maskAdd"),
        (.oneShot, "oneShot"),
    ]

    /// The flags by name, such as `[create, isDirectory]`.
    public var description: String {
        var remaining = self
        var parts: [String] = []
        for (flag, name) in Self.names where remaining.contains(flag) {
            parts.append(name)
            remaining.remove(flag)
        }
        if remaining.rawValue != 0 {
            parts.append("0x" + String(remaining.rawValue, radix: 16))
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}
