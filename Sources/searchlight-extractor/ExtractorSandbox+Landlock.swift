import DocumentExtraction
import SystemCalls
import SystemPackage

extension ExtractorSandbox {
    /// Landlock's rights (linux/landlock.h), by the ABI that brought them.
    enum Access {
        static let execute: UInt64 = 1 << 0
        static let writeFile: UInt64 = 1 << 1
        static let readFile: UInt64 = 1 << 2
        static let readDirectory: UInt64 = 1 << 3
        /// ABI 1: the 13 rights from executing to making symbolic links.
        static let abi1: UInt64 = (1 << 13) - 1
        /// ABI 2: linking or renaming a file into another folder.
        static let refer: UInt64 = 1 << 13
        /// ABI 3: truncating.
        static let truncate: UInt64 = 1 << 14
        /// ABI 5: `ioctl` on devices opened later.
        static let ioctlDevice: UInt64 = 1 << 15
        /// ABI 4: binding and connecting TCP sockets.
        static let tcp: UInt64 = 1 << 0 | 1 << 1
        /// ABI 6: connecting to abstract Unix sockets, signalling processes outside the sandbox.
        static let scopes: UInt64 = 1 << 0 | 1 << 1

        static let read = readFile | readDirectory
        /// All of the temporary folder but running programs and making devices, FIFOs,
        /// sockets and links.
        static let temporary = abi1 & ~(execute | 1 << 6 | 1 << 9 | 1 << 10 | 1 << 11 | 1 << 12) | refer | truncate
    }

    /// What the decoders read: libraries and their data (fonts, tessdata, libmagic's database,
    /// libvips' modules, catdoc's charsets: all under /usr), the loader's and fontconfig's
    /// configuration (/etc), the process's own /proc entries and the CPU count.
    static let readablePaths = ["/usr", "/lib", "/lib64", "/etc", "/proc/self", "/proc/meminfo", "/proc/cpuinfo",
                                "/sys/devices/system/cpu", "/dev/urandom", "/dev/random", "/dev/zero"]

    /// Confines the file system to ``readablePaths`` and `readable` (read; the embedding model's
    /// folder, which need not exist yet), `/dev/null` (read and write),
    /// `temporaryFolder` (anything but running programs) and the converters the decoders run
    /// (run), on kernels with Landlock; TCP is refused (ABI 4) and signals and abstract sockets
    /// stay inside the sandbox (ABI 6). Returns the ABI used, nil without Landlock.
    /// - Throws: what a Landlock call threw.
    static func confineFileSystem(temporaryFolder: String?, readable: [String] = []) throws(Errno) -> Int? {
        guard let abi = SystemCall.landlockABI else { return nil }
        var filesystem = Access.abi1
        if abi >= 2 { filesystem |= Access.refer }
        if abi >= 3 { filesystem |= Access.truncate }
        if abi >= 5 { filesystem |= Access.ioctlDevice }
        let ruleset = try SystemCall.LandlockRuleset(filesystem: filesystem, network: abi >= 4 ? Access.tcp : 0,
                                                     scoped: abi >= 6 ? Access.scopes : 0)
        for path in readablePaths { try ruleset.allow(Access.read, beneath: path) }
        // A model folder installed later is read by a later worker: a missing one is no error.
        for path in readable {
            do { try ruleset.allow(Access.read, beneath: path) } catch where error == .noSuchFileOrDirectory {}
        }
        try ruleset.allow(Access.readFile | Access.writeFile, beneath: "/dev/null")
        if let temporaryFolder { try ruleset.allow(Access.temporary & filesystem, beneath: temporaryFolder) }
        // The converters, and the dynamic loader that starts them (opened for execution too).
        for program in LegacyOfficeExtractor.converterPaths + ["/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"] {
            try ruleset.allow(Access.execute | Access.readFile, beneath: program)
        }
        try ruleset.restrictSelf()
        return abi
    }
}
