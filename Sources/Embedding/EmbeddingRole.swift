/// What a text is to the model: a question asked, or a passage that may answer one.
///
/// multilingual-e5 is trained with the prefixes `query: ` and `passage: `; a text embedded
/// with the wrong one is found less well.
public enum EmbeddingRole: Sendable, Hashable {
    /// A search: the words someone typed.
    case query
    /// A piece of a document.
    case passage

    /// The prefix the model card asks for.
    var prefix: String {
        switch self {
        case .query: "query: "
        case .passage: "passage: "
        }
    }
}
