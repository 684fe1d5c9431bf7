import Foundation
import Searchlight
import SystemCalls

/// The index's own files, which are never indexed even when they live under a root:
/// ``FolderScanner`` excludes them itself.
enum IndexFiles {
    /// SQLite's companions of a database file, and the OCR queue's file (OCRStore) with its own.
    static let suffixes = ["", "-wal", "-shm", "-journal", "-ocr", "-ocr-wal", "-ocr-shm"]

    /// The relative paths of the index file and its companions below `root`, if they are there.
    static func relativePaths(of indexPath: String, below root: RootFolder) -> Set<ItemIdentifier> {
        let url = URL(fileURLWithPath: indexPath)
        let folder = url.deletingLastPathComponent().path
        guard let resolved = try? SystemCall.resolvedPath(folder) else { return [] }
        let canonical = resolved + "/" + url.lastPathComponent
        guard let relative = root.relativePath(of: canonical) else { return [] }
        return Set(suffixes.map { ItemIdentifier(bytes: relative.bytes + Array($0.utf8)) })
    }
}
