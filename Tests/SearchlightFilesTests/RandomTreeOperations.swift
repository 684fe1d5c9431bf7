import ExtractionProtocol
import Foundation
import Testing
import Glibc
import SearchlightTestSupport

/// Random file operations on a real tree, issued as fast as the system calls go: creates,
/// appends, in-place and atomic-replace saves, renames and moves of files and folders at any
/// depth (into folders just created or moved too), `mkdir -p`, `rm -rf`, whole trees moved
/// in from a folder outside the root and out to it, and type swaps (a file becomes a folder
/// and back). The tree is known from a model kept in step with each operation, so that an
/// operation costs its system calls and no listing of the disk.
struct RandomTreeOperations {
    let root: String
    let outside: String
    var random: SeededGenerator
    /// Visible folders below the root, relative ("" is the root itself).
    private(set) var folders: [String] = [""]
    /// Visible files below the root, relative.
    private(set) var files: [String] = []
    /// Folders created or moved recently: moves go into them often.
    private var recentFolders: [String] = []
    private var serial = 0
    /// What was done, for the failure message.
    private(set) var log: [String] = []
    /// Writes made through a name of a file with more than one: the name, and the file's inode.
    private var writesThroughLinks: [(path: String, inode: UInt64)] = []

    init(root: String, outside: String, seed: UInt64) {
        self.root = root
        self.outside = outside
        random = SeededGenerator(seed: seed)
        (folders, files) = Self.scan(root)
    }

    /// Re-reads the model from the disk (after a round in which another process changed nothing,
    /// this is what the model already holds; it protects the model from operations that failed).
    mutating func resynchronize() { (folders, files) = Self.scan(root) }

    static let words = ["alpha", "Beta report", "gamma_2024", "délta", "ε", "notes", "x", "Quarterly", "zeta"]

    /// Contents of known types: plain text, JSON, HTML, a shell script, nothing.
    static let contents: [String] = [
        "The quick brown fox jumps over the lazy dog.\n",
        "{\"name\": \"searchlight\", \"items\": [1, 2, 3]}\n",
        "<!DOCTYPE html>\n<html><head><title>Page</title></head><body>Hello</body></html>\n",
        "#!/bin/sh\necho hello\n",
        "",
    ]

    private mutating func newName(file: Bool) -> String {
        serial += 1
        let word = Self.words.randomElement(using: &random)!
        return "\(word) \(serial)" + (file && Bool.random(using: &random) ? ".txt" : "")
    }

