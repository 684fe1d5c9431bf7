import Foundation
import Searchlight
import SearchlightFiles
import SearchlightJSON
import SystemCalls

/// Opens an item's file with the desktop's default application, as `searchlight open` does
/// and as the desktop's search providers do when a result is chosen: `xdg-open PATH`, the
/// `xdg-open` found on `PATH`.
public enum FileOpener {
    /// The absolute path of `item`'s file on this machine.
    /// - Throws: ``CommandError`` when its domain has no folder, its file belongs to another machine
    ///   of a shared index, or it is no longer on disk; the index's errors when it cannot be read.
    public static func path(of item: SearchableItem, in index: any FileIndexStore, roots: ItemJSON) throws -> [UInt8] {
        guard let path = roots.absolutePath(item) else {
            throw CommandError.failure("the domain \(item.domainIdentifier.debugDescription) has no folder: its items are not files")
        }
        let pathString = String(decoding: path, as: UTF8.self)
        // A shared index holds other machines' folders: the same path here is another file.
        if let host = try index.domainHosts()[item.domainIdentifier], host != FolderScanner.hostName {
            throw CommandError.failure("\(pathString) is a file of \(host), not of this machine: open it there")
        }
        guard exists(path) else { throw CommandError.failure("\(pathString) is no longer on disk") }
        return path
    }

    /// Runs `xdg-open PATH` and waits for it.
    /// - Throws: ``CommandError`` when it cannot run or fails.
    public static func open(_ path: [UInt8]) throws(CommandError) {
        try run(["xdg-open"].map { Array($0.utf8) } + [path], shown: "xdg-open \(String(decoding: path, as: UTF8.self))")
    }

    /// Runs `xdg-open URL` (a web page) and waits for it.
    public static func open(url: String) throws(CommandError) {
        try run([Array("xdg-open".utf8), Array(url.utf8)], shown: "xdg-open \(url)")
    }

    private static func run(_ arguments: [[UInt8]], shown: String) throws(CommandError) {
        guard let status = SystemCall.spawnAndWait(arguments) else {
            throw CommandError.failure("cannot run xdg-open (install xdg-utils)")
        }
        if status != 0 { throw CommandError.failure("\(shown) exited with status \(status)") }
    }

    static func exists(_ path: [UInt8]) -> Bool { SystemCall.exists(path) }
}
