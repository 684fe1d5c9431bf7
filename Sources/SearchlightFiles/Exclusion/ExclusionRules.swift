import Searchlight
import SystemCalls
import SystemPackage

/// What the folder indexer leaves out of the index (Docs/Contract.md#what-is-indexed and #configuration-and-good-citizenship), decided once per
/// directory entry during the walk.
///
/// In order, the first that decides wins:
/// 1. **secrets** (``secrets``): never indexed, whatever else says, hidden files included;
/// 2. **hidden names** (starting with `.`), unless ``includeHidden``;
/// 3. **`.searchlightignore` files** in any folder (gitignore syntax and semantics: the
///    deepest file first, its last matching pattern decides; `!` re-includes);
/// 4. **configured patterns** (``configured``), relative to each root, gitignore syntax;
/// 5. **defaults** (``defaults`` and build output, unless ``usesDefaults`` is off): folders no
///    one searches. A folder is build output when it holds a `CACHEDIR.TAG` with the
///    signature of the Cache Directory Tagging specification (cargo, many caches), or is a
///    `target` next to a `Cargo.toml` or `pom.xml` (or holding `.rustc_info.json`), a `build`
///    next to a `CMakeLists.txt`, `Makefile`, `meson.build`, `build.gradle(.kts)`, `setup.py`,
///    `pyproject.toml` or `package.json` (or holding a `CMakeCache.txt`), or a `.build` next to
///    a `Package.swift`. These tests cost a few `faccessat(2)` calls for entries with those
///    names, and one failed `openat(2)` per folder for the tag.
///
/// As in git, a path below an excluded folder cannot be included again: the walk never
/// enters the folder.
///
/// ```swift
/// let rules = ExclusionRules(configured: IgnoreRules(lines: ["*.tmp", "archive/"]))
/// rules.excludes("drafts/letter.tmp", isDirectory: false, in: root)  // true: configured
/// rules.excludes(".ssh", isDirectory: true, in: root)                // true: a secret
/// rules.excludes("drafts/letter.odt", isDirectory: false, in: root)  // false
/// ```
///
/// A value, shared by the walker and the watcher; judging an entry reads nothing but the
/// build-output tests' few `faccessat(2)`. The ignore files are read by the walk as it
/// enters each folder, once per folder, at most 1 MiB each.
///
/// ## Topics
///
/// ### The rules
///
/// - ``init(includeHidden:usesDefaults:configured:readsIgnoreFiles:)``
/// - ``secrets``
/// - ``defaults``
/// - ``ignoreFileName``
/// - ``includeHidden``
/// - ``usesDefaults``
/// - ``configured``
/// - ``readsIgnoreFiles``
///
/// ### Judging a path
///
/// - ``excludes(_:isDirectory:in:)``
/// - ``FolderRules``
public struct ExclusionRules: Sendable, Equatable {
    /// The name of the per-folder ignore files.
    public static let ignoreFileName = ".searchlightignore"

    /// What must never be indexed, by name: keys, keychains and credentials. Names that may
    /// be something else (`*.key`, a Keynote presentation too) are judged by their content
    /// once libmagic has seen them (``SecretContent``).
    ///
    /// No setting turns these off, and no `!` pattern of an ignore file brings them back.
    public static let secrets = IgnoreRules(lines: [
        ".ssh/", ".gnupg/", "*.pem", "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
        ".env", ".env.*", "*.kdbx", "*.p12", "*.pfx",
        // Credential stores: netrc, git's credential helper store, PostgreSQL's password file,
        // AWS's shared credentials, gcloud's application default credentials and databases.
        ".netrc", "_netrc", ".git-credentials", ".pgpass", "**/.aws/credentials",
        "application_default_credentials.json", "**/gcloud/credentials.db", "**/gcloud/access_tokens.db",
        "**/gcloud/legacy_credentials/",
    ])

    /// Folders no one searches, skipped unless ``usesDefaults`` is off (or a rule re-includes them).
    public static let defaults = IgnoreRules(lines: [
        "node_modules/", "__pycache__/", ".cache/", ".git/", ".hg/", ".svn/", ".Trash-*/",
    ])

    /// Index names that start with a dot (secrets stay out).
    public var includeHidden: Bool
    /// Skip ``defaults`` and build output folders.
    public var usesDefaults: Bool
    /// Patterns from the configuration, relative to each root.
    ///
    /// Decided after the ignore files, so a folder's `.searchlightignore` can re-include (`!`)
    /// what the configuration leaves out.
    public var configured: IgnoreRules
    /// Read `.searchlightignore` files.
    ///
    /// Off, the `.searchlightignore` files are neither read nor obeyed (they are indexed as any
    /// hidden file would be, when hidden files are).
    public var readsIgnoreFiles: Bool