    private func full(_ path: String) -> String { path.isEmpty ? root : root + "/" + path }
    private static func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : folder + "/" + name }

    /// A folder, deeper ones more likely, recent ones often.
    private mutating func someFolder(preferRecent: Bool = false) -> String {
        if preferRecent, !recentFolders.isEmpty, Int.random(in: 0..<3, using: &random) > 0 {
            recentFolders = recentFolders.filter { folders.contains($0) }
            if let recent = recentFolders.randomElement(using: &random) { return recent }
        }
        // Sometimes two picks, keeping the deeper: the tree grows down as well as wide.
        let a = folders.randomElement(using: &random)!
        guard Int.random(in: 0..<3, using: &random) == 0 else { return a }
        let b = folders.randomElement(using: &random)!
        return a.split(separator: "/").count >= b.split(separator: "/").count ? a : b
    }

    private mutating func remember(recent folder: String) {
        recentFolders.append(folder)
        if recentFolders.count > 12 { recentFolders.removeFirst() }
    }

    /// Runs `count` random operations; between them, a random pause of up to `pace`
    /// microseconds (0: none), so that a burst spans several windows of the watcher.
    mutating func burst(_ count: Int, building: Bool, pace: UInt32, at hook: (Int) -> Void = { _ in }) {
        for index in 0..<count {
            hook(index)
            step(building: building)
            if pace > 0 { usleep(UInt32.random(in: 0...pace, using: &random)) }
        }
    }

    /// Creates `count` empty files in a new folder: more events than the kernel queues
    /// (`fs.inotify.max_queued_events`, 16 384 by default) when the watcher does not read them.
    mutating func flood(_ count: Int) {
        let folder = Self.join(someFolder(), newName(file: false))
        guard mkdir(full(folder), 0o755) == 0 else { return }
        folders.append(folder)
        for index in 0..<count {
            let file = folder + "/flood \(index)"
            let fd = open(full(file), O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            guard fd >= 0 else { continue }
            _ = Glibc.write(fd, "x", 1)
            close(fd)
            files.append(file)
        }
        log.append("flood \(folder) (\(count) files)")
    }

    /// One random operation; `building` favours creating folders and files.
    mutating func step(building: Bool) {
        let choice = Int.random(in: 0..<(building ? 10 : 23), using: &random)
        switch choice {
        case 0, 1, 2: createFile()
        case 3, 4: makeFolders()
        case 5, 6: moveFile()
        case 7: appendToFile()
        case 8: atomicReplace()
        case 9: moveFolder()
        case 10, 11: moveFolder()
        case 12: renameFolderDeep()
        case 13: reorganize()
        case 14: removeTree()
        case 15: deleteFile()
        case 16: moveTreeIn()
        case 17: moveTreeOut()
        case 18: swapType()
        case 19: overwriteFile()
        case 20: createFile()
        case 22: linkFile()
        default: atomicReplace()
        }
    }

    /// A second name for a file (a hard link), in a folder made recently more often than not:
    /// writes through either name, and renames or removals of either, change the other item.
    private mutating func linkFile() {
        guard let path = files.randomElement(using: &random) else { return createFile() }
        let target = Self.join(someFolder(preferRecent: true), newName(file: true))
        guard link(full(path), full(target)) == 0 else { return }
        files.append(target)
        log.append("ln \(path) \(target)")
    }

    private mutating func write(_ path: String, _ text: String, flags: Int32) -> Bool {
        let fd = open(full(path), flags | O_WRONLY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_nlink > 1 { writesThroughLinks.append((path, UInt64(status.st_ino))) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    /// The inodes of the files written through a name that no longer names them, since the
    /// last call. No directory watch can see such a write when the name was gone before the
    /// watcher looked (inotify reports it under that name only): the file's other names stay
    /// stale until a check of the whole root, which then repairs them. Docs/Guide/Troubleshooting.md ("When
    /// things go wrong") says so; a test tolerates those repairs, and no others.
    mutating func takeWritesThroughVanishedNames() -> Set<UInt64> {
        defer { writesThroughLinks.removeAll() }
        return Set(writesThroughLinks.compactMap { path, inode in
            DiskWalk.inode(full(path)) == inode ? nil : inode
        })
    }

    private mutating func createFile() {
        let path = Self.join(someFolder(preferRecent: true), newName(file: true))
        if write(path, Self.contents.randomElement(using: &random)!, flags: O_CREAT | O_TRUNC) {
            files.append(path)
            log.append("create \(path)")
        }
    }

    private mutating func appendToFile() {
        guard let path = files.randomElement(using: &random) else { return createFile() }
        _ = write(path, "more text\n", flags: O_APPEND)
        log.append("append \(path)")
    }

    private mutating func overwriteFile() {
        guard let path = files.randomElement(using: &random) else { return createFile() }
        _ = write(path, Self.contents.randomElement(using: &random)!, flags: O_TRUNC)
        log.append("overwrite \(path)")
    }

    /// An editor's save: a hidden temporary file renamed over the file.
    private mutating func atomicReplace() {
        guard let path = files.randomElement(using: &random) else { return createFile() }
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        serial += 1
        let temporary = Self.join(folder, ".save-\(serial).tmp")
        guard write(temporary, Self.contents.randomElement(using: &random)! + "saved \(serial)\n", flags: O_CREAT | O_TRUNC)
        else { return }
        _ = rename(full(temporary), full(path))
        log.append("atomic save \(path)")
    }

    private mutating func makeFolders() {
        var path = someFolder(preferRecent: Bool.random(using: &random))
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            path = Self.join(path, newName(file: false))
            guard mkdir(full(path), 0o755) == 0 else { return }
            folders.append(path)
            remember(recent: path)
        }
        if Bool.random(using: &random) {
            let file = Self.join(path, newName(file: true))
            if write(file, Self.contents[0], flags: O_CREAT | O_TRUNC) { files.append(file) }
        }
        log.append("mkdir -p \(path)")
    }

    private mutating func moveFile() {
        guard let path = files.randomElement(using: &random) else { return createFile() }
        let target = Self.join(someFolder(preferRecent: true), newName(file: true))
        guard rename(full(path), full(target)) == 0 else { return }
        files.removeAll { $0 == path }
        files.append(target)
        log.append("mv \(path) \(target)")
    }

    private mutating func deleteFile() {
        guard let path = files.randomElement(using: &random) else { return }
        unlink(full(path))
        files.removeAll { $0 == path }
        log.append("rm \(path)")
    }

    /// Renames or moves a folder (never the root, never into itself).
    @discardableResult
    private mutating func moveFolder(_ source: String? = nil, into destination: String? = nil, name: String? = nil) -> String? {
        let source = source ?? someFolder()
        guard !source.isEmpty else { return nil }
        let destination = destination ?? someFolder(preferRecent: true)
        guard destination != source, !destination.hasPrefix(source + "/") else { return nil }
        let target = Self.join(destination, name ?? newName(file: false))
        guard rename(full(source), full(target)) == 0 else { return nil }
        rekey(from: source, to: target)
        remember(recent: target)
        log.append("mv -T \(source) \(target)")
        return target
    }

    /// Renames a folder in place, preferring deep ones.
    private mutating func renameFolderDeep() {
        let source = someFolder()
        guard !source.isEmpty else { return makeFolders() }
        let parent = source.split(separator: "/").dropLast().joined(separator: "/")
        moveFolder(source, into: parent)
    }

    /// A file manager's reorganization: rename a folder, make a new one, move several folders
    /// into it, then move it inside the renamed one.
    private mutating func reorganize() {
        let top = someFolder()
        guard !top.isEmpty else { return makeFolders() }
        let parent = top.split(separator: "/").dropLast().joined(separator: "/")
        guard let renamed = moveFolder(top, into: parent) else { return }
        let fresh = Self.join(parent, newName(file: false))
        guard mkdir(full(fresh), 0o755) == 0 else { return }
        folders.append(fresh)
        log.append("mkdir \(fresh)")
        let candidates = folders.filter { $0.hasPrefix(renamed + "/") }
        for _ in 0..<min(candidates.count, Int.random(in: 1...6, using: &random)) {
            let inside = folders.filter { $0.hasPrefix(renamed + "/") }
            guard let moving = inside.randomElement(using: &random) else { break }
            moveFolder(moving, into: fresh)
        }
        moveFolder(fresh, into: renamed)
    }

    private mutating func removeTree() {
        let victim = someFolder()
        guard !victim.isEmpty else { return deleteFile() }
        try? FileManager.default.removeItem(atPath: full(victim))
        folders.removeAll { $0 == victim || $0.hasPrefix(victim + "/") }
        files.removeAll { $0.hasPrefix(victim + "/") }
        log.append("rm -rf \(victim)")
    }

    /// Builds a small tree outside the root and moves it in whole.
    private mutating func moveTreeIn() {
        serial += 1
        let staging = outside + "/incoming-\(serial)"
        guard mkdir(staging, 0o755) == 0 else { return }
        var made: [String] = []
        var madeFiles: [String] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let folder = Self.join(made.randomElement(using: &random) ?? "", newName(file: false))
            guard mkdir(staging + "/" + folder, 0o755) == 0 else { continue }
            made.append(folder)
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let file = Self.join(folder, newName(file: true))
                let fd = open(staging + "/" + file, O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
                if fd >= 0 {
                    _ = Glibc.write(fd, "moved in\n", 9)
                    close(fd)
                    madeFiles.append(file)
                }
            }
        }
        let target = Self.join(someFolder(preferRecent: true), newName(file: false))
        guard rename(staging, full(target)) == 0 else { return }
        folders.append(target)
        folders += made.map { target + "/" + $0 }
        files += madeFiles.map { target + "/" + $0 }
        remember(recent: target)
        log.append("move in \(target) (\(made.count) folders, \(madeFiles.count) files)")
    }

    /// Moves a folder out of the root; it is deleted there later.
    private mutating func moveTreeOut() {
        let source = someFolder()
        guard !source.isEmpty else { return }
        serial += 1
        guard rename(full(source), outside + "/gone-\(serial)") == 0 else { return }
        folders.removeAll { $0 == source || $0.hasPrefix(source + "/") }
        files.removeAll { $0.hasPrefix(source + "/") }
        log.append("move out \(source)")
    }

    /// A file becomes a folder with the same name, or a folder a file.
    private mutating func swapType() {
        if Bool.random(using: &random), let file = files.randomElement(using: &random) {
            unlink(full(file))
            files.removeAll { $0 == file }
            guard mkdir(full(file), 0o755) == 0 else { return }
            folders.append(file)
            let inner = file + "/inner.txt"
            if write(inner, Self.contents[1], flags: O_CREAT | O_TRUNC) { files.append(inner) }
            log.append("file → folder \(file)")
        } else {
            let folder = someFolder()
            guard !folder.isEmpty else { return }
            try? FileManager.default.removeItem(atPath: full(folder))
            folders.removeAll { $0 == folder || $0.hasPrefix(folder + "/") }
            files.removeAll { $0.hasPrefix(folder + "/") }
            if write(folder, Self.contents[2], flags: O_CREAT | O_TRUNC) { files.append(folder) }
            log.append("folder → file \(folder)")
        }
    }

    private mutating func rekey(from source: String, to target: String) {
        func moved(_ path: String) -> String {
            path == source ? target : path.hasPrefix(source + "/") ? target + path.dropFirst(source.count) : path
        }
        folders = folders.map(moved)
        files = files.map(moved)
        recentFolders = recentFolders.map(moved)
    }

    /// Removes what was moved out of the root, so that the outside folder does not grow.
    func clearOutside() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: outside)) ?? [] {
            try? FileManager.default.removeItem(atPath: outside + "/" + name)
        }
    }

    /// Visible folders and files below `root`, read with `opendir`.
    static func scan(_ root: String) -> (folders: [String], files: [String]) {
        var folders = [""]
        var files: [String] = []
        for entry in DiskWalk.entries(below: root) {
            if entry.isDirectory { folders.append(entry.path) } else if entry.isRegular { files.append(entry.path) }
        }
        return (folders, files)
    }
}

