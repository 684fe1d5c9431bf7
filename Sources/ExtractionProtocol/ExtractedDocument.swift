/// What a worker read from inside a document: the answer to an ``ExtractionKind/text`` request.
///
/// Every format's extractor (plain text, Markdown, HTML, e-mail, PDF, office documents, EPUB,
/// RTF, photos' EXIF) fills the fields it knows and leaves the others empty; the indexer turns
/// them into attributes. Text is UTF-8, already capped at the request's limit.
///
/// Word breaks for the index: in scripts written without spaces between words (Han,
/// Hiragana, Katakana, Thai, Lao, Khmer, Myanmar), the worker marks the word boundaries ICU's
/// dictionary-based word breaker finds with U+200B ZERO WIDTH SPACE, in ``text`` only (titles,
/// authors and keywords are left exactly as written): `東京都庁の写真` arrives as `東京\u{200B}都庁\u{200B}の\u{200B}写真`. FTS5's
/// `unicode61` tokenizer treats U+200B (a format character) as a separator, so such text can
/// be indexed as it comes, and it displays unchanged; a consumer that wants the original
/// text removes every U+200B (`text.replacing("\u{200B}", with: "")`). Text in other scripts
/// is left as the document has it.
public struct ExtractedDocument: Sendable, Hashable {
    /// The document's own title (PDF Info, `dc:title`, `<title>`, a Markdown heading, a Subject).
    public var title: String?
    /// Its authors, in order.
    public var authors: [String]
    /// Its own keywords (PDF Keywords, `cp:keywords`, meta keywords, attachment names).
    public var keywords: [String]
    /// A short description or subject, when the format has one apart from the title.
    public var subject: String?
    /// Searchable text, UTF-8, at most the request's limit in bytes.
    public var text: String
    /// Whether `text` was cut at the limit.
    public var isTextTruncated: Bool
    /// Pages of a document, slides of a presentation.
    public var pageCount: Int?
    /// A PDF's pages that are pictures of text with almost no text layer of their own (scans),
    /// among the pages read; OCR reads them.
    public var scannedPageCount: Int?
    /// Of those, the pages OCR read (an ``ExtractionKind/ocr`` answer; at most its page limit).
    public var recognizedPageCount: Int?
    /// The document's own creation date (PDF, office metadata, EXIF DateTimeOriginal, e-mail
    /// Date), in seconds since 1970-01-01 UTC.
    public var creationDate: Double?
    /// The document's own modification date, in seconds since 1970-01-01 UTC.
    public var modificationDate: Double?
    /// A photo's size in pixels.
    public var pixelWidth: Int?
    /// A photo's height in pixels (its width is ``pixelWidth``).
    public var pixelHeight: Int?
    /// A photo's camera (EXIF Make and Model).
    public var acquisitionMake: String?
    /// The camera's model (EXIF Model), beside its maker in ``acquisitionMake``.
    public var acquisitionModel: String?
    /// Where a photo was taken, in degrees (north and east positive).
    public var latitude: Double?
    /// East of Greenwich in degrees, negative to the west (``latitude`` is the other half).
    public var longitude: Double?

    /// A document with what an extractor read; the photo fields are set one by one after.
    public init(
        title: String? = nil, authors: [String] = [], keywords: [String] = [], subject: String? = nil,
        text: String = "", isTextTruncated: Bool = false, pageCount: Int? = nil,
        creationDate: Double? = nil, modificationDate: Double? = nil
    ) {
        self.title = title
        self.authors = authors
        self.keywords = keywords
        self.subject = subject
        self.text = text
        self.isTextTruncated = isTextTruncated
        self.pageCount = pageCount
        self.creationDate = creationDate
        self.modificationDate = modificationDate
    }
}