    /// The rules of a scan or a watch; the defaults are `searchlight scan`'s: hidden entries,
    /// build output and `.searchlightignore`'d paths left out.
    public init(includeHidden: Bool = false, usesDefaults: Bool = true, configured: IgnoreRules = IgnoreRules(patterns: []),
                readsIgnoreFiles: Bool = true) {
        self.includeHidden = includeHidden
        self.usesDefaults = usesDefaults
        self.configured = configured
        self.readsIgnoreFiles = readsIgnoreFiles
    }

    /// The rules of one `.searchlightignore` file, for the paths below its folder.
    public struct FolderRules: Sendable {
        /// The folder holding the file, relative to the root.
        public var folder: ItemIdentifier
        /// The file's patterns, relative to ``folder``.
        public var rules: IgnoreRules
    }

    /// Whether the entry `path` (relative to the root; its name starts at `nameStart`) is left
    /// out. `folderRules` are the ignore files of its ancestors, shallowest first; `parent`
    /// is an open descriptor of the folder holding it (for the build-output tests).
    ///
    /// Judges the entry alone: its ancestors are taken as judged already (the walk does not enter
    /// an excluded folder). `parent` -1 skips the build-output tests.
    func excludes(_ path: ArraySlice<UInt8>, nameStart: Int, isDirectory: Bool,
                  folderRules: [FolderRules], parent: Int32) -> Bool {
        if Self.secrets.decision(for: path, nameStart: nameStart, isDirectory: isDirectory) != nil { return true }
        if !includeHidden && path[nameStart] == 0x2E { return true }
        for folder in folderRules.reversed() {
            // The path relative to the ignore file's folder.
            let start = folder.folder.bytes.isEmpty ? path.startIndex : path.startIndex + folder.folder.bytes.count + 1
            if let decision = folder.rules.decision(for: path[start...], nameStart: nameStart, isDirectory: isDirectory) {
                return decision == .excluded
            }
        }
        if let decision = configured.decision(for: path, nameStart: nameStart, isDirectory: isDirectory) {
            return decision == .excluded
        }
        guard usesDefaults else { return false }
        if Self.defaults.decision(for: path, nameStart: nameStart, isDirectory: isDirectory) != nil { return true }
        return isDirectory && Self.isBuildOutput(name: path[nameStart...], in: parent)
    }

    /// Whether `path` (relative to the root) is excluded, judging every folder on its way:
    /// for a path met outside a walk (an inotify event). Reads the ignore files of its
    /// ancestors through `root`.
    ///
    /// Costs one `openat(2)` per folder on the way and a read of each ignore file there; for many
    /// paths of the same folders, `FileJudge` reads each folder once.
    ///
    /// - Parameters:
    ///   - path: The path relative to the root.
    ///   - isDirectory: Whether the path is a folder.
    ///   - root: The root the path is relative to; its descriptor anchors the descent.
    /// - Returns: Whether the path, or a folder on its way, is left out.
    public func excludes(_ path: ItemIdentifier, isDirectory: Bool, in root: RootFolder) -> Bool {
        judge(path, isDirectory: isDirectory, in: root).excluded
    }

    /// Judges `path` and every folder on its way, as a walk from the root would; returns
    /// whether it is excluded and the ignore files of its ancestors (shallowest first).
    ///
    /// What a walk of a subtree starts from: its folder's inherited rules.
    func judge(_ path: ItemIdentifier, isDirectory: Bool, in root: RootFolder) -> (excluded: Bool, rules: [FolderRules]) {
        root.withDescriptor { descriptor in judge(path, isDirectory: isDirectory, below: descriptor) }
    }

    /// ``judge(_:isDirectory:in:)`` below the open root `root`.
    ///
    /// Folders are entered without following links (``FolderDescent``); a folder on the way that
    /// cannot be entered (gone, unreadable) leaves the rest to be judged by name alone.
    private func judge(_ path: ItemIdentifier, isDirectory: Bool, below root: Int32) -> (excluded: Bool, rules: [FolderRules]) {
        let bytes = path.bytes
        var folderRules: [FolderRules] = []
        // The folders on the way, one at a time, never through a link; after one that cannot
        // be entered, the rest are judged by their names alone (parent -1).
        var descent = FolderDescent(from: root)
        var lost = false
        var componentStart = 0
        while !bytes.isEmpty {
            let parent = lost ? -1 : descent.folder
            if readsIgnoreFiles, parent >= 0, let rules = Self.ignoreFile(in: parent) {
                folderRules.append(FolderRules(folder: ItemIdentifier(bytes: Array(bytes[..<max(0, componentStart - 1)])),
                                               rules: rules))
            }
            let end = bytes[componentStart...].firstIndex(of: 0x2F) ?? bytes.endIndex
            let isLast = end == bytes.endIndex
            if excludes(bytes[..<end], nameStart: componentStart, isDirectory: isLast ? isDirectory : true,
                        folderRules: folderRules, parent: parent) {
                return (true, folderRules)
            }
            if isLast { break }
            if !lost {
                do { try descent.enter(bytes[componentStart..<end]) } catch { lost = true }
            }
            componentStart = end + 1
        }
        return (false, folderRules)
    }

