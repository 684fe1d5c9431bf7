/// Which rankings a search blends (Docs/Contract.md#search-by-meaning).
public enum MeaningMode: String, Sendable, CaseIterable {
    /// Words always; meaning too when the search reads as a question (``RankedSearch/readsAsQuestion``)
    /// and a model is installed.
    case automatic
    /// Words only (`search --words`): the model is never loaded.
    case words
    /// Meaning only (`search --meaning`): the items nearest to the words in meaning.
    case meaning
}
