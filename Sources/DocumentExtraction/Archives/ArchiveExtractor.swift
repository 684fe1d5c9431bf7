import ExtractionProtocol

/// What is inside an archive (ZIP, tar, tar.gz/bz2/xz/zst, 7z, RAR where libarchive reads
/// it): its members' names and the text of its text and document members, laid out as
/// ``ArchiveText`` sections so that `show` can say which members matched. A compressed single
/// file (`changelog.gz`, `ls.1.gz`) is the one file inside it instead (ArchiveExtractor+CompressedFile.swift).
///
/// Each member is routed as a file is: libmagic's MIME type of its bytes and its name give
/// its ``DocumentFormat``, and the same reader reads it, from an anonymous in-memory file.
/// Bounded (``limits``): members listed, bytes read per member and in all, the ratio of
/// inflated to compressed bytes (a bomb is refused, as a ZIP document's is), CPU time, and
/// nesting: an archive inside the archive is listed, not opened, as are photos (no text).
/// An encrypted archive is a failure that says so (indexed by name, quietly).
enum ArchiveExtractor {
    /// The bounds on one archive.
    static let limits = ArchiveLimits(
        maximumEntries: 10_000, maximumEntrySize: 16 << 20, maximumTotalSize: 64 << 20,
        maximumCompressionRatio: 200, ratioThreshold: 1 << 20)
    /// How much CPU time reading members may take; then the names and text so far are kept
    /// (marked truncated). Less than the indexer's deadline for a whole extraction (10 s).
    static let timeBudget: Duration = .seconds(5)

    static func read(_ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        // Unwrapped without guessing a format first: a compressed file's bytes say whether
        // they are a tar (read as an archive) or a single file.
        let stream = try ArchiveReader(descriptor: source.descriptor, formats: .oneStream)
        if stream.isCompressed, let document = try readCompressedFile(stream, source) {
            return document
        }
        return try readMembers(ArchiveReader(descriptor: source.descriptor, formats: .archives), source)
    }

    /// The members of the archive `reader` reads, laid out as ``ArchiveText`` sections.
    static func readMembers(_ reader: ArchiveReader, _ source: DocumentSource) throws(ExtractionFailure) -> ExtractedDocument {
        let budget = CPUBudget(timeBudget)
        var members: [(name: String, text: String)] = []
        var inflated = 0
        var truncated = false
        var encrypted = false
        var textRead = 0
        var declared = 0
        while true {
            // A damaged header after the first ends the listing; what was read is kept.
            let next: ArchiveReader.Member?
            do {
                next = try reader.next()
            } catch where !members.isEmpty {
                truncated = true
                break
            }
            guard let member = next else { break }
            guard members.count < limits.maximumEntries, !budget.isSpent else {
                truncated = true
                break
            }
            guard member.isRegularFile else { continue }
            // Refused from its headers, before inflating: what the members declare against the
            // whole file's size (a bound below every member's own ratio).
            declared += max(member.declaredSize ?? 0, 0)
            if declared > limits.ratioThreshold, declared / max(source.size, 1) > limits.maximumCompressionRatio {
                throw ExtractionFailure(
                    .tooLarge, "the archive's members declare \(declared / max(source.size, 1)) times its size (a bomb?)")
            }
            let name = memberName(member.path)
            if member.isEncrypted {
                encrypted = true
                members.append((name, ""))
                continue
            }
            let room = min(limits.maximumEntrySize, limits.maximumTotalSize - inflated)
            guard textRead < source.textLimit, room > 0, (member.declaredSize ?? 0) <= room else {
                truncated = truncated || textRead >= source.textLimit || room <= 0
                members.append((name, ""))
                continue
            }
            var bytes: [UInt8] = []
            let isComplete: Bool
            do {
                isComplete = try reader.readData(into: &bytes, limit: room) { count throws(ExtractionFailure) in
                    inflated += count
                    try refuseBomb(inflated: inflated, by: reader)
                }
            } catch where error.reason != .tooLarge {
                // One member that cannot be read (an unsupported method, a password) is listed
                // without its text; the others are read.
                encrypted = encrypted || error.message.contains("encrypted")
                members.append((name, ""))
                continue
            }
            let text = isComplete ? memberText(bytes, name: name, limit: source.textLimit - textRead) : ""
            textRead += text.utf8.count
            members.append((name, text))
        }
        if encrypted && members.allSatisfy({ $0.text.isEmpty }) {
            throw ExtractionFailure(.encrypted, "encrypted archive: a password is needed to read it")
        }
        return ExtractedDocument(text: layout(members, limit: source.textLimit),
                                 isTextTruncated: truncated || textRead >= source.textLimit)
    }

