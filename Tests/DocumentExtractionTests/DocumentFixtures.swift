import DocumentExtraction
import ExtractionProtocol
import Foundation
import Glibc
import Testing

/// The committed fixtures (see Fixtures/README.md) and a way to extract them.
enum DocumentFixtures {
    static let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    static func path(_ name: String) -> String { folder.appending(path: name).path }

    /// Opens a file as the worker does (read-only, close-on-exec) for the duration of `body`.
    static func withDescriptor<T>(_ path: String, _ body: (Int32) throws -> T) throws -> T {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        return try body(descriptor)
    }

    /// Extracts a fixture (or, given an absolute path, any file) as `contentType` says.
    static func extract(
        _ name: String, contentType: String, extractor: RichDocumentExtractor = RichDocumentExtractor()
    ) -> Result<ExtractedDocument, ExtractionFailure> {
        let fileName = Array((name.split(separator: "/").last.map(String.init) ?? name).utf8)
        guard let format = DocumentFormat(contentType: contentType, fileName: fileName) else {
            return .failure(ExtractionFailure(.unsupported, "no format for \(contentType)"))
        }
        do {
            return try withDescriptor(name.hasPrefix("/") ? name : path(name)) { descriptor in
                Result { () throws(ExtractionFailure) -> ExtractedDocument in
                    try extractor.extract(descriptor: descriptor, format: format)
                }
            }
        } catch {
            Issue.record("cannot open \(name): \(error)")
            return .failure(ExtractionFailure(.unreadable, "\(error)"))
        }
    }

    /// The document, or a recorded issue and nil.
    static func document(
        _ name: String, _ contentType: String, extractor: RichDocumentExtractor = RichDocumentExtractor(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ExtractedDocument? {
        switch extract(name, contentType: contentType, extractor: extractor) {
        case .success(let document): return document
        case .failure(let error):
            Issue.record("\(name): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Expects a failure for this reason whose message contains `text`, on one line.
    static func expectFailure(
        _ result: Result<ExtractedDocument, ExtractionFailure>, _ reason: ExtractionFailure.Reason,
        containing text: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .failure(let error) = result else {
            Issue.record("expected a \(reason) failure, got a document", sourceLocation: sourceLocation)
            return
        }
        #expect(error.reason == reason, "\(error.message)", sourceLocation: sourceLocation)
        #expect(text.isEmpty || error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation)
        #expect(!error.message.contains("\n"), sourceLocation: sourceLocation)
    }

    /// MIME types as libmagic gives them for the fixtures.
    static let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    static let xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    static let pptx = "application/vnd.openxmlformats-officedocument.presentationml.presentation"
    static let odt = "application/vnd.oasis.opendocument.text"
    static let ods = "application/vnd.oasis.opendocument.spreadsheet"
    static let odp = "application/vnd.oasis.opendocument.presentation"
}
