import ExtractionProtocol
import Searchlight

extension ItemExtraction {
    /// Once per domain, after an upgrade whose content readers read files earlier ones left
    /// without text (``ContentReader/generation``: subtitles and other files libmagic calls
    /// text under another type), forgets the change stamp of the domain's items that have no
    /// text and that today's readers read, so that the next reconcile reads them again. A new
    /// domain's state starts at today's generation; a failure is logged, never the reason a scan
    /// or a watch fails. Needs the content reader (not with `--no-content`).
    public func rereadNewlyReadable(in index: any FileIndexStore, domain: String) {
        guard contentReader != nil else { return }
        do {
            guard var state = try index.domainState(domain),
                  (state.contentReaders ?? 1) < ContentReader.generation else { return }
            // The listing carries no text: the candidates are read whole, one by one.
            var candidates: [ItemIdentifier] = []
            try index.forEachItem(domain: domain) { indexed in
                let item = indexed.item
                if item.failure == nil, item.changeStamp != nil, Self.isReadAsTextSinceGeneration2(item.attributeSet) {
                    candidates.append(item.uniqueIdentifier)
                }
                return true
            }
            var batch = IndexBatch()
            for identifier in candidates {
                guard var item = try index.item(identifier, domain: domain)?.item,
                      (item.attributeSet.textContent ?? "").isEmpty else { continue }
                item.changeStamp = nil
                batch.upsert(item)
            }
            let count = batch.changes.count
            state.contentReaders = ContentReader.generation
            try index.apply(batch, states: [domain: state])
            if count > 0 {
                logger.notice("reading again \(count) files that this version reads as text", metadata: ["domain": "\(domain)"])
            }
        } catch {
            logger.warning("cannot mark the files to read again: \(error)")
        }
    }

    /// Whether generation 2 reads a file of these attributes as text where generation 1 did not:
    /// a type outside `text/` that only libmagic's description says is text, or one of the
    /// `application/…` text types added then (the four read as text before are not).
    static func isReadAsTextSinceGeneration2(_ attributes: AttributeSet) -> Bool {
        guard let type = attributes.contentType, !type.hasPrefix("text/") else { return false }
        let name = Array((attributes.displayName ?? "").utf8)
        if DocumentFormat(contentType: type, fileName: name) == .plainText {
            return !["application/json", "application/javascript", "application/x-ndjson", "application/csv"].contains(type)
        }
        return DocumentFormat.readableType(contentType: type, fileName: name, description: attributes.contentDescription)
            == "text/plain"
    }
}
