import CLibPoppler
import ExtractionProtocol
import SystemCalls

/// Reads a PDF's metadata and text through poppler's GLib interface.
///
/// Title, authors, keywords and subject come from the Info dictionary, the title from the
/// XMP packet's `dc:title` when Info has none; text is read page by page until the limit.
/// A PDF that needs a password fails with ``ExtractionFailure/Code/encrypted``.
///
/// Each page is judged by its own text layer, never by the document's metadata (a scanner's
/// `Subject: Converted …` is no text of a page): a page with almost no letters of its own is
/// a scanned page (``ScannedPage``), counted in ``ExtractedDocument/scannedPageCount``; OCR
/// (``TextRecognition``) reads the document again with a `recognizePage` that reads such
/// pages' pictures, and their text lands at the page's place in the document's text.
///
/// The cost is poppler's: opening the document, then one text extraction per page read,
/// stopped by the text limit or the time budget; a scanned page costs `recognizePage` on top.
/// The first call in a process also opens a one-page PDF that stays open
/// (`keepsGlobalParameters`), so that later documents do not set poppler's global
/// parameters up again.
///
/// ```swift
/// let pdf = try PDFExtractor.extract(descriptor: fd, textLimit: 1 << 20)
/// if let scanned = pdf.scannedPageCount, scanned > 0 { /* ask for OCR */ }
/// ```
///
/// ## Topics
///
/// ### Extracting
///
/// - ``extract(descriptor:textLimit:timeBudget:recognizedPageLimit:recognizePage:)``
public enum PDFExtractor {
    /// Extracts the PDF readable from `descriptor` (not closed; read from its start).
    /// The corresponding C functions are `poppler_document_new_from_fd` and `poppler_page_get_text`.
    ///
    /// Dates are seconds since 1970, from the Info dictionary only. Each page's text is appended
    /// followed by a break; a scanned page's recognized text follows whatever text layer it has.
    /// The time budget is checked every 64 pages, so it may be overrun by up to 63 pages' worth.
    ///
    /// - Parameters:
    ///   - descriptor: A PDF open for reading. It is duplicated (poppler closes what it is
    ///     given), so the caller keeps and closes its own; its offset is moved to 0.
    ///   - textLimit: The most UTF-8 bytes of text kept; reaching it marks the text truncated.
    ///   - timeBudget: How long pages may be read; then the text so far is kept and
    ///     marked truncated, so a PDF of a million empty pages ends with its metadata instead of
    ///     running into the worker's deadline.
    ///   - recognizedPageLimit: Scanned pages `recognizePage` is asked for, at most.
    ///   - recognizePage: Reads the picture of a scanned page (its index from 0): its text, or
    ///     nil when it could not; its time does not count in `timeBudget`.
    /// - Returns: The metadata, page count, text, the number of scanned pages among those read
    ///   and, when `recognizePage` was given, how many of them it read.
    /// - Throws: ``ExtractionFailure`` `encrypted` for a PDF that needs a password,
    ///   `decodeFailed` for one poppler cannot open, `unreadable` when the descriptor cannot be
    ///   duplicated.
    public static func extract(
        descriptor: Int32, textLimit: Int, timeBudget: Duration = .seconds(5), recognizedPageLimit: Int = 0,
        recognizePage: ((Int) -> String?)? = nil
    ) throws(ExtractionFailure) -> ExtractedDocument {
        // poppler closes the descriptor it is given, on success and on failure alike.
        let copy: Int32
        do {
            copy = try SystemCall.duplicate(descriptor)
        } catch {
            throw ExtractionFailure(.unreadable, "dup: \(error)")
        }
        try? SystemCall.seek(copy, to: 0)
        _ = keepsGlobalParameters
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_fd(copy, nil, &error) else {
            defer { g_error_free(error) }
            let message = error.map { String(cString: $0.pointee.message) } ?? "cannot open the PDF"
            if let error, error.pointee.domain == poppler_error_quark(), error.pointee.code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
                throw ExtractionFailure(.encrypted, "encrypted PDF: a password is needed to read it")
            }
            throw ExtractionFailure(.decodeFailed, message)
        }
        defer { g_object_unref(UnsafeMutableRawPointer(document)) }

        var result = ExtractedDocument()
        result.title = takeString(poppler_document_get_title(document))
        if result.title == nil, let xmp = takeString(poppler_document_get_metadata(document)) {
            result.title = try? XMPMetadata.title(in: Array(xmp.utf8))
        }
        if let author = takeString(poppler_document_get_author(document)) {
            result.authors = MetadataList.authors(author)
        }
        if let keywords = takeString(poppler_document_get_keywords(document)) {
            result.keywords = MetadataList.keywords(keywords)
        }
        result.subject = takeString(poppler_document_get_subject(document))
        let created = poppler_document_get_creation_date(document)
        if created > 0 { result.creationDate = Double(created) }
        let modified = poppler_document_get_modification_date(document)
        if modified > 0 { result.modificationDate = Double(modified) }

