import Searchlight

// Search by meaning (Docs/Contract.md#search-by-meaning) on the shared index: PostgresIndex+Meaning.
extension PostgresStore {
    /// Items with text that wait for vectors of `model`, after `key`, at most `limit`; waited for.
    ///
    /// Blocks the calling thread for one statement: see
    /// ``PostgresIndex/meaningWork(model:after:limit:)``.
    public func meaningWork(model: String, after key: [UInt8], limit: Int) throws -> [MeaningWork] {
        try wait { [index] in try await index.meaningWork(model: model, after: key, limit: limit) }
    }

    /// Whether vectors of `digest` are stored; waited for.
    public func hasMeaning(digest: [UInt8]) throws -> Bool {
        try wait { [index] in try await index.hasMeaning(digest: digest) }
    }

    /// Stores vectors in one transaction; returns how many items got them; waited for.
    ///
    /// Blocks the calling thread until the transaction commits; an item whose text changed
    /// meanwhile is skipped (``PostgresIndex/storeMeaning(_:)``).
    @discardableResult public func storeMeaning(_ results: [MeaningVectors]) throws -> Int {
        try wait { [index] in try await index.storeMeaning(results) }
    }

    /// Deletes the vectors no item uses any more; returns how many texts' vectors went; waited for.
    @discardableResult public func forgetUnusedMeaning() throws -> Int {
        try wait { [index] in try await index.forgetUnusedMeaning() }
    }

    /// How far the pass is for `model`, and what the vectors take; waited for.
    public func meaningProgress(model: String?) throws -> MeaningProgress {
        try wait { [index] in try await index.meaningProgress(model: model) }
    }

    /// The `limit` items nearest to `question`, best first; waited for.
    ///
    /// Blocks the calling thread while every vector of `model` is read and compared.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) throws -> [SearchResult] {
        try wait { [index] in try await index.meaningResults(question: question, model: model, domain: domain, limit: limit) }
    }
}
