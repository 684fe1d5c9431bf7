import Searchlight

// Search by meaning (Docs/Contract.md#search-by-meaning) on the shared index: PostgresIndex+Meaning.
extension PostgresStore {
    /// ``PostgresIndex/meaningWork(model:after:limit:)``, waited for.
    public func meaningWork(model: String, after key: [UInt8], limit: Int) throws -> [MeaningWork] {
        try wait { [index] in try await index.meaningWork(model: model, after: key, limit: limit) }
    }

    /// ``PostgresIndex/hasMeaning(digest:)``, waited for.
    public func hasMeaning(digest: [UInt8]) throws -> Bool {
        try wait { [index] in try await index.hasMeaning(digest: digest) }
    }

    /// ``PostgresIndex/storeMeaning(_:)``, waited for.
    @discardableResult public func storeMeaning(_ results: [MeaningVectors]) throws -> Int {
        try wait { [index] in try await index.storeMeaning(results) }
    }

    /// ``PostgresIndex/forgetUnusedMeaning()``, waited for.
    @discardableResult public func forgetUnusedMeaning() throws -> Int {
        try wait { [index] in try await index.forgetUnusedMeaning() }
    }

    /// ``PostgresIndex/meaningProgress(model:)``, waited for.
    public func meaningProgress(model: String?) throws -> MeaningProgress {
        try wait { [index] in try await index.meaningProgress(model: model) }
    }

    /// ``PostgresIndex/meaningResults(question:model:domain:limit:)``, waited for.
    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) throws -> [SearchResult] {
        try wait { [index] in try await index.meaningResults(question: question, model: model, domain: domain, limit: limit) }
    }
}
