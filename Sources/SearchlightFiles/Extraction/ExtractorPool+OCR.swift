import ExtractionProtocol
import Foundation

/// How the extraction workers read text in pictures (Docs/Contract.md#text-in-pictures).
public struct OCRSettings: Sendable, Equatable {
    /// Tesseract's languages (`eng`, `deu`…), each from Debian's `tesseract-ocr-LANG`.
    public var languages: [String]
    /// Pages of a PDF read at most.
    public var pageLimit: Int
    /// How long Tesseract may spend on one page; what it read by then is kept.
    public var pageDeadline: Duration
    /// Words whose confidence (0–100) is below this are left out.
    public var minimumConfidence: Int

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

    /// How long one OCR job may take before its worker is killed: every page's deadline,
    /// with room for decoding and rendering.
    var jobDeadline: Duration { pageDeadline * pageLimit + .seconds(10) }

    /// Where Debian installs Tesseract's language data.
    public static let dataFolders = ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata"]

    /// The languages whose data is not installed, each with the Debian package that has it.
    public func missingLanguages(dataFolders: [String] = OCRSettings.dataFolders) -> [(language: String, package: String)] {
        languages.filter { language in
            !dataFolders.contains { FileManager.default.fileExists(atPath: "\($0)/\(language).traineddata") }
        }.map { ($0, Self.debianPackage(of: $0)) }
    }

    /// `tesseract-ocr-deu` for `deu`; `chi_sim` is in `tesseract-ocr-chi-sim`.
    public static func debianPackage(of language: String) -> String {
        "tesseract-ocr-" + language.lowercased().replacingOccurrences(of: "_", with: "-")
    }
}

/// Text found in a picture by OCR.
public struct RecognizedText: Sendable, Hashable {
    /// What was read (empty when the picture holds no text, or a PDF has a text layer).
    public var text: String
    public var isTruncated: Bool
}

extension ExtractorPool {
    /// Reads the text in the image or the pages without a text layer of the PDF at `path`
    /// (OCR), blocking until it is done or has failed. Each page may take
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
            case .document(let document):
                return .success(RecognizedText(text: document.text, isTruncated: document.isTextTruncated))
            case .failure(let failure):
                return .failure(Self.reported(failure))
            case .thumbnail:
                return .failure(ExtractionFailure(.crashed, "extractor answered an OCR request with a thumbnail"))
            }
        }
    }
}