    /// Judges files met outside a walk (a window of inotify events), judging each folder
    /// once: the folders on the way and their ignore files are read once per folder.
    ///
    /// A value for one batch of paths (a window's): its memory of the folders is not refreshed,
    /// so an ignore file changed meanwhile is seen by the next judge.
    struct FileJudge {
        let rules: ExclusionRules
        let root: RootFolder
        /// A folder's verdict, and the ignore files that apply to its entries (its own included).
        private var folders: [[UInt8]: (excluded: Bool, rules: [FolderRules])] = [:]

        /// A judge that has read no folder yet.
        init(rules: ExclusionRules, root: RootFolder) {
            self.rules = rules
            self.root = root
        }

        /// Whether the regular file `path` is excluded.
        ///
        /// The file itself is judged without the build-output tests, which concern folders only.
        mutating func excludes(_ path: ItemIdentifier) -> Bool {
            let bytes = path.bytes
            let slash = bytes.lastIndex(of: 0x2F)
            let folder = slash.map { Array(bytes[..<$0]) } ?? []
            let verdict = folders[folder] ?? judgeFolder(folder)
            folders[folder] = verdict
            if verdict.excluded { return true }
            return rules.excludes(bytes[...], nameStart: slash.map { $0 + 1 } ?? 0, isDirectory: false,
                                  folderRules: verdict.rules, parent: -1)
        }

        /// Judges `folder` as a walk would, and adds its own ignore file to the rules its entries
        /// follow.
        private func judgeFolder(_ folder: [UInt8]) -> (excluded: Bool, rules: [FolderRules]) {
            let identifier = ItemIdentifier(bytes: folder)
            var (excluded, folderRules) = folder.isEmpty ? (false, []) : rules.judge(identifier, isDirectory: true, in: root)
            if !excluded && rules.readsIgnoreFiles, let descriptor = try? root.openDirectory(identifier) {
                if let own = ExclusionRules.ignoreFile(in: descriptor) {
                    folderRules.append(FolderRules(folder: identifier, rules: own))
                }
                SystemCall.close(descriptor)
            }
            return (excluded, folderRules)
        }
    }

    // MARK: - Files on disk

    /// The rules of the `.searchlightignore` in the open folder `directory`, if it has one.
    ///
    /// Read through ``readSmallFile(_:in:limit:)``, at most 1 MiB, as UTF-8 (invalid bytes
    /// replaced); `nil` as well for a file that holds only comments and blank lines.
    static func ignoreFile(in directory: Int32) -> IgnoreRules? {
        guard let bytes = readSmallFile(ignoreFileName, in: directory, limit: 1 << 20) else { return nil }
        let rules = IgnoreRules(text: String(decoding: bytes, as: UTF8.self))
        return rules.isEmpty ? nil : rules
    }

    /// Reads at most `limit` bytes of the regular file `name` in `directory`; `nil` when it
    /// cannot be opened. The corresponding C functions are `openat(2)` and `read(2)`.
    static func readSmallFile(_ name: String, in directory: Int32, limit: Int) -> [UInt8]? {
        guard let descriptor = try? SystemCall.open(name.utf8, in: directory, .readOnly, options: .readingSafely) else {
            return nil
        }
        defer { SystemCall.close(descriptor) }
        // A read that fails ends the file as far as the rules go.
        return try? SystemCall.readBytes(descriptor, limit: limit)
    }

    /// The first bytes of a `CACHEDIR.TAG` (bford.info/cachedir).
    static let cacheDirectorySignature = Array("Signature: 8a477f597d28d172789f06886806bc55".utf8)

    /// Whether the folder `name` in `parent` holds build output or a cache (see the type's
    /// documentation).
    static func isBuildOutput(name: ArraySlice<UInt8>, in parent: Int32) -> Bool {
        guard parent >= 0 else { return false }
        let folder = String(decoding: name, as: UTF8.self)
        func exists(_ relative: String) -> Bool { SystemCall.exists(relative.utf8, in: parent) }
        switch folder {
        case "target":
            if exists("Cargo.toml") || exists("pom.xml") || exists("target/.rustc_info.json") { return true }
        case "build":
            let markers = ["CMakeLists.txt", "Makefile", "meson.build", "build.gradle", "build.gradle.kts",
                           "setup.py", "pyproject.toml", "package.json"]
            if markers.contains(where: exists) || exists("build/CMakeCache.txt") { return true }
        case ".build":
            if exists("Package.swift") { return true }
        default:
            break
        }
        guard let tag = readSmallFile(folder + "/CACHEDIR.TAG", in: parent, limit: cacheDirectorySignature.count) else {
            return false
        }
        return tag == cacheDirectorySignature
    }
}
