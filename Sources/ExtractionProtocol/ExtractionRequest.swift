/// One job for a worker: extract `kind` from the file at `path`.
///
/// Payload layout after the version byte:
/// `kind u8, jobID u64, limit u32, path bytes, contentType bytes` (byte strings are a u32
/// length and the bytes). The file itself travels beside the frame: the indexer opens it and
/// attaches the descriptor to the frame's first bytes (`SCM_RIGHTS`), so that a worker, which
/// may not open the user's files, reads it (``descriptor``); the path only names it.
/// An ``ExtractionKind/embed`` request has no file and an empty path; its ``embedding``
/// follows (``EmbeddingJob``).
///
/// ```swift
/// let request = ExtractionRequest(jobID: 7, kind: .text, path: Array(path.utf8), limit: 1 << 20,
///                                 contentType: "application/pdf")
/// let frame = request.encodedFrame()  // written to the worker's socket, the file's descriptor beside it
/// let decoded = try ExtractionRequest(payload: Array(frame.dropFirst(ExtractionFrame.headerSize)))
/// ```
public struct ExtractionRequest: Sendable, Hashable {
    /// Chosen by the supervisor; echoed in the response.
    public var jobID: UInt64
    /// The raw value of an ``ExtractionKind``, kept raw so an unknown kind can still be answered.
    public var kindRawValue: UInt8
    /// The file's path as raw bytes (file names need not be UTF-8), without a NUL.
    public var path: [UInt8]
    /// A kind-specific bound: the longest edge for thumbnails, the bytes of text for text.
    public var limit: UInt32
    /// libmagic's MIME type of the file (`text/html`), or empty when unknown; with the
    /// file name it chooses the ``DocumentFormat`` of a text request.
    public var contentType: String
    /// The open file, received with the frame (`SCM_RIGHTS`), not part of the payload; nil
    /// when the file is to be opened by ``path`` (decoders run in process, in tests).
    public var descriptor: Int32?
    /// What to embed, for an ``ExtractionKind/embed`` request (nil for the other kinds).
    public var embedding: EmbeddingJob?

    /// The kind asked for; nil when the raw value is of a kind this build does not know.
    public var kind: ExtractionKind? { ExtractionKind(rawValue: kindRawValue) }

    /// An ``ExtractionKind/embed`` request.
    public init(jobID: UInt64, embedding: EmbeddingJob) {
        self.init(jobID: jobID, kind: .embed, path: [], limit: 0)
        self.embedding = embedding
    }

    /// A request for `kind` of the file at `path`, at most `limit` (pixels of edge or bytes of text).
    public init(jobID: UInt64, kind: ExtractionKind, path: [UInt8], limit: UInt32, contentType: String = "") {
        self.jobID = jobID
        self.kindRawValue = kind.rawValue
        self.path = path
        self.limit = limit
        self.contentType = contentType
    }

    /// The complete frame (length prefix included).
    public func encodedFrame() -> [UInt8] {
        var writer = WireWriter(headerOf: kindRawValue, jobID: jobID)
        writer.append(limit)
        writer.appendBytes(path)
        writer.appendString(contentType)
        if kindRawValue == ExtractionKind.embed.rawValue {
            (embedding ?? EmbeddingJob(role: .passage, format: .float32, texts: [])).encode(into: &writer)
        }
        return ExtractionFrame.frame(writer.bytes)
    }

    /// Decodes a payload (the frame without its length prefix).
    public init(payload: [UInt8]) throws(ExtractionProtocolError) {
        var reader = WireReader(payload)
        (kindRawValue, jobID) = try reader.readHeader()
        limit = try reader.read()
        path = try reader.readBytes()
        contentType = try reader.readString()
        if kindRawValue == ExtractionKind.embed.rawValue { embedding = try EmbeddingJob(from: &reader) }
        try reader.expectEnd()
    }
}
