// Glibc for free(3) and strdup(3) of the strings the C shim (CShimTesseract) takes and gives.
import Glibc
import CShimTesseract
import ExtractionProtocol
import SystemCalls

/// How the worker reads text in pictures (`--ocr-*` arguments).
///
/// ```swift
/// var options = OCROptions()
/// options.languages = "eng+fra"
/// options.pageLimit = 3
/// let response = TextRecognition.response(to: request, options: options)
/// ```
public struct OCROptions: Sendable {
    /// Tesseract's languages, `+`-separated.
    ///
    /// Read once, when the engine starts: see ``TextRecognition/response(to:options:)``. Each
    /// must be installed (`tesseract --list-langs`), or the engine fails to start.
    public var languages = "eng"
    /// Scanned pages of a PDF read at most.
    ///
    /// Also the most pages of a multi-page TIFF. Pages beyond it keep whatever text layer they
    /// have.
    public var pageLimit: Int32 = 10
    /// Milliseconds Tesseract may spend on one page.
    ///
    /// A page past it gives the words read so far.
    public var pageDeadlineMilliseconds: Int32 = 20_000
    /// Words below this confidence (0–100) are left out.
    public var minimumConfidence: Int32 = 60
    /// Images smaller than this are icons, not pictures of text.
    static let minimumShortSide: Int32 = 32
    /// An image whose longer side is shorter than this is not read either.
    static let minimumLongSide: Int32 = 100
    /// Scanned PDF pages are rendered at this resolution.
    static let dpi: Int32 = 300
    /// Images and pages with more pixels than this are refused before decoding (`--max-pixels`).
    public var maxPixels: Int64 = 256_000_000

    /// English, ten scanned pages of 20 s each, words of confidence 60 and more.
    ///
    /// Pictures of at most 256 million pixels.
    public init() {}
}

/// Whether Tesseract started in this process, or why not; started on the first OCR request,
/// so that a worker that makes only thumbnails never loads a language model.
nonisolated(unsafe) private var engineState: Result<Void, ExtractionFailure>?
/// The installed languages of the scripts the configured ones do not write
/// (``TesseractLanguages/scriptTable(configured:installed:)``), kept for the process as C text.
nonisolated(unsafe) private var scriptLanguages: UnsafeMutablePointer<CChar>?

/// Answers ``ExtractionKind/ocr`` requests through Tesseract.
public enum TextRecognition {
    /// Recognised text of an image, or of the pages of a PDF that have no text layer.
    ///
    /// The first call starts Tesseract with `options.languages` (and limits OpenMP to one
    /// thread); later calls reuse the engine, so later options' languages are ignored. A failure
    /// to start is remembered, and every later request fails the same way, at once.
    ///
    /// Not thread-safe: the engine and its state are globals of the process, so one thread
    /// calls this at a time (the extraction worker answers its requests one by one).
    ///
    /// - Parameters:
    ///   - request: An ``ExtractionKind/ocr`` request naming a file the worker may open.
    ///   - options: The limits of the reading.
    /// - Returns: The text read (with the picture's size), or the failure; never throws.
    public static func response(to request: ExtractionRequest, options: OCROptions) -> ExtractionResponse {
        if engineState == nil {
            // Tesseract's OpenMP threads cost several times more than they give on a shared
            // machine: the workers are the parallelism (the pool sets this too).
            SystemCall.setEnvironmentValue("OMP_THREAD_LIMIT", to: "1")
            var error: UnsafeMutablePointer<CChar>?
            if cocr_initialize(nil, options.languages, &error) == 0 {
                engineState = .success(())
                let configured = options.languages.split(separator: "+").map(String.init)
                scriptLanguages = strdup(TesseractLanguages.scriptTable(configured: configured,
                                                                        installed: TesseractLanguages.installed()))
            } else {
                let message = error.map { String(cString: $0) } ?? "cannot start Tesseract"
                free(error)
                engineState = .failure(ExtractionFailure(.internalError, message))
            }
        }
        if case .failure(let error) = engineState { return ExtractionResponse(answering: request, failure: error) }
        return WorkerFile.answering(request) { recognize(request, descriptor: $0, options: options) }
    }

