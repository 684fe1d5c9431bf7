import Foundation
import SearchlightFiles
import SystemCalls
import SystemPackage

extension RootFolder {
    /// Opens a folder the user named for `scan` or `watch`.
    /// - Throws: a ``CommandFailure`` (exit 1) that names the user's mistake, not the call
    ///   that failed: "no folder ~/Documnets — did you mean ~/Documents?", "~/Documents/Résumé.docx
    ///   is a file: scan takes folders — did you mean ~/Documents?".
    static func opening(_ given: String, command: String) throws -> RootFolder {
        do {
            return try RootFolder(path: given)
        } catch {
            // Opening a root fails only in a system call: its errno says what to tell the user.
            guard let errno = error.cause else { throw error }
            throw CommandFailure.fail(explanation(of: errno, given: given, command: command))
        }
    }

    /// Why the folder `given` cannot be opened, in plain words.
    static func explanation(of errno: Errno, given: String, command: String) -> String {
        let shown = PathDisplay.tilde(given)
        let parent = (given as NSString).deletingLastPathComponent
        switch errno {
        case .noSuchFileOrDirectory:
            var message = "no folder \(shown)"
            if let close = closestFolder(to: (given as NSString).lastPathComponent, in: parent.isEmpty ? "." : parent) {
                message += " — did you mean \(PathDisplay.tilde((parent.isEmpty ? "" : parent + "/") + close))?"
            }
            return message
        case .notDirectory:
            if SystemCall.exists(Array(given.utf8)) && !SystemCall.isFolder(given) {
                let folder = parent.isEmpty ? "." : parent
                return "\(shown) is a file: \(command) takes folders — did you mean \(PathDisplay.tilde(folder))?"
            }
            return "no folder \(shown): a part of the path on the way to it is a file"
        case .permissionDenied:
            return "cannot open the folder \(shown): permission denied"
        case .tooManySymbolicLinkLevels:
            return "cannot open the folder \(shown): its symbolic links go round in a loop"
        default:
            return "cannot open the folder \(shown): \(errno)"
        }
    }

    /// The folder in `parent` whose name is within a typo or two of `name`, when one is.
    static func closestFolder(to name: String, in parent: String) -> String? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return nil }
        let folders = entries.filter { SystemCall.isFolder(parent + "/" + $0) }
        return ClosestName.suggestion(for: name, among: folders)
    }
}

extension SystemCall {
    /// Whether `path` is a folder, links followed (`stat(2)`); `false` when it cannot be looked at.
    static func isFolder(_ path: String) -> Bool {
        guard let status = try? status(followingLinksOf: path) else { return false }
        return status.st_mode & S_IFMT == S_IFDIR
    }
}

/// Paths as a person reads them: the home folder as `~`.
enum PathDisplay {
    static func tilde(_ path: String) -> String {
        guard let home = ProcessInfo.processInfo.environment["HOME"], home.count > 1 else { return path }
        if path == home { return "~" }
        return path.hasPrefix(home + "/") ? "~" + path.dropFirst(home.count) : path
    }
}