/// The operating system's own view of a tree: `opendir`/`readdir` and `lstat`, no code of
/// the project. What the index must equal.
enum DiskWalk {
    struct Entry {
        var path: String
        var isDirectory: Bool
        var isRegular: Bool
        var size: Int64
        /// Seconds since 1970, with nanoseconds.
        var modified: Double
    }

    /// Every entry below `root` whose path has no hidden component, excluding `excluded`
    /// (relative paths); folders are entered, symbolic links are not followed.
    static func entries(below root: String, excluding excluded: Set<String> = []) -> [Entry] {
        var result: [Entry] = []
        func visit(_ relative: String) {
            let absolute = relative.isEmpty ? root : root + "/" + relative
            guard let directory = opendir(absolute) else { return }
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name.hasPrefix(".") { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                if excluded.contains(path) { continue }
                var status = stat()
                guard lstat(absolute + "/" + name, &status) == 0 else { continue }
                let kind = status.st_mode & S_IFMT
                let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
                result.append(Entry(path: path, isDirectory: kind == S_IFDIR, isRegular: kind == S_IFREG,
                                    size: Int64(status.st_size), modified: modified))
                if kind == S_IFDIR { visit(path) }
            }
        }
        visit("")
        return result
    }

    /// The inode of `path` (not following a symbolic link), `nil` when nothing is there.
    static func inode(_ path: String) -> UInt64? {
        var status = stat()
        return lstat(path, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    /// What a file must be indexed as.
    struct File: Equatable, CustomStringConvertible {
        var size: Int64
        var modified: Double
        var contentType: String?

        var description: String { "\(size) B, \(modified), \(contentType ?? "no type")" }

        /// Equal sizes and types, modification times within a microsecond (the index keeps a double).
        func matches(_ other: File) -> Bool {
            size == other.size && contentType == other.contentType && abs(modified - other.modified) < 1e-6
        }
    }

    /// The regular files below `root` with their sizes, times and MIME types (from `file(1)`).
    static func files(below root: String, excluding excluded: Set<String> = []) -> [String: File] {
        let regular = entries(below: root, excluding: excluded).filter(\.isRegular)
        let types = mimeTypes(of: regular.map { root + "/" + $0.path })
        var result: [String: File] = [:]
        for (offset, entry) in regular.enumerated() {
            let type = offset < types.count ? types[offset] : nil
            result[entry.path] = File(size: entry.size, modified: entry.modified,
                                      contentType: type.map { typedByEvidence(root + "/" + entry.path, libmagic: $0, size: entry.size) })
        }
        return result
    }

    /// The type the indexer gives a file that `file` typed `libmagic`: where that is a weak guess
    /// (``TypeEvidence``: "data" for a `.txt` whose bytes are text…), what the name and the bytes say.
    static func typedByEvidence(_ path: String, libmagic: String, size: Int64) -> String {
        let name = Array(path.utf8.split(separator: UInt8(ascii: "/")).last ?? [])
        guard TypeEvidence.mayOverrule(contentType: libmagic, fileName: name),
              let bytes = FileManager.default.contents(atPath: path) else { return libmagic }
        let evidence = TypeEvidence.decide(contentType: libmagic, description: nil, fileName: name, size: Int(size)) { offset, length in
            offset < bytes.count ? Array(bytes[offset..<min(bytes.count, offset + length)]) : []
        }
        return evidence?.contentType ?? libmagic
    }

    /// `file --mime-type` of each path, in order.
    static func mimeTypes(of paths: [String]) -> [String] {
        guard !paths.isEmpty else { return [] }
        let list = FileManager.default.temporaryDirectory.path + "/searchlight-mime-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: list) }
        _ = FileManager.default.createFile(atPath: list, contents: Data(paths.joined(separator: "\n").utf8 + [0x0A]))
        guard let data = try? ChildProcess.run(["/usr/bin/file", "--mime-type", "-b", "-f", list]).stdout else { return [] }
        // An empty file is inode/x-empty for `file` (from its status) and for the indexer alike.
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