    /// Reads the text of the image open at `descriptor`, or hands a PDF to
    /// ``recognizePDF(_:descriptor:settings:options:)``.
    ///
    /// Only a TIFF has its pages read (up to the page limit); the other images their first
    /// frame. Pictures too small to hold text, or larger than ``OCROptions/maxPixels``, are not
    /// read.
    static func recognize(_ request: ExtractionRequest, descriptor: Int32, options: OCROptions) -> ExtractionResponse {
        var settings = cocr_options()
        settings.max_pixels = options.maxPixels
        settings.min_short_side = OCROptions.minimumShortSide
        settings.min_long_side = OCROptions.minimumLongSide
        settings.min_confidence = options.minimumConfidence
        settings.page_deadline_ms = options.pageDeadlineMilliseconds
        settings.dpi = OCROptions.dpi
        settings.text_limit = Int(request.limit)
        settings.prefilter = 1
        settings.max_image_pages = 1
        settings.script_languages = UnsafePointer(scriptLanguages)
        if DocumentFormat(contentType: request.contentType, fileName: request.path.lastPathComponent) == .pdf {
            return recognizePDF(request, descriptor: descriptor, settings: settings, options: options)
        }
        // A TIFF's pages are pages of a scan; a GIF's or a WebP's frames are not.
        settings.max_image_pages = request.contentType == "image/tiff" ? options.pageLimit : 1
        var result = cocr_result()
        cocr_recognize(descriptor, -1, &settings, &result)
        defer { cocr_result_clear(&result) }
        switch outcome(of: result) {
        case .success(let text):
            var document = ExtractedDocument(text: text, isTextTruncated: result.truncated != 0)
            if result.width > 0 {
                document.pixelWidth = Int(result.width)
                document.pixelHeight = Int(result.height)
            }
            return ExtractionResponse(jobID: request.jobID, kindRawValue: request.kindRawValue,
                                      originalWidth: Int(result.width), originalHeight: Int(result.height),
                                      outcome: .document(document))
        case .failure(let failure):
            return ExtractionResponse(answering: request, failure: failure)
        }
    }

    /// A PDF read again page by page (``PDFExtractor``): each page with a text layer of its own
    /// as it is, each scanned page (up to the page limit) by OCR of its picture, in page order —
    /// the whole document's text, with its metadata. A page that cannot be rendered keeps what
    /// little text it has; the document fails only when it cannot be opened.
    ///
    /// A PDF page is rendered at ``OCROptions/dpi`` dots per inch before it is read.
    static func recognizePDF(_ request: ExtractionRequest, descriptor: Int32, settings: cocr_options,
                             options: OCROptions) -> ExtractionResponse {
        var settings = settings
        do {
            let document = try PDFExtractor.extract(
                descriptor: descriptor, textLimit: Int(request.limit), recognizedPageLimit: Int(options.pageLimit)
            ) { page in
                var result = cocr_result()
                cocr_recognize(descriptor, Int32(clamping: page), &settings, &result)
                defer { cocr_result_clear(&result) }
                return try? outcome(of: result).get()
            }
            return ExtractionResponse(jobID: request.jobID, kindRawValue: request.kindRawValue,
                                      originalWidth: 0, originalHeight: 0, outcome: .document(document))
        } catch {
            return ExtractionResponse(answering: request, failure: error)
        }
    }

    /// The text of a reading, or why it failed.
    ///
    /// Invalid UTF-8 in the text becomes U+FFFD. The result is read, not cleared: its owner
    /// calls `cocr_result_clear`.
    static func outcome(of result: cocr_result) -> Result<String, ExtractionFailure> {
        let message = result.error.map { String(cString: $0) } ?? ""
        switch result.status {
        case COCR_OK:
            return .success(result.text.map {
                String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self),
                                                     count: result.length), as: UTF8.self)
            } ?? "")
        case COCR_NOT_AN_IMAGE: return .failure(ExtractionFailure(.notAnImage, message))
        case COCR_TOO_LARGE: return .failure(ExtractionFailure(.tooLarge, message))
        case COCR_DECODE_FAILED: return .failure(ExtractionFailure(.decodeFailed, message))
        default: return .failure(ExtractionFailure(.internalError, message))
        }
    }
}

extension Array where Element == UInt8 {
    /// The bytes after the last `/`.
    var lastPathComponent: ArraySlice<UInt8> {
        guard let slash = lastIndex(of: UInt8(ascii: "/")) else { return self[...] }
        return self[index(after: slash)...]
    }
}
