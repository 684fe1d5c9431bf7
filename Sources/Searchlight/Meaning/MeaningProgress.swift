/// How far the meaning pass is: `status` shows it.
public struct MeaningProgress: Sendable, Equatable {
    /// Items with text.
    public var items = 0
    /// Items whose text has current vectors of the model asked about.
    public var embedded = 0
    /// Chunk vectors stored (of every model), and their bytes.
    public var chunks = 0
    /// The bytes those chunk vectors take in the index.
    public var bytes = 0
    /// The models whose vectors the index holds.
    public var models: [String] = []

    /// Progress as a store counted it; the defaults are an index with no text yet.
    public init(items: Int = 0, embedded: Int = 0, chunks: Int = 0, bytes: Int = 0, models: [String] = []) {
        self.items = items
        self.embedded = embedded
        self.chunks = chunks
        self.bytes = bytes
        self.models = models
    }
}