    /// Refuses a bomb while it inflates: `inflated` bytes out of what `reader` has read of the
    /// file, above ``limits``' ratio.
    static func refuseBomb(inflated: Int, by reader: ArchiveReader) throws(ExtractionFailure) {
        let compressed = max(reader.compressedBytesRead, 1)
        if inflated > limits.ratioThreshold, inflated / compressed > limits.maximumCompressionRatio {
            throw ExtractionFailure(
                .tooLarge, "the \(reader.noun) inflates \(inflated / compressed) times its compressed size (a bomb?)")
        }
    }

    /// The text of one member, read as a file of its type is; empty for members with no
    /// text, nested archives, photos, and members their reader refuses (a member's failure
    /// is not the archive's).
    static func memberText(_ bytes: [UInt8], name: String, limit: Int) -> String {
        guard limit > 0, !bytes.isEmpty else { return "" }
        let fileName = Array(name.utf8)
        let contentType = MemberType.of(bytes, named: fileName)
        guard let format = readableFormat(contentType: contentType, fileName: fileName) else { return "" }
        do {
            // Word breaks are marked once, in the archive's whole text.
            let document = try memberDocument(bytes, path: fileName, contentType: contentType, format: format, limit: limit)
            let heading = [document.title].compactMap { $0 }.filter { !document.text.contains($0) }
            return DocumentText.capped((heading + [document.text]).joined(separator: "\n"), toBytes: limit).text
        } catch {
            return ""
        }
    }

    /// The format a member of `contentType` at `fileName` (its path inside the archive) is
    /// read as; nil for members with no text, nested archives and photos.
    static func readableFormat(contentType: String, fileName: [UInt8]) -> DocumentFormat? {
        guard let format = DocumentFormat(contentType: contentType, fileName: fileName.split(separator: 0x2F).last ?? []),
              format != .archive, format != .photo
        else { return nil }
        return format
    }

    /// The document in a member's `bytes`, read as a file of `format` is, from an anonymous
    /// in-memory file.
    static func memberDocument(_ bytes: [UInt8], path: [UInt8], contentType: String, format: DocumentFormat, limit: Int)
        throws(ExtractionFailure) -> ExtractedDocument
    {
        let member = try DocumentSource(bytes: bytes, path: path, textLimit: limit, contentType: contentType)
        defer { member.close() }
        return try DocumentExtractor.read(member, as: format)
    }

    /// The members as ``ArchiveText`` sections, every header kept within `limit` before any
    /// text: the names are what a search of an archive finds first.
    static func layout(_ members: [(name: String, text: String)], limit: Int) -> String {
        let headers = members.map { ArchiveText.header(for: $0.name) }
        var room = limit - headers.reduce(0) { $0 + $1.utf8.count }
        var result = ""
        for (header, member) in zip(headers, members) {
            result += header
            guard room > 0, !member.text.isEmpty else { continue }
            var text = member.text.hasSuffix("\n") ? member.text : member.text + "\n"
            if text.utf8.count > room {
                text = DocumentText.capped(text, toBytes: room).text
            }
            room -= text.utf8.count
            result += text
        }
        return result
    }

    /// A member's path as people write it: without the `./` that `tar -C folder .` puts first.
    static func memberName(_ path: String) -> String {
        var name = Substring(path)
        while name.hasPrefix("./") { name = name.dropFirst(2) }
        return String(name)
    }
}
