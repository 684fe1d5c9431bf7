import Foundation
import Logging
import Searchlight
import Synchronization

// Watching folders: a watch per folder, and the folders the watch limit left unwatched.
extension FolderWatcher {
    /// Tries again to watch the folders that could not be, and reconciles them.
    func rescanUnwatched() throws -> ScanSummary {
        let degraded = state.withLock { state in
            defer { state.degraded = [] }
            return state.degraded
        }
        var summary = ScanSummary()
        for folder in degraded.sorted() {
            watchDirectory(folder)
            summary.add(try scanner.reconcile(subtree: folder, onDirectory: watchDirectory))
        }
        if !degraded.isEmpty {
            logger.info("rescanned \(degraded.count) unwatched folders: \(summary.counts)")
        }
        return summary
    }

    /// Watches one folder; called by the walk before the folder is listed.
    @Sendable
    func watchDirectory(_ path: ItemIdentifier) {
        let skip = state.withLock { state in
            state.degraded.contains { PendingChanges.isPath(path, inSubtreeAt: $0) }
                || (options.maximumWatches.map { state.table.count >= $0 } ?? false)
                    && state.table.watch(forPath: path.bytes) == nil
        }
        do {
            if skip { throw WatchLimitReached() }
            let watch = try inotify.addWatch(pathBytes: root.absolutePath(of: path), for: subscriber)
            state.withLock { _ = $0.table.insert(watch, path: path.bytes) }
        } catch let error as FileSystemError where error.isNoSuchFile {
            // Gone already: its parent's events say so.
        } catch let error as FileSystemError where !error.isWatchLimitReached {
            logger.warning("cannot watch \(path.lossyString.debugDescription): \(error)")
        } catch {
            let first = state.withLock { state in
                if !state.degraded.contains(where: { PendingChanges.isPath(path, inSubtreeAt: $0) }) {
                    state.degraded.insert(path)
                }
                defer { state.warnedAboutLimit = true }
                return !state.warnedAboutLimit
            }
            if first {
                logger.warning("""
                    the inotify watch limit (\(watchLimit.map(String.init) ?? "unknown")) is reached: \
                    \(path.lossyString.debugDescription) and other folders are not watched and are rescanned \
                    every \(options.rescanInterval). Raise the limit with \
                    `sudo sysctl fs.inotify.max_user_watches=524288` (and in /etc/sysctl.d/ to keep it)
                    """)
            }
        }
    }

    fileprivate struct WatchLimitReached: Error {}
}
