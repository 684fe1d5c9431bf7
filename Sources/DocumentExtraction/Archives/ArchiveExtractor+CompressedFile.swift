import ExtractionProtocol

// A compressed single file (`changelog.gz`, `ls.1.gz`, `notes.md.zst`): the one file inside
// it, read as a file of its type is.
extension ArchiveExtractor {
    /// The document inside the compressed file `stream` reads (libarchive's raw format, its
    /// filters unwrapped), or nil when the decompressed bytes are an archive (a tar, a cpio):
    /// then the caller reads its members.
    ///
    /// The decompressed head (libmagic's first mebibyte) gives the inner type, as an archive
    /// member's bytes give its own, so libarchive never guesses an archive format from text (it
    /// took Debian changelogs for `mtree` listings). Text is read as text, a man page as the
    /// text it is, a document by its reader; a file of no readable type gives no text. The item
    /// keeps the compressed file's type; its text, title and authors are the inner document's,
    /// with no member header (nothing for `show` to list as members).
    ///
    /// Bounded as an archive's member is: at most ``ArchiveLimits/maximumEntrySize`` bytes
    /// inflated (more is left out, the text marked truncated) and a bomb refused by its ratio
    /// while it inflates.
    ///
    /// - Throws: ``ExtractionFailure`` `tooLarge` for a bomb, `decodeFailed` for a damaged or
    ///   truncated stream, or the inner document's reader's failure.
    static func readCompressedFile(_ stream: ArchiveReader, _ source: DocumentSource)
        throws(ExtractionFailure) -> ExtractedDocument?
    {
        guard try stream.next() != nil else { return ExtractedDocument(text: "") }
        let name = Array(rawMemberName(source.fileName).utf8)
        // No ratio check, unlike an archive's members: the one file is read up to its cap and
        // no further, which bounds a bomb's memory and time, while a very repetitive log (5 MB
        // that xz packs 300 times) keeps the text of its first 16 MiB.
        func inflate(into bytes: inout [UInt8], limit: Int) throws(ExtractionFailure) -> Bool {
            try stream.readData(into: &bytes, limit: limit) { _ throws(ExtractionFailure) in }
        }
        var bytes: [UInt8] = []
        var isComplete = try inflate(into: &bytes, limit: MemberType.maximumBytesRead)
        let contentType = MemberType.of(bytes, named: name)
        if DocumentFormat(contentType: contentType, fileName: name) == .archive { return nil }
        guard !bytes.isEmpty, let format = readableFormat(contentType: contentType, fileName: name) else {
            return ExtractedDocument(text: "")
        }
        if !isComplete {
            isComplete = try inflate(into: &bytes, limit: limits.maximumEntrySize)
        }
        var document = try memberDocument(bytes, path: name, contentType: contentType, format: format, limit: source.textLimit)
        document.isTextTruncated = document.isTextTruncated || !isComplete
        return document
    }

    /// The name of a compressed file's one member: the file's name without its compression
    /// extension (`notes.txt.gz` holds `notes.txt`).
    static func rawMemberName(_ fileName: ArraySlice<UInt8>) -> String {
        let name = String(decoding: fileName, as: UTF8.self)
        for suffix in [".gz", ".bz2", ".xz", ".zst", ".lz4", ".lz", ".lzma", ".Z"] where name.hasSuffix(suffix) {
            return String(name.dropLast(suffix.count))
        }
        return name
    }
}
