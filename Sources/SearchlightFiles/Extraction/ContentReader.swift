import ExtractionProtocol
import Foundation
import Logging
import Searchlight

/// Step ③ of the write path, extraction: what is inside documents.
///
/// Reads what is inside documents during a scan — text, title, authors, keywords, dates,
/// pages — through supervised extraction workers, and puts it in the items' attributes.
///
/// Only files with a ``DocumentFormat`` (by libmagic's type and the name) cost a round trip
/// to a worker. A document the worker cannot read (text in no recognisable encoding, a
/// broken file, a timeout, a crash) keeps what its name and type give, and its failure is
/// recorded with the item — quietly: it is logged at `debug` level, not shown as an error —
/// and not retried until the file changes. Its ``enrich(_:in:)`` runs on the scanner's
/// inspector threads and blocks on the pool, off the Swift cooperative pool.
///
/// ```swift
/// let reader = ContentReader(pool: pool, keywordRanker: try index.keywordRanker(), logger: logger)
/// if let document = reader.enrich(&item, in: root) { print(document.title ?? "", document.text.count) }
/// ```
public final class ContentReader: Sendable {
    /// The workers that decode.
    let pool: ExtractorPool
    /// Picks each text's telling words for its keywords, when given.
    let keywordRanker: KeywordRanker?
    /// Where documents that cannot be read are reported, at debug level.
    let logger: Logger

    /// Reads documents through `pool`, whose ``ExtractorPool/Configuration/textLimit`` caps their
    /// text; `keywordRanker`, when given, picks the telling words of each text for its keywords.
    ///
    /// - Parameters:
    ///   - pool: The extraction workers.
    ///   - keywordRanker: The index's ranker of telling words (it reads the index's word
    ///     statistics); `nil`: a document's own keywords only.
    ///   - logger: Where documents that cannot be read are reported.
    public init(pool: ExtractorPool, keywordRanker: KeywordRanker? = nil, logger: Logger) {
        self.pool = pool
        self.keywordRanker = keywordRanker
        self.logger = logger
    }

    /// The generation of the content readers: raised when a release reads files that earlier
    /// ones left without text, so that items indexed before are read again once
    /// (``ItemExtraction/rereadNewlyReadable(in:domain:)``). 2: every file libmagic types or
    /// describes as text (issue 34). 3: private key blocks cut out of every text, and key
    /// material recognised by parsing (issue 32). 4: a compressed single file read as the file
    /// inside it (issue 48). 5: manual pages read as the text they print, not their roff markup.
    /// 6: a weak libmagic guess gives way to the name and the bytes (``TypeEvidence``); Johab,
    /// Windows-874 in XML, declarations the bytes belie (issue 51).
    public static let generation = 6

    /// Whether a file of `contentType` named `fileName`, which libmagic describes as
    /// `description`, has content to read (text is, whatever its type: see
    /// ``DocumentFormat/readableType(contentType:fileName:description:)``).
    ///
    /// Decided from the type, the name and libmagic's description alone; the file is not
    /// opened.
    ///
    /// - Returns: Whether ``enrich(_:in:)`` would ask a worker for the file.
    public static func readsContent(contentType: String?, fileName: String, description: String? = nil) -> Bool {
        readableType(contentType: contentType, fileName: fileName, description: description) != nil
    }

    /// The type under which a worker reads the file, nil when it has no content to read.
    static func readableType(contentType: String?, fileName: String, description: String?) -> String? {
        guard let contentType else { return nil }
        return DocumentFormat.readableType(contentType: contentType, fileName: Array(fileName.utf8), description: description)
    }

