import Searchlight
import SystemCalls

/// Opens an item's file with the desktop's default application, as `searchlight open` does
/// and as the desktop's search providers do when a result is chosen: `xdg-open PATH`, the
/// `xdg-open` found on `PATH`.
///
/// ```swift
/// let path = try FileOpener.path(of: item, at: roots.absolutePath(item), in: index)
/// try FileOpener.open(path)
/// ```
public enum FileOpener {
    /// The absolute path of `item`'s file on this machine: `absolutePath`, its path from its
    /// domain's root (`nil` when the domain has no folder), checked.
    /// - Throws: ``FileSystemError`` (``FileSystemError/Code/cannotOpen``) when its domain has no
    ///   folder, its file belongs to another machine of a shared index, or it is no longer on
    ///   disk; the index's errors when it cannot be read.
    public static func path(of item: SearchableItem, at absolutePath: [UInt8]?, in index: any FileIndexReader) throws -> [UInt8] {
        guard let path = absolutePath else {
            throw FileSystemError(.cannotOpen, "the domain \(item.domainIdentifier.debugDescription) has no folder: its items are not files")
        }
        let pathString = String(decoding: path, as: UTF8.self)
        // A shared index holds other machines' folders: the same path here is another file.
        if let host = try index.domainHosts()[item.domainIdentifier], host != FolderScanner.hostName {
            throw FileSystemError(.cannotOpen, "\(pathString) is a file of \(host), not of this machine: open it there",
                                  path: ItemIdentifier(bytes: path))
        }
        guard SystemCall.exists(path) else {
            throw FileSystemError(.cannotOpen, "\(pathString) is no longer on disk", path: ItemIdentifier(bytes: path))
        }
        return path
    }

    /// Runs `xdg-open PATH` and waits for it.
    /// - Throws: ``FileSystemError`` (``FileSystemError/Code/cannotOpen``) when it cannot run or fails.
    public static func open(_ path: [UInt8]) throws(FileSystemError) {
        try run([Array("xdg-open".utf8), path], shown: "xdg-open \(String(decoding: path, as: UTF8.self))")
    }

    /// Runs `xdg-open URL` (a web page) and waits for it.
    /// - Throws: ``FileSystemError`` (``FileSystemError/Code/cannotOpen``) when it cannot run or fails.
    public static func open(url: String) throws(FileSystemError) {
        try run([Array("xdg-open".utf8), Array(url.utf8)], shown: "xdg-open \(url)")
    }

    private static func run(_ arguments: [[UInt8]], shown: String) throws(FileSystemError) {
        guard let status = SystemCall.spawnAndWait(arguments) else {
            throw FileSystemError(.cannotOpen, "cannot run xdg-open (install xdg-utils)")
        }
        if status != 0 { throw FileSystemError(.cannotOpen, "\(shown) exited with status \(status)") }
    }
}
