import Searchlight

/// The directories an inotify instance watches: watch descriptor to path and back.
///
/// Paths are relative to the root and kept as raw bytes (a Linux name need not be UTF-8);
/// the root itself is the empty path, its child `a` is `a`, a grandchild `a/b`. Both
/// lookups are dictionary lookups, so translating an event's watch descriptor into a path
/// costs the same for ten directories or a million.
///
/// A directory that is renamed or moved keeps its watch, and so do all the directories
/// inside it: ``moveSubtree(from:to:)`` re-keys them all.
///
/// ```swift
/// var table = WatchTable()
/// table.insert(try inotify.addWatch(FilePath(root)), path: [])
/// table.insert(try inotify.addWatch(pathBytes: root.utf8 + Array("/a".utf8)), path: Array("a".utf8))
/// // IN_MOVED_FROM "a" + IN_MOVED_TO "b" with the same cookie, both in the root:
/// table.moveSubtree(from: Array("a".utf8), to: Array("b".utf8))
/// // IN_IGNORED for a watch:
/// table.remove(event.watch)
/// ```
public struct WatchTable: Sendable {
    /// A watched directory.
    public struct Entry: Hashable, Sendable {
        /// Its watch descriptor.
        public var watch: WatchDescriptor
        /// Its path relative to the root, as raw bytes; empty for the root.
        public var path: [UInt8]

        /// A directory watched with `watch`, at `path` below the root.
        public init(watch: WatchDescriptor, path: [UInt8]) {
            self.watch = watch
            self.path = path
        }
    }

    /// Each watch's folder, relative to the root.
    private var pathsByWatch: [WatchDescriptor: [UInt8]] = [:]
    /// Each watched folder's watch: ``pathsByWatch`` read backwards, kept in step with it.
    private var watchesByPath: [[UInt8]: WatchDescriptor] = [:]

    /// Creates an empty table.
    public init() {}

    /// The number of watches in use: one per watched directory.
    public var count: Int { pathsByWatch.count }

    /// Whether no directory is watched.
    public var isEmpty: Bool { pathsByWatch.isEmpty }

    /// Every watched directory, sorted by path (so a directory comes before its contents).
    public var entries: [Entry] {
        pathsByWatch
            .map { Entry(watch: $0.key, path: $0.value) }
            .sorted { $0.path.lexicographicallyPrecedes($1.path) }
    }

    /// The path of the directory a watch descriptor watches, or `nil` when the table has
    /// no such watch (an event read after its watch was forgotten).
    public func path(for watch: WatchDescriptor) -> [UInt8]? {
        pathsByWatch[watch]
    }

    /// The watch descriptor of the directory at a path, or `nil` when it is not watched.
    public func watch(forPath path: [UInt8]) -> WatchDescriptor? {
        watchesByPath[path]
    }

    /// Records that `watch` watches the directory at `path`.
    ///
    /// The kernel gives the same descriptor when one directory is watched twice. When
    /// `watch` is already recorded under another path, the directory was moved in between,
    /// so its whole subtree is moved to `path` (see ``moveSubtree(from:to:)``). When
    /// another watch is recorded at `path`, that directory was replaced (deleted, or
    /// renamed over) and its watch is forgotten.
    ///
    /// - Returns: The watch that was recorded at `path` before and is now forgotten, if
    ///   any: its `IN_IGNORED` may still arrive, or it may need ``Inotify/removeWatch(_:)``.
    @discardableResult
    public mutating func insert(_ watch: WatchDescriptor, path: [UInt8]) -> WatchDescriptor? {
        if let oldPath = pathsByWatch[watch] {
            if oldPath == path { return nil }
            return moveSubtree(from: oldPath, to: path).first { $0.path == path }?.watch
        }
        var displaced: WatchDescriptor?
        if let previous = watchesByPath[path], previous != watch {
            pathsByWatch[previous] = nil
            displaced = previous
        }
        pathsByWatch[watch] = path
        watchesByPath[path] = watch
        return displaced
    }

