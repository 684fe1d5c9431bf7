/// An item whose text waits for vectors (Docs/Contract.md#search-by-meaning): it has none, its
/// text changed since they were made, or they were made by another model. What
/// ``IndexReader/meaningWork(model:after:limit:)`` hands the pass that embeds texts.
public struct MeaningWork: Sendable {
    /// The item's key in its store, opaque to callers: ``IndexWriter/storeMeaning(_:)`` takes it
    /// back, and ``IndexReader/meaningWork(model:after:limit:)`` goes on after it (keys sort as bytes).
    public var key: [UInt8]
    /// The item's domain and identifier, for messages and for a search's results.
    public var reference: ItemReference
    /// The item's text.
    public var text: String
    /// The text as the store holds it: vectors are stored only while the item still has this text.
    public var storedText: [UInt8]

    /// Work as a store lists it; callers other than a store only read it.
    public init(key: [UInt8], reference: ItemReference, text: String, storedText: [UInt8]) {
        self.key = key
        self.reference = reference
        self.text = text
        self.storedText = storedText
    }
}
