/// Bounds on what a document archive (DOCX, ODT, EPUB…) may make the worker inflate.
///
/// A zip bomb is refused before it is inflated when its headers admit the size, and while
/// it is inflated when they lie: the bytes coming out of each entry are counted.
public struct ArchiveLimits: Sendable, Hashable {
    /// The most entries an archive may list.
    public var maximumEntries: Int
    /// The most bytes one entry may inflate to.
    public var maximumEntrySize: Int
    /// The most bytes all the entries read from one archive may inflate to together.
    public var maximumTotalSize: Int
    /// The highest ratio of inflated to compressed bytes allowed for an entry larger than
    /// ``ratioThreshold`` (XML compresses 10–50×; bombs compress 1000× and more).
    public var maximumCompressionRatio: Int
    /// Entries that inflate to at most this many bytes are not checked for their ratio.
    public var ratioThreshold: Int

    /// Limits that admit any real document: 10 000 entries, 64 MiB an entry, 256 MiB in all, and
    /// a ratio of 200 for entries over 1 MiB.
    public init(
        maximumEntries: Int = 10_000,
        maximumEntrySize: Int = 64 << 20,
        maximumTotalSize: Int = 256 << 20,
        maximumCompressionRatio: Int = 200,
        ratioThreshold: Int = 1 << 20
    ) {
        self.maximumEntries = maximumEntries
        self.maximumEntrySize = maximumEntrySize
        self.maximumTotalSize = maximumTotalSize
        self.maximumCompressionRatio = maximumCompressionRatio
        self.ratioThreshold = ratioThreshold
    }
}