    /// Forgets a watch, as when its ``InotifyEventMask/ignored`` event arrives.
    ///
    /// Only this entry is removed: the directories inside it each get their own
    /// `IN_IGNORED` when they are deleted.
    ///
    /// - Returns: The path the watch had, or `nil` when it was not in the table.
    @discardableResult
    public mutating func remove(_ watch: WatchDescriptor) -> [UInt8]? {
        guard let path = pathsByWatch.removeValue(forKey: watch) else { return nil }
        // The path may already belong to a newer watch (a directory replaced by another
        // one of the same name): only forget it when it is still ours.
        if watchesByPath[path] == watch {
            watchesByPath[path] = nil
        }
        return path
    }

    /// The watched directories at `path` and inside it, sorted by path.
    ///
    /// Visits every entry: O(number of watches).
    public func subtree(at path: [UInt8]) -> [Entry] {
        watchesByPath
            .filter { Self.isPath($0.key, inSubtreeAt: path) }
            .map { Entry(watch: $0.value, path: $0.key) }
            .sorted { $0.path.lexicographicallyPrecedes($1.path) }
    }

    /// Forgets the watched directories at `path` and inside it, as when a directory is
    /// moved out of the root: their watches still exist in the kernel and report events
    /// until ``Inotify/removeWatch(_:)`` is called for each returned entry.
    ///
    /// Visits every entry: O(number of watches).
    ///
    /// - Returns: The forgotten entries, sorted by path.
    @discardableResult
    public mutating func removeSubtree(at path: [UInt8]) -> [Entry] {
        let removed = subtree(at: path)
        for entry in removed {
            pathsByWatch[entry.watch] = nil
            watchesByPath[entry.path] = nil
        }
        return removed
    }

    /// Re-keys the watched directory at `old` and every watched directory inside it to
    /// `new`, as when a directory is renamed or moved within the root: a watch at `old`
    /// moves to `new`, one at `old/x/y` to `new/x/y`. Watch descriptors do not change.
    ///
    /// Visits every entry once to find the subtree (well under a millisecond per move with
    /// 100 000 directories in a release build), then updates only the moved ones. Moving the root (the empty path)
    /// does nothing.
    ///
    /// - Returns: The watches recorded at the new paths before the move and now forgotten
    ///   (a directory renamed over an empty one replaces it), sorted by path.
    @discardableResult
    public mutating func moveSubtree(from old: [UInt8], to new: [UInt8]) -> [Entry] {
        guard !old.isEmpty, old != new else { return [] }
        var moved: [Entry] = []
        for (path, watch) in watchesByPath where Self.isPath(path, inSubtreeAt: old) {
            moved.append(Entry(watch: watch, path: path))
        }
        // Remove every old key before adding new ones: `new` may lie inside `old` or
        // overlap other moved paths.
        for entry in moved {
            watchesByPath[entry.path] = nil
        }
        var displaced: [Entry] = []
        for entry in moved {
            let newPath = new + entry.path[old.count...]
            if let previous = watchesByPath[newPath], previous != entry.watch {
                pathsByWatch[previous] = nil
                displaced.append(Entry(watch: previous, path: newPath))
            }
            watchesByPath[newPath] = entry.watch
            pathsByWatch[entry.watch] = newPath
        }
        return displaced.sorted { $0.path.lexicographicallyPrecedes($1.path) }
    }

    /// Whether `path` is `ancestor` or lies inside it. Every path lies inside the root
    /// (the empty path).
    public static func isPath(_ path: [UInt8], inSubtreeAt ancestor: [UInt8]) -> Bool {
        ItemIdentifier.isPath(path, inSubtreeAt: ancestor)
    }

    /// The path of the entry `name` inside the directory at `directory`, both relative to
    /// the root: `name` itself inside the root, else `directory/name`.
    public static func path(of name: [UInt8], inDirectory directory: [UInt8]) -> [UInt8] {
        if directory.isEmpty { return name }
        return directory + [UInt8(ascii: "/")] + name
    }
}