        let pages = Int(poppler_document_get_n_pages(document))
        result.pageCount = pages
        var text = TextCollector(limit: textLimit)
        let clock = ContinuousClock()
        var deadline = clock.now.advanced(by: timeBudget)
        var scanned = 0, recognized = 0
        for index in 0..<pages {
            if text.isFull || (index % 64 == 0 && clock.now >= deadline) {
                text.markTruncated()
                break
            }
            guard let page = poppler_document_get_page(document, Int32(index)) else { continue }
            var pageText = takeString(poppler_page_get_text(page))
            if ScannedPage.isScanned(page, ownText: pageText) {
                scanned += 1
                if let recognizePage, recognized < recognizedPageLimit {
                    let started = clock.now
                    if let read = recognizePage(index) {
                        recognized += 1
                        // The page's own few words (a stamp, a page number) stay, before its reading.
                        if !read.isEmpty { pageText = pageText.map { $0 + "\n" + read } ?? read }
                    }
                    deadline = deadline.advanced(by: clock.now - started)
                }
            }
            if let pageText {
                text.append(pageText)
                text.appendBreak()
            }
            g_object_unref(UnsafeMutableRawPointer(page))
        }
        result.setText(text)
        result.scannedPageCount = scanned
        if recognizePage != nil { result.recognizedPageCount = recognized }
        return result
    }

    /// Which pages are scans: judged by the page alone.
    ///
    /// The two thresholds keep a page of real text (a paragraph has hundreds of letters) from
    /// being taken for a scan, and a scan with a short stamp from being taken for text.
    enum ScannedPage {
        /// A page with fewer letters and digits than this in its own text layer is a scan.
        static let fewLetters = 16
        /// A page whose text layer has fewer letters than this, under a picture that covers at
        /// least half the page, is a scan with a stamp ("Scanned by …", a page number) on it.
        static let stampLetters = 120

        /// Whether `page`, whose text layer holds `ownText`, is a picture of text.
        /// The corresponding C functions are `poppler_page_get_image_mapping` and `poppler_page_get_size`.
        ///
        /// Cheap for a page of real text: the letters are counted only up to ``stampLetters``, and
        /// the pictures are looked at only for a page with a few letters.
        ///
        /// - Parameters:
        ///   - page: A `PopplerPage`.
        ///   - ownText: The page's text layer, `nil` when it has none.
        static func isScanned(_ page: OpaquePointer, ownText: String?) -> Bool {
            let letters = letterCount(ownText ?? "", upTo: stampLetters)
            if letters < fewLetters { return true }
            guard letters < stampLetters else { return false }
            return pictureCoverage(page) >= 0.5
        }

        /// Letters and digits in `text`, counted up to `limit`.
        ///
        /// Letters of any script count (`isAlphabetic`), and any scalar with a numeric type.
        static func letterCount(_ text: String, upTo limit: Int) -> Int {
            var count = 0
            for scalar in text.unicodeScalars where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                count += 1
                if count >= limit { break }
            }
            return count
        }

        /// The largest share of the page one picture covers (0 when none).
        ///
        /// The areas of the page's image mappings, in the page's units; overlapping pictures are not
        /// added together.
        static func pictureCoverage(_ page: OpaquePointer) -> Double {
            var width = 0.0, height = 0.0
            poppler_page_get_size(page, &width, &height)
            guard width > 0, height > 0, let mappings = poppler_page_get_image_mapping(page) else { return 0 }
            defer { poppler_page_free_image_mapping(mappings) }
            var largest = 0.0
            var node: UnsafeMutablePointer<GList>? = mappings
            while let current = node {
                if let mapping = current.pointee.data?.assumingMemoryBound(to: PopplerImageMapping.self) {
                    let area = mapping.pointee.area
                    largest = max(largest, abs(area.x2 - area.x1) * abs(area.y2 - area.y1))
                }
                node = current.pointee.next
            }
            return min(1, largest / (width * height))
        }
    }

    /// Whether a one-page PDF is open for the rest of the process (opened, and left open, on
    /// first use).
    ///
    /// poppler's GLib interface sets up its global parameters (encoding tables, a scan of its
    /// data folders) when a document opens while none is, and tears them down when the last
    /// one closes: without a document kept open, every PDF paid that again — about 0.9 ms of
    /// CPU, where reading a small PDF's text takes 0.1 ms.
    /// The corresponding C function is `poppler_document_new_from_bytes`.
    ///
    /// A `static let`, so Swift runs the opening once, whatever the threads that first touch it.
    static let keepsGlobalParameters: Bool = {
        let pdf = Array("""
            %PDF-1.4
            1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj
            2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj
            3 0 obj<</Type/Page/MediaBox[0 0 1 1]/Parent 2 0 R>>endobj
            trailer<</Root 1 0 R>>
            %%EOF

            """.utf8)
        let bytes = pdf.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        // Never released: it is what keeps the parameters.
        return poppler_document_new_from_bytes(bytes, nil, nil) != nil
    }()

    /// A GLib-allocated string as a Swift string (freed), nil when NULL or only whitespace.
    ///
    /// Always frees `pointer` (with `g_free`), so the caller must own it: poppler's `get_title`,
    /// `get_text` and the like return such strings.
    static func takeString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
        guard let pointer else { return nil }
        defer { g_free(pointer) }
        let text = String(cString: pointer).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }
}
