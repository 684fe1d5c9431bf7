/// What turns a search's words into a question vector (Docs/Contract.md#search-by-meaning): the
/// caller's embedding model, loaded only when a search asks (``RankedSearch/meaningJoins``), so
/// that a search of words alone never loads it. The library knows no model.
public struct QuestionEncoder: Sendable {
    /// The question's unit vector and the identifier of the model that made it (the vectors
    /// compared are that model's only); throws when the model cannot be loaded.
    public let encode: @Sendable (String) throws -> (vector: [Float], model: String)

    /// An encoder that calls `encode` for each question a search embeds.
    ///
    /// ```swift
    /// let encoder = QuestionEncoder { text in (model.embed([text], as: .query)[0], model.identifier) }
    /// ```
    public init(encode: @escaping @Sendable (String) throws -> (vector: [Float], model: String)) {
        self.encode = encode
    }

    /// Thrown by a ``deferred(_:)`` encoder when there turns out to be no model: the search
    /// goes on by its words alone.
    public struct Unavailable: Error {
        /// The one value there is: no model was found.
        public init() {}
    }

    /// An encoder that looks for its model (`find`: reading the configuration, the model
    /// folder) only when a question is first embedded: a search that meaning may answer only
    /// if its words find nothing costs nothing more when they find something.
    public static func deferred(_ find: @escaping @Sendable () -> QuestionEncoder?) -> QuestionEncoder {
        QuestionEncoder { question in
            guard let encoder = find() else { throw Unavailable() }
            return try encoder.encode(question)
        }
    }
}
