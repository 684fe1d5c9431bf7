import ExtractionProtocol
import Searchlight

extension ItemExtraction {
    /// Once per domain, after an upgrade whose content readers read files differently
    /// (``ContentReader/generation``), forgets the change stamp of the domain's items that
    /// today's readers read otherwise, so that the next reconcile reads them again:
    /// - generation 2: files without text that are now read as text (subtitles and other files
    ///   libmagic calls text under another type);
    /// - generation 3: items whose text holds a private key block (now cut out), or that are
    ///   key material themselves (now left out of the index), found through the full-text
    ///   index by the words every such block has;
    /// - generation 4: compressed single files (`changelog.gz`), once listed as an archive's one
    ///   member or failed as a damaged archive, now read as the file inside them (tarballs,
    ///   named so, are read as before);
    /// - generation 5: manual pages (`ls.1`, `ls.1.gz`, any roff file), once stored as their
    ///   roff markup, now read as the text they print;
    /// - generation 6: files whose type libmagic guessed weakly and that the name and bytes may
    ///   type otherwise (``TypeEvidence``), and text in Johab, Windows-874 or another encoding
    ///   libmagic finds outside ISO-8859, and XML and HTML in ISO-8859 bytes, now decoded otherwise.
    /// A new domain's state starts at today's generation; a failure is logged, never the reason
    /// a scan or a watch fails. Needs the content reader (not with `--no-content`).
    ///
    /// Costs, once per upgrade: a listing of the domain's items for each generation it is
    /// behind (generation 3 uses two word searches instead), then a read of each candidate whole;
    /// all the changes and the new generation are written in one batch, so the items marked are
    /// held in memory, text included, until it is written. Blocks the calling thread.
    ///
    /// - Parameters:
    ///   - index: The index of the domain.
    ///   - domain: The domain, whose state records the generation its items were read with.
    public func rereadNewlyReadable(in index: any FileIndexWriter, domain: String) {
        guard contentReader != nil else { return }
        do {
            guard var state = try index.domainState(domain) else { return }
            let generation = state.contentReaders ?? 1
            guard generation < ContentReader.generation else { return }
            var batch = IndexBatch()
            if generation < 2 {
                for identifier in try candidates(in: index, domain: domain, where: { item in
                    item.failure == nil && Self.isReadAsTextSinceGeneration2(item.attributeSet)
                }) {
                    guard var item = try index.item(identifier, domain: domain)?.item,
                          (item.attributeSet.textContent ?? "").isEmpty else { continue }
                    item.changeStamp = nil
                    batch.upsert(item)
                }
            }
            if generation < 3 {
                var candidates = Set<ItemIdentifier>()
                for words in [["private", "key"], ["putty", "user", "key", "file"]] {
                    candidates.formUnion(try index.searchIdentifiers(words: words, domain: domain, limit: nil, scope: .all))
                }
                for identifier in candidates.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
                    guard var item = try index.item(identifier, domain: domain)?.item, item.changeStamp != nil,
                          let text = item.attributeSet.textContent,
                          SecretContent.removingKeyBlocks(from: text) != text else { continue }
                    // Cut at once (the reconcile's reading may be minutes away under a busy watch).
                    item.attributeSet.textContent = SecretContent.removingKeyBlocks(from: text)
                    item.changeStamp = nil
                    batch.upsert(item)
                }
            }
            if generation < 4 {
                for identifier in try candidates(in: index, domain: domain, where: { Self.isCompressedSingleFile($0.attributeSet) }) {
                    guard var item = try index.item(identifier, domain: domain)?.item else { continue }
                    item.changeStamp = nil
                    batch.upsert(item)
                }
            }
            if generation < 5 {
                // Generation 4 already reads every compressed single file again.
                for identifier in try candidates(in: index, domain: domain, where: {
                    Self.isManualPage($0.attributeSet) && !(generation < 4 && Self.isCompressedSingleFile($0.attributeSet))
                }) {
                    guard var item = try index.item(identifier, domain: domain)?.item else { continue }
                    item.changeStamp = nil
                    batch.upsert(item)
                }
            }
            if generation < 6 {
                let marked = Set(batch.changes.compactMap { change -> ItemIdentifier? in
                    if case .upsert(let item) = change { return item.uniqueIdentifier }
                    return nil
                })
                for identifier in try candidates(in: index, domain: domain, where: { Self.isTypedOrDecodedOtherwiseSinceGeneration6($0.attributeSet) })
                where !marked.contains(identifier) {
                    guard var item = try index.item(identifier, domain: domain)?.item else { continue }
                    item.changeStamp = nil
                    batch.upsert(item)
                }
            }
            let count = batch.changes.count
            state.contentReaders = ContentReader.generation
            try index.apply(batch, states: [domain: state])
            if count > 0 {
                logger.notice("reading again \(count) files that this version reads otherwise", metadata: ["domain": "\(domain)"])
            }
        } catch {
            logger.warning("cannot mark the files to read again: \(error)")
        }
    }

    /// The domain's items with a change stamp for which `isCandidate` holds. The listing
    /// carries no text: the caller reads the candidates whole, one by one.
    ///
    /// Items without a change stamp are left out: they are read again anyway.
    ///
    /// - Throws: The index's errors.
    private func candidates(in index: any FileIndexWriter, domain: String, where isCandidate: (SearchableItem) -> Bool)
        throws -> [ItemIdentifier]
    {
        var candidates: [ItemIdentifier] = []
        try index.forEachItem(domain: domain) { indexed in
            if indexed.item.changeStamp != nil, isCandidate(indexed.item) {
                candidates.append(indexed.item.uniqueIdentifier)
            }
            return true
        }
        return candidates
    }

    /// Whether generation 4 reads a file of these attributes otherwise: a compressed file whose
    /// name does not say it is a tarball (`.tar.gz`, `.tgz`…).
    ///
    /// Judged by the stored type and display name alone, as an item of the index has them.
    static func isCompressedSingleFile(_ attributes: AttributeSet) -> Bool {
        guard let type = attributes.contentType, DocumentFormat.compressedTypes.contains(type) else { return false }
        let name = (attributes.displayName ?? "").lowercased()
        return !name.contains(".tar.") && ![".tgz", ".tbz", ".tbz2", ".txz", ".tzst", ".tlz", ".taz"].contains { name.hasSuffix($0) }
    }

    /// Whether generation 5 reads a file of these attributes otherwise: roff by its type, or
    /// text or a compressed file named as a manual page is (`ls.1`, `ls.1.gz`).
    static func isManualPage(_ attributes: AttributeSet) -> Bool {
        guard let type = attributes.contentType else { return false }
        if DocumentFormat.isRoffType(type) { return true }
        return (type.hasPrefix("text/") || DocumentFormat.compressedTypes.contains(type))
            && DocumentFormat.isManualPageName(Array((attributes.displayName ?? "").utf8))
    }

    /// Whether generation 6 types or decodes a file of these attributes otherwise: libmagic's
    /// weak guess that the name and the bytes may overrule (``TypeEvidence``: a `.txt` libmagic
    /// called a DOS program, an `.rtf` it called text, a `.docx` it called a ZIP), or text whose
    /// high bytes libmagic found outside ISO-8859 (Johab and Windows-874, now decoded), or XML
    /// and HTML in ISO-8859 bytes (TIS-620, now decoded whatever libxml2's converter refuses).
    static func isTypedOrDecodedOtherwiseSinceGeneration6(_ attributes: AttributeSet) -> Bool {
        guard let type = attributes.contentType else { return false }
        if TypeEvidence.mayOverrule(contentType: type, fileName: Array((attributes.displayName ?? "").utf8)) { return true }
        let description = attributes.contentDescription ?? ""
        if description.contains("Non-ISO extended-ASCII") { return true }
        let name = Array((attributes.displayName ?? "").utf8)
        let format = DocumentFormat(contentType: type, fileName: name)
        return (format == .xml || format == .html) && description.contains("ISO-8859")
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
