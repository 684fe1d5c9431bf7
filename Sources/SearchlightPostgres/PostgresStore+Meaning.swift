import Searchlight

// Search by meaning (Docs/Contract.md#search-by-meaning) on the shared index: PostgresIndex+Meaning.
extension PostgresStore {
    public func meaningWork(model: String, after key: [UInt8], limit: Int) throws -> [MeaningWork] {
        try wait { [index] in try await index.meaningWork(model: model, after: key, limit: limit) }
    }

    public func hasMeaning(digest: [UInt8]) throws -> Bool {
        try wait { [index] in try await index.hasMeaning(digest: digest) }
    }

    @discardableResult public func storeMeaning(_ results: [MeaningVectors]) throws -> Int {
        try wait { [index] in try await index.storeMeaning(results) }
    }

    @discardableResult public func forgetUnusedMeaning() throws -> Int {
        try wait { [index] in try await index.forgetUnusedMeaning() }
    }

    public func meaningProgress(model: String?) throws -> MeaningProgress {
        try wait { [index] in try await index.meaningProgress(model: model) }
    }

    public func meaningResults(question: [Float], model: String, domain: String?, limit: Int) throws -> [SearchResult] {
        try wait { [index] in try await index.meaningResults(question: question, model: model, domain: domain, limit: limit) }
    }
}
