import Foundation
import SystemCalls

extension ScanCommand {
    /// `--timings`' file as an absolute path (the workers append to it, whatever their working
    /// folder), created now: a file that cannot be written is a clear error here, not workers
    /// that fail to start. The corresponding C function is `open(2)`.
    static func timingsFile(_ path: String) throws -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        do {
            SystemCall.close(try SystemCall.open(Array(absolute.utf8), .writeOnly, options: [.append, .create, .closeOnExec]))
        } catch {
            throw CommandFailure.fail("cannot open \(path) for --timings: \(error)")
        }
        return absolute
    }
}
