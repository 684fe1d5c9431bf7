/// What an ``ExtractionKind/embed`` request asks: texts to turn into vectors, the role they
/// play for the model, and the form the vectors come back in.
///
/// Wire layout, after a request's common fields: `role u8 (0 query, 1 passage), format u8
/// (0 float32, 1 int8), count u32, count × text string`.
public struct EmbeddingJob: Sendable, Hashable {
    /// What the texts are to the model, which encodes a question and a passage differently.
    public enum Role: UInt8, Sendable, Hashable {
        /// A search's words (the model's `query: ` prefix).
        case query = 0
        /// Pieces of a document (`passage: `).
        case passage = 1
    }

    /// Whether the texts are a search's words or pieces of documents.
    public var role: Role
    /// How the vectors come back: int8 for vectors to be stored, float32 for exact values.
    public var format: EmbeddedTexts.Format
    /// The texts to embed, one vector each, answered in this order.
    public var texts: [String]

    /// A job that asks for a vector of each of `texts`.
    public init(role: Role, format: EmbeddedTexts.Format, texts: [String]) {
        self.role = role
        self.format = format
        self.texts = texts
    }

    func encode(into writer: inout WireWriter) {
        writer.append(role.rawValue)
        writer.append(format.rawValue)
        writer.append(UInt32(texts.count))
        for text in texts { writer.appendString(text) }
    }

    init(from reader: inout WireReader) throws(ExtractionProtocolError) {
        guard let role = Role(rawValue: try reader.read()) else { throw ExtractionProtocolError(.malformed, "unknown embedding role") }
        guard let format = EmbeddedTexts.Format(rawValue: try reader.read()) else {
            throw ExtractionProtocolError(.malformed, "unknown embedding format")
        }
        let count = Int(try reader.read(UInt32.self))
        guard count <= reader.bytes.count - reader.offset else { throw ExtractionProtocolError(.truncated, "truncated texts") }
        var texts: [String] = []
        texts.reserveCapacity(count)
        for _ in 0..<count { texts.append(try reader.readString()) }
        self.init(role: role, format: format, texts: texts)
    }
}