    /// Adds what the document holds to `item`, or records why it could not be read.
    ///
    /// Blocks until a worker has read the file (or the deadline passed). What it does with a
    /// failure depends on what the failure says: workers that are out leave the item without
    /// a change stamp, so that a later run reads it; a type no reader takes leaves the item
    /// as it is; any other failure is recorded in ``Searchlight/SearchableItem/failure``,
    /// after a thumbnail's.
    ///
    /// - Parameters:
    ///   - item: The item of a file below `root`, its type and name already known.
    ///   - root: The folder the item's identifier is relative to.
    /// - Returns: what was read, nil when nothing was.
    @discardableResult
    public func enrich(_ item: inout SearchableItem, in root: RootFolder) -> ExtractedDocument? {
        let attributes = item.attributeSet
        guard let readableType = Self.readableType(contentType: attributes.contentType, fileName: attributes.displayName ?? "",
                                                   description: attributes.contentDescription) else { return nil }
        switch pool.document(ofFileAtPathBytes: root.absolutePath(of: item.uniqueIdentifier), contentType: readableType) {
        case .success(let document):
            Self.fill(&item.attributeSet, from: document)
            if let keywordRanker { rankKeywords(of: &item.attributeSet, own: document.keywords, with: keywordRanker) }
            return document
        case .failure(let failure) where failure.isTransient:
            // The workers are out: left as its name and type describe it, not marked as failed,
            // and stored without a change stamp, so that a later scan or watch reads it.
            item.changeStamp = nil
        case .failure(let failure) where failure.reason == .unsupported:
            // Says nothing about the file: left as its name and type describe it, not marked as failed.
            break
        case .failure(let failure):
            logger.debug("cannot read content", metadata: [
                "path": "\(item.uniqueIdentifier.lossyString)", "reason": "\(failure.message)",
            ])
            // Stored as `reason: content: message`; after a thumbnail's failure, its reason stays first.
            let recorded = item.failure.map(ExtractionFailure.init(stored:))
            item.failure = ExtractionFailure(recorded?.reason ?? failure.reason,
                                             [recorded?.message, "content: \(failure.message)"].compactMap { $0 }.joined(separator: "; ")).stored
        }
        return nil
    }

    /// The keywords of Docs/Contract.md#what-is-indexed: the document's own, then the most telling words of its text
    /// (frequent in it, rare in the index), then its name's words; the name's and type's words
    /// that the item had stay as the fallback when there are none of these.
    func rankKeywords(of attributes: inout AttributeSet, own: [String], with ranker: KeywordRanker) {
        var seen = Set<String>()
        let nameWords = NameTokenizer.words(in: attributes.displayName ?? "").filter { $0.count > 1 && seen.insert($0).inserted }
        do {
            attributes.keywords = try ranker.keywords(own: own, text: attributes.textContent, nameWords: nameWords,
                                                      fallback: attributes.keywords)
        } catch {
            // The statistics could not be read: the keywords the item has are still good ones.
            logger.debug("cannot rank keywords", metadata: ["reason": "\(error)"])
        }
    }

    /// A document's text as its item holds it: a description (HTML meta, a PDF's Subject) is
    /// searchable like the text, before it, unless the text says it already.
    ///
    /// - Parameter document: What a worker read.
    /// - Returns: The subject and a blank line before the text, or the text alone.
    public static func searchableText(of document: ExtractedDocument) -> String {
        guard let subject = document.subject, !document.text.contains(subject) else { return document.text }
        return document.text.isEmpty ? subject : subject + "\n\n" + document.text
    }

    /// How many keywords an item keeps: the document's own first, then those of its name and type.
    static let keywordLimit = 10

    /// Puts a document's content into a file's attributes: its text, its own title (else the
    /// name's stays), authors, its own keywords before the name's, its creation date, pages,
    /// and a photo's size, camera and position where the document has them.
    ///
    /// At most ``keywordLimit`` keywords are kept, the document's own first; a keyword that
    /// differs from one before it only in case is dropped.
    ///
    /// - Parameters:
    ///   - attributes: The file's attributes, from its name and type.
    ///   - document: What a worker read.
    public static func fill(_ attributes: inout AttributeSet, from document: ExtractedDocument) {
        let text = searchableText(of: document)
        if !text.isEmpty { attributes.textContent = text }
        if let title = document.title { attributes.title = title }
        if !document.authors.isEmpty { attributes.authors = document.authors }
        if !document.keywords.isEmpty {
            var seen = Set<String>()
            let own = document.keywords.prefix(keywordLimit)
            attributes.keywords = Array((own + attributes.keywords).filter { seen.insert($0.lowercased()).inserted }
                .prefix(max(keywordLimit, own.count)))
        }
        if let date = document.creationDate { attributes.contentCreationDate = Date(timeIntervalSince1970: date) }
        if let pageCount = document.pageCount { attributes.pageCount = pageCount }
        if let width = document.pixelWidth { attributes.pixelWidth = width }
        if let height = document.pixelHeight { attributes.pixelHeight = height }
        if let make = document.acquisitionMake { attributes.acquisitionMake = make }
        if let model = document.acquisitionModel { attributes.acquisitionModel = model }
        if let latitude = document.latitude { attributes.latitude = latitude }
        if let longitude = document.longitude { attributes.longitude = longitude }
    }
}
