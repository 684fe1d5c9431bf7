/// An inotify watch descriptor: the number `inotify_add_watch(2)` returns for a watched
/// directory and that every event about that directory carries.
///
/// Watch descriptors are only meaningful together with the ``Inotify`` instance that
/// created them. The kernel returns the same descriptor when the same inode is watched
/// twice, and may reuse a descriptor after its ``InotifyEventMask/ignored`` event.
public struct WatchDescriptor: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw descriptor.
    public var rawValue: Int32

    /// A descriptor as `inotify_add_watch(2)` returned it.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The descriptor of events that are about no watch, such as
    /// ``InotifyEventMask/queueOverflow``.
    public static let none = WatchDescriptor(rawValue: -1)

    public static func < (lhs: WatchDescriptor, rhs: WatchDescriptor) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "wd \(rawValue)" }
}
