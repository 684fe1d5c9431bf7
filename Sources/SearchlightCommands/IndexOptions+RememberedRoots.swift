import Foundation
import Searchlight
import SearchlightFiles
import SystemCalls

extension IndexOptions {
    /// The roots `scan` and `watch` take without a folder: the configured roots, and the
    /// folders already in the index that are not among them (scanned once by hand, with
    /// `scan FOLDER`), each with its domain; one line on standard error says which were
    /// added. A remembered folder that no longer exists is left out with a line (its items
    /// stay: it may be a drive that is not plugged in). With folders given, or when there is
    /// nothing to index at all, ``Configuration/roots(arguments:domain:)`` decides — unless
    /// removable drives are indexed (``RemovableRoots``, whose domains are left out here).
    func rootsToIndex(_ configuration: Configuration, arguments: [String], domain: String?,
                      command: String) throws -> [Configuration.Root] {
        guard arguments.isEmpty, domain == nil else { return try configuration.roots(arguments: arguments, domain: domain) }
        let configured = configuration.roots.map { (try? SystemCall.resolvedPath($0.path)) ?? $0.path }
        let configuredDomains = Set(zip(configuration.roots, configured).compactMap { $0.domain ?? $1 })
        // A folder configured, or a domain configured under another folder (a root moved in
        // the file), is the configuration's: two folders never feed one domain.
        let remembered = rememberedRoots(configuration).filter {
            !configured.contains($0.root) && !configuredDomains.contains($0.domain) && !RemovableDrives.isRemovable(domain: $0.domain)
        }
        let removable = configuration.removable.value
        guard !configuration.roots.isEmpty || !remembered.isEmpty || removable else {
            return try configuration.roots(arguments: arguments, domain: domain)
        }
        var present: [Configuration.Root] = []
        for folder in remembered {
            if SystemCall.isFolder(folder.root) {
                present.append(Configuration.Root(path: folder.root, domain: folder.domain, origin: .option("the index")))
            } else {
                StandardError.write("searchlight: skipping \(folder.root), in the index but not found now; its items stay "
                    + "(forget them with `searchlight remove \(folder.root)`)\n")
            }
        }
        if !present.isEmpty {
            let list = present.map(\.path).joined(separator: ", ")
            let folders = present.count == 1 ? "folder" : "\(present.count) folders"
            StandardError.write(configuration.roots.isEmpty
                ? "searchlight: no folder given: \(command) the \(folders) already in the index: \(list)\n"
                : "searchlight: \(command) also the \(folders) scanned before by hand: \(list) "
                    + "(forget one with `searchlight remove FOLDER`)\n")
        }
        let selected = configuration.roots + present
        if selected.isEmpty && !removable {
            // Every folder the index holds is away (a drive unplugged): nothing to do is an error,
            // not a watch that runs with no watcher.
            throw CommandFailure.fail("no folder to index: the folders in the index are not there now; "
                + "give one, or list folders as [[roots]] in the configuration", code: 1)
        }
        return selected
    }

    /// Each domain of the index that is a folder of this machine (``FileIndexReader/localRoots()``),
    /// by root: none when the index does not exist yet or cannot be read (then said in one line).
    func rememberedRoots(_ configuration: Configuration) -> [(domain: String, root: String)] {
        do {
            let location = try self.location(configuration: configuration)
            if !IndexLauncher.isRemote(location) && !FileManager.default.fileExists(atPath: location) { return [] }
            let index = try openForReading(configuration: configuration)
            defer { index.close() }
            return try index.localRoots().map { (domain: $0.key, root: $0.value) }.sorted { $0.root < $1.root }
        } catch {
            StandardError.write("searchlight: warning: cannot read which folders the index holds: \(error)\n")
            return []
        }
    }
}
