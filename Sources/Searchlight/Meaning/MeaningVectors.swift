/// The vectors of one item's text, to store: those of its chunks (``StoredVectors``), or none when
/// the vectors of the same digest are stored already (a copy of the text: nothing is embedded
/// again).
public struct MeaningVectors: Sendable {
    /// The ``MeaningWork/key`` of the item.
    public var key: [UInt8]
    /// The stored form of ``MeaningWork/storedText``: vectors are kept only if the item still has it.
    public var storedText: [UInt8]
    /// What the vectors were made from: the model's identifier and the text (a SHA-256); items
    /// with the same text share them.
    public var digest: [UInt8]
    /// The identifier of the model that made the vectors: a search compares only its own model's.
    public var model: String
    /// The chunks' vectors, each ``StoredVectors/stride`` bytes; `nil` to reuse those of `digest`.
    public var vectors: StoredVectors?

    /// The vectors of one ``MeaningWork``, with what identifies the text they were made from.
    public init(key: [UInt8], storedText: [UInt8], digest: [UInt8], model: String, vectors: StoredVectors?) {
        self.key = key
        self.storedText = storedText
        self.digest = digest
        self.model = model
        self.vectors = vectors
    }
}
