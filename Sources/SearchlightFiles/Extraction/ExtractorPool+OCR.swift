import ExtractionProtocol
import Foundation

/// How the extraction workers read text in pictures (Docs/Contract.md#text-in-pictures).
public struct OCRSettings: Sendable, Equatable {
    /// Tesseract's languages (`eng`, `deu`…), each from Debian's `tesseract-ocr-LANG`.
    public var languages: [String]
    /// Scanned pages of a PDF read at most.
    public var pageLimit: Int
    /// How long Tesseract may spend on one page; what it read by then is kept.
    public var pageDeadline: Duration
    /// Words whose confidence (0–100) is below this are left out.
    public var minimumConfidence: Int

    /// OCR settings; a page limit below 1 is 1, a confidence outside 0–100 is clamped.
    public init(languages: [String] = ["eng"], pageLimit: Int = 10, pageDeadline: Duration = .seconds(20),
                minimumConfidence: Int = 60) {
        self.languages = languages
        self.pageLimit = max(1, pageLimit)
        self.pageDeadline = pageDeadline
        self.minimumConfidence = min(max(minimumConfidence, 0), 100)
    }

    /// The worker's `--ocr-*` arguments.
    var workerArguments: [String] {
        [
            "--ocr-languages", languages.joined(separator: "+"),
            "--ocr-page-limit", String(pageLimit),
            "--ocr-page-deadline", String(pageDeadline.milliseconds),
            "--ocr-min-confidence", String(minimumConfidence),
        ]
    }

    /// How long one OCR job may take before its worker is killed: every page's deadline twice
    /// (a poorly read page is read again, turned upright or in its script's languages), with
    /// room for decoding and rendering.
    var jobDeadline: Duration { pageDeadline * (2 * pageLimit) + .seconds(10) }

    /// The languages whose data is not installed, each with the Debian package that has it.
    public func missingLanguages(dataFolders: [String] = TesseractLanguages.dataFolders) -> [(language: String, package: String)] {
        let installed = TesseractLanguages.installed(in: dataFolders)
        return languages.filter { !installed.contains($0) }.map { ($0, TesseractLanguages.debianPackage(of: $0)) }
    }
}

/// Text found in a picture by OCR.
public struct RecognizedText: Sendable, Hashable {
    /// What was read in an image (empty when it holds no text); for a PDF, its whole
    /// searchable text, each scanned page's reading at its place (empty when no page was read).
    public var text: String
    /// Whether the text was cut at the worker's text limit (the page limit shows in ``pages``).
    public var isTruncated: Bool
    /// A PDF's scanned pages, and those read (at most the page limit); nil for an image.
    public var pages: Pages?

    /// A PDF's scanned pages and those OCR read.
    public struct Pages: Sendable, Hashable {
        /// The pages that are pictures of text, with no text of their own.
        public var scanned: Int
        /// How many of those OCR read (at most ``limit``).
        public var read: Int
        /// The page limit they were read with.
        public var limit: Int

        /// A count of a PDF's pages as the worker reported it.
        public init(scanned: Int, read: Int, limit: Int) {
            self.scanned = scanned
            self.read = read
            self.limit = limit
        }
    }

    /// Text as a worker returned it.
    public init(text: String, isTruncated: Bool, pages: Pages? = nil) {
        self.text = text
        self.isTruncated = isTruncated
        self.pages = pages
    }

    /// Whether ``text`` is a document's whole text, to replace its item's (a PDF), rather than
    /// a picture's text to add to it.
    public var isWholeText: Bool { pages != nil }
}

extension ExtractorPool {
    /// Reads the text in the image, or the PDF with its scanned pages read, at `path` (OCR),
    /// blocking until it is done or has failed. Each page may take
    /// ``OCRSettings/pageDeadline``; the job as a whole is killed past every page's deadline.
    ///
    /// - Parameters:
    ///   - path: an absolute path, as raw bytes (no NUL).
    ///   - contentType: libmagic's MIME type (`application/pdf` reads pages, anything else an image).
    public func recognizedText(ofFileAtPathBytes path: [UInt8], contentType: String) -> Result<RecognizedText, ExtractionFailure> {
        let limit = UInt32(clamping: configuration.textLimit)
        return extract(.ocr, path: path, limit: limit, contentType: contentType,
                       deadline: configuration.ocr.jobDeadline).flatMap { response in
            switch response.outcome {
            case .document(let document) where document.scannedPageCount != nil:
                let read = document.recognizedPageCount ?? 0
                return .success(RecognizedText(
                    text: read > 0 ? ContentReader.searchableText(of: document) : "", isTruncated: document.isTextTruncated,
                    pages: .init(scanned: document.scannedPageCount ?? 0, read: read, limit: configuration.ocr.pageLimit)))
            case .document(let document):
                return .success(RecognizedText(text: document.text, isTruncated: document.isTextTruncated))
            case .failure(let failure):
                return .failure(Self.reported(failure))
            case .thumbnail, .embeddings:
                return .failure(ExtractionFailure(.crashed, "extractor answered an OCR request with a thumbnail"))
            }
        }
    }
}
