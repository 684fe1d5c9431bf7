/// A worker's answer to one ``ExtractionRequest``.
///
/// Payload layout after the version byte:
/// `kind u8, jobID u64, status u8 (0 ok, else an ExtractionFailure.Reason),
/// originalWidth u32, originalHeight u32 (0 when unknown)`, then when ok an outcome tag
/// `u8` and its body — 1: a thumbnail, `format string, width u32, height u32, bytes, flags u8` (1: mayHoldText, 2: legibleAsIcon);
/// 2: a document, as ``ExtractedDocument`` encodes it; 3: vectors, as ``EmbeddedTexts`` encodes
/// them — else `message string`.
///
/// ```swift
/// let response = try ExtractionResponse(payload: payload)  // the frame without its length
/// switch response.outcome {
/// case .document(let document): print(document.title ?? "", document.text.count)
/// case .failure(let failure): print(failure.reason.name, failure.message)  // undecodable …
/// case .thumbnail, .embeddings: break
/// }
/// ```
///
/// A failure carries no outcome tag: its status byte is its ``ExtractionFailure/Reason-swift.enum``,
/// whose raw values start at 1, so status 0 always means success.
public struct ExtractionResponse: Sendable, Hashable {
    /// What the worker sends back for a job: a picture, a document, vectors, or why none.
    public enum Outcome: Sendable, Hashable {
        /// An encoded picture.
        case thumbnail(format: String, width: Int, height: Int, bytes: [UInt8])
        /// What was read from inside a document (the answer to ``ExtractionKind/text``).
        case document(ExtractedDocument)
        /// Vectors of texts (the answer to ``ExtractionKind/embed``).
        case embeddings(EmbeddedTexts)
        /// Why the file could not be read (its reason is the status byte).
        case failure(ExtractionFailure)
    }

    /// The request's ``ExtractionRequest/jobID``, so the supervisor matches answer to job.
    public var jobID: UInt64
    /// The request's kind, echoed raw (an unknown kind is answered `unsupported`).
    public var kindRawValue: UInt8
    /// The source image's size in pixels, when the decoder knows it.
    public var originalWidth: Int
    /// The source image's height in pixels, 0 when the decoder does not know it.
    public var originalHeight: Int
    /// Whether the picture of a thumbnail looks like it may hold text (the quick look that
    /// decides whether an image waits for OCR); false for other kinds.
    public var mayHoldText: Bool = false
    /// Whether the picture of a thumbnail still reads at an icon's size (a photo, a slide),
    /// rather than an even blank of a page of text; false for other kinds.
    public var legibleAsIcon: Bool = false
    /// The answer itself.
    public var outcome: Outcome

    /// The answer to job `jobID`; the two picture flags are set after when they apply.
    ///
    /// - Parameters:
    ///   - jobID: The request's job.
    ///   - kindRawValue: The request's kind, as it came.
    ///   - originalWidth: The source's width in pixels; 0 when unknown.
    ///   - originalHeight: The source's height in pixels; 0 when unknown.
    ///   - outcome: The answer.
    public init(jobID: UInt64, kindRawValue: UInt8, originalWidth: Int = 0, originalHeight: Int = 0, outcome: Outcome) {
        self.jobID = jobID
        self.kindRawValue = kindRawValue
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
        self.outcome = outcome
    }

    /// The complete frame (length prefix included).
    ///
    /// Sizes above `UInt32.max` are clamped: no picture or count comes near it.
    public func encodedFrame() -> [UInt8] {
        var writer = WireWriter(headerOf: kindRawValue, jobID: jobID)
        switch outcome {
        case .thumbnail, .document, .embeddings: writer.append(UInt8(0))
        case .failure(let failure): writer.append(failure.reason.rawValue)
        }
        writer.append(UInt32(clamping: originalWidth))
        writer.append(UInt32(clamping: originalHeight))
        switch outcome {
        case .thumbnail(let format, let width, let height, let bytes):
            writer.append(OutcomeTag.thumbnail.rawValue)
            writer.appendString(format)
            writer.append(UInt32(clamping: width))
            writer.append(UInt32(clamping: height))
            writer.appendBytes(bytes)
            writer.append(UInt8(mayHoldText ? 1 : 0) | UInt8(legibleAsIcon ? 2 : 0))
        case .document(let document):
            writer.append(OutcomeTag.document.rawValue)
            document.encode(into: &writer)
        case .embeddings(let embeddings):
            writer.append(OutcomeTag.embeddings.rawValue)
            embeddings.encode(into: &writer)
        case .failure(let failure):
            writer.appendString(failure.message)
        }
        return ExtractionFrame.frame(writer.bytes)
    }

    /// Decodes a payload (the frame without its length prefix).
    ///
    /// - Parameter payload: A frame's payload, its length checked already
    ///   (``ExtractionFrame/payloadLength(header:)``).
    /// - Throws: ``ExtractionProtocolError``: `.unknownVersion` for another protocol version,
    ///   `.truncated` for a payload cut short, `.malformed` for an unknown status or outcome or
    ///   bytes left over.
    public init(payload: [UInt8]) throws(ExtractionProtocolError) {
        var reader = WireReader(payload)
        (kindRawValue, jobID) = try reader.readHeader()
        let status = try reader.read(UInt8.self)
        originalWidth = Int(try reader.read(UInt32.self))
        originalHeight = Int(try reader.read(UInt32.self))
        if status == 0 {
            switch OutcomeTag(rawValue: try reader.read(UInt8.self)) {
            case .thumbnail:
                let format = try reader.readString()
                let width = Int(try reader.read(UInt32.self))
                let height = Int(try reader.read(UInt32.self))
                outcome = .thumbnail(format: format, width: width, height: height, bytes: try reader.readBytes())
                let flags = try reader.read(UInt8.self)
                mayHoldText = flags & 1 != 0
                legibleAsIcon = flags & 2 != 0
            case .document:
                outcome = .document(try ExtractedDocument(from: &reader))
            case .embeddings:
                outcome = .embeddings(try EmbeddedTexts(from: &reader))
            case nil:
                throw ExtractionProtocolError(.malformed, "unknown outcome")
            }
        } else {
            guard let reason = ExtractionFailure.Reason(rawValue: status) else {
                throw ExtractionProtocolError(.malformed, "unknown status \(status)")
            }
            outcome = .failure(ExtractionFailure(reason, try reader.readString()))
        }
        try reader.expectEnd()
    }
}

/// The tag before a successful outcome's body.
private enum OutcomeTag: UInt8 {
    case thumbnail = 1
    case document = 2
    case embeddings = 3
}
