/// One event read from an inotify descriptor.
///
/// The name is the entry's raw bytes, without the kernel's NUL padding: a Linux file name
/// is any bytes but `/` and NUL, not necessarily UTF-8, and may contain newlines.
///
/// ```swift
/// for try await batch in inotify.events() {
///     for event in batch where event.mask.contains(.movedTo) {
///         print(event.watch, String(decoding: event.name, as: UTF8.self), event.cookie)
///     }
/// }
/// ```
public struct InotifyEvent: Hashable, Sendable {
    /// The watch the event is about, or ``WatchDescriptor/none`` for a queue overflow.
    public var watch: WatchDescriptor
    /// What happened, plus ``InotifyEventMask/isDirectory`` when the subject is a directory.
    public var mask: InotifyEventMask
    /// Equal in the ``InotifyEventMask/movedFrom`` and ``InotifyEventMask/movedTo`` halves
    /// of one rename; `0` for other events.
    public var cookie: UInt32
    /// The name of the entry inside the watched directory, as raw bytes; empty when the
    /// event is about the watched directory itself (`deleteSelf`, `moveSelf`, `ignored`).
    public var name: [UInt8]

    /// An event as the kernel reports it (tests build their own).
    public init(watch: WatchDescriptor, mask: InotifyEventMask, cookie: UInt32 = 0, name: [UInt8] = []) {
        self.watch = watch
        self.mask = mask
        self.cookie = cookie
        self.name = name
    }

    /// Whether the subject of the event is a directory.
    public var isDirectory: Bool { mask.contains(.isDirectory) }

    /// Whether events were lost because the kernel's queue overflowed.
    public var isQueueOverflow: Bool { mask.contains(.queueOverflow) }
}

extension InotifyEvent: CustomStringConvertible {
    /// The event for logs, such as `wd 3 [create, isDirectory] "photos"`; name bytes that
    /// are not UTF-8 are shown as U+FFFD.
    public var description: String {
        var line = "\(watch) \(mask)"
        if cookie != 0 { line += " cookie \(cookie)" }
        if !name.isEmpty { line += " \"\(String(decoding: name, as: UTF8.self))\"" }
        return line
    }
}
