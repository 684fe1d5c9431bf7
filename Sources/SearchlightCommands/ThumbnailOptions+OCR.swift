import Searchlight
import SearchlightFiles

extension ThumbnailOptions {
    /// Checks OCR's languages and sets the workers' OCR settings from the configuration.
    static func setOCR(_ configuration: Configuration, pool: inout ExtractorPool.Configuration) throws {
        let settings = OCRSettings(languages: configuration.ocrLanguageList, pageLimit: configuration.ocrPageLimit.value,
                                   pageDeadline: .seconds(configuration.ocrPageDeadline.value))
        if let missing = settings.missingLanguages().first {
            throw CommandFailure.fail("""
                OCR language '\(missing.language)' is not installed: install Debian's package \(missing.package) \
                (apt install \(missing.package)), or change ocr-languages, or use --no-ocr
                """)
        }
        pool.ocr = settings
    }

    /// Opens the OCR queue of `index`; nil, with a warning, when the queue cannot be opened
    /// (a read-only cache folder): the scan goes on without OCR, which is never the reason it fails.
    static func openOCRQueue(index: any IndexWriter) -> OCRStore? {
        let path = OCRStore.location(for: index)
        do {
            return try OCRStore(path: path, indexPath: index.path)
        } catch {
            StandardError.write("searchlight: warning: no OCR this time: cannot open its queue \(path): \(error)\n")
            return nil
        }
    }
}

extension Configuration {
    /// A Tesseract language name (`eng`, `chi_sim`, `deu_latf`): letters, digits and `_`.
    static func isLanguageName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 32
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
