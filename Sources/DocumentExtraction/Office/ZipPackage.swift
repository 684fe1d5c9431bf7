import CLibZlib
import ExtractionProtocol
import SystemCalls
import Foundation
import ZIPFoundation

/// A ZIP-based document (OOXML, ODF, EPUB) read under ``ArchiveLimits``.
///
/// The central directory is read once, refusing archives with too many entries; each part is
/// then inflated into memory only after its declared sizes pass the limits, and the inflated
/// bytes are counted as they come, so headers that lie cannot get past the limits either.
final class ZipPackage {
    private let archive: Archive
    private let entries: [String: Entry]
    private let limits: ArchiveLimits
    private var inflatedTotal = 0

    /// Opens the archive readable from `descriptor` (not closed, not moved).
    convenience init(descriptor: Int32, limits: ArchiveLimits) throws(ExtractionFailure) {
        // The descriptor's own file, whatever its name: the worker opened it without
        // following links and checked it is a regular file.
        let archive: Archive
        let reopenable = try WorkerFile.reopenable(descriptor)
        // ZIPFoundation keeps a stream of its own, opened by name.
        defer { SystemCall.close(reopenable) }
        do {
            archive = try Archive(url: URL(fileURLWithPath: "/proc/self/fd/\(reopenable)"), accessMode: .read)
        } catch {
            throw ExtractionFailure(.decodeFailed, "not a readable ZIP archive (\(error))")
        }
        try self.init(archive: archive, limits: limits)
    }

    /// Opens the archive held in `bytes` (a package inside a package), under the same limits.
    convenience init(bytes: [UInt8], limits: ArchiveLimits) throws(ExtractionFailure) {
        let archive: Archive
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            throw ExtractionFailure(.decodeFailed, "not a readable ZIP archive (\(error))")
        }
        try self.init(archive: archive, limits: limits)
    }

    private init(archive: Archive, limits: ArchiveLimits) throws(ExtractionFailure) {
        self.archive = archive
        self.limits = limits
        var entries: [String: Entry] = [:]
        var count = 0
        for entry in archive {
            count += 1
            guard count <= limits.maximumEntries else {
                throw ExtractionFailure(.tooLarge, "archive lists more than \(limits.maximumEntries) entries")
            }
            if entries[entry.path] == nil { entries[entry.path] = entry }
        }
        self.entries = entries
    }

    /// The entries' paths, in no particular order.
    var paths: Dictionary<String, Entry>.Keys { entries.keys }

    func contains(_ path: String) -> Bool { entries[path] != nil }

    /// The inflated bytes of the part at `path`, or nil when the archive has no such part.
    func data(_ path: String) throws(ExtractionFailure) -> [UInt8]? {
        guard let entry = entries[path] else { return nil }
        return try inflate(entry)
    }

    /// Like ``data(_:)``, but a missing part is a corrupt document.
    func requiredData(_ path: String) throws(ExtractionFailure) -> [UInt8] {
        guard let bytes = try data(path) else {
            throw ExtractionFailure(.decodeFailed, "the archive has no \(path)")
        }
        return bytes
    }

    private func inflate(_ entry: Entry) throws(ExtractionFailure) -> [UInt8] {
        let declared = entry.uncompressedSize
        let compressed = max(entry.compressedSize, 1)
        let allowed = min(limits.maximumEntrySize, limits.maximumTotalSize - inflatedTotal)
        guard declared <= UInt64(allowed) else {
            throw ExtractionFailure(.tooLarge, "\(entry.path) inflates to \(declared) bytes, more than the \(allowed) allowed")
        }
        if declared > UInt64(limits.ratioThreshold), declared / compressed > UInt64(limits.maximumCompressionRatio) {
            throw ExtractionFailure(
                .tooLarge, "\(entry.path) inflates \(declared / compressed) times its compressed size (a zip bomb?)")
        }
        // A header may understate the size: stop as soon as more comes out than it declared.
        let bound = Int(declared)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(bound)
        // The checksum by zlib's `crc32`: ZIPFoundation's own, on Linux, is a byte-at-a-time
        // loop in Swift that cost as much as inflating.
        var checksum = CLibZlib.crc32(0, nil, 0)
        do {
            _ = try archive.extract(entry, skipCRC32: true) { chunk in
                guard bytes.count + chunk.count <= bound else { throw InflateOverrun() }
                bytes.append(contentsOf: chunk)
                checksum = chunk.withUnsafeBytes { CLibZlib.crc32(checksum, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count)) }
            }
        } catch is InflateOverrun {
            throw ExtractionFailure(.tooLarge, "\(entry.path) inflates to more than the \(declared) bytes its header declares (a zip bomb?)")
        } catch {
            throw ExtractionFailure(.decodeFailed, "cannot inflate \(entry.path) (\(error))")
        }
        guard bytes.count == bound else {
            throw ExtractionFailure(.decodeFailed, "\(entry.path) inflates to \(bytes.count) bytes, not the \(declared) its header declares")
        }
        guard CRC32(truncatingIfNeeded: checksum) == entry.checksum else {
            throw ExtractionFailure(.decodeFailed, "\(entry.path) fails its CRC-32 check (damaged)")
        }
        inflatedTotal += bytes.count
        return bytes
    }

    private struct InflateOverrun: Error {}
}

extension ZipPackage {
    /// What a ZIP archive that libmagic did not name holds, judged by its parts.
    static func documentFormat(descriptor: Int32, limits: ArchiveLimits) throws(ExtractionFailure) -> DocumentFormat {
        let package = try ZipPackage(descriptor: descriptor, limits: limits)
        if package.contains("[Content_Types].xml") { return .officeOpenXML }
        if package.contains("META-INF/container.xml") { return .epub }
        if package.contains("content.xml"), package.contains("META-INF/manifest.xml") { return .openDocument }
        if package.contains("index.apxl") || package.contains("Index/Document.iwa") { return .iWork }
        throw ExtractionFailure(.unsupported, "a ZIP archive that is not an office document or an EPUB")
    }
}
