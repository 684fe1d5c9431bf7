import Foundation
import GRDB
#if canImport(GRDBSQLite)
import GRDBSQLite
#endif

/// The FTS5 tokenizer of every full-text table (`tokenize='searchlight'`), registered on every
/// connection (``SearchableIndex/registerFunctions(in:)``).
///
/// A token is a run of word scalars (``WordFolding/isWordScalar(_:)``: letters, numbers,
/// marks, joiners) that does not start with a mark, folded by ``WordFolding/fold(_:)``.
/// Query words are split by ``NameTokenizer`` with the same definition of a word scalar and
/// folded by the same function, so a query word is always exactly one token: it never turns
/// into a phrase (which a `detail=column` table refuses), and it meets the index's word
/// whatever its script. FTS5's `unicode61` folded only Latin diacritics and split words at
/// spacing vowel signs and non-Latin marks, while queries were folded in Swift: Greek,
/// Korean, Thai and Cyrillic words were not found, and a Hindi word made the query fail.
///
/// The text given to the `text` column has its unspaced letters (Han, kana, Thai…) already
/// spaced out by ``ContentWords/indexed(_:)``, so each is a token of its own there.
final class SearchlightTokenizer: FTS5CustomTokenizer {
    static let name = "searchlight"

    private var folder = RunFolder()

    init(db: Database, arguments: [String]) throws {}

    func tokenize(context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
                  nText: CInt, tokenCallback: @escaping FTS5TokenCallback) -> CInt {
        Self.tokenize(pText, nText, folder: &folder) { token, start, end in
            tokenCallback(context, 0, token.baseAddress, CInt(token.count), start, end)
        }
    }

    /// Splits and folds `pText` as every full-text table does, handing each token and its byte
    /// range to `emit`: the one tokenization behind GRDB's registration (above) and
    /// ``SQLiteReader``'s own. Stops at the first code `emit` returns that is not `SQLITE_OK`.
    static func tokenize(_ pText: UnsafePointer<CChar>?, _ nText: CInt, folder: inout RunFolder,
                         emit: (UnsafeBufferPointer<CChar>, CInt, CInt) -> CInt) -> CInt {
        guard let pText, nText > 0 else { return SQLITE_OK }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pText).assumingMemoryBound(to: UInt8.self), count: Int(nText))
        var code = SQLITE_OK
        WordRuns.forEach(in: bytes) { run, isASCII in
            let token = folder.fold(UnsafeBufferPointer(rebasing: bytes[run]), isASCII: isASCII)
            guard !token.isEmpty else { return true }
            code = token.withUnsafeBufferPointer { folded in
                folded.withMemoryRebound(to: CChar.self) { emit($0, CInt(run.lowerBound), CInt(run.upperBound)) }
            }
            return code == SQLITE_OK
        }
        return code
    }
}

/// Folds runs of word scalars (``WordRuns``) into tokens, remembering the folds of the
/// non-ASCII ones: texts repeat their words, and folding one costs two normalizations.
struct RunFolder {
    private var folds: [String: [UInt8]] = [:]
    private var buffer: [UInt8] = []

    /// The folded UTF-8 of `run` (empty when it folds to nothing).
    mutating func fold(_ run: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> [UInt8] {
        if isASCII {
            buffer.removeAll(keepingCapacity: true)
            for byte in run { buffer.append(NameTokenizer.lowercased(byte)) }
            return buffer
        }
        let text = String(decoding: run, as: UTF8.self)
        if let folded = folds[text] { return folded }
        if folds.count >= 20_000 { folds.removeAll(keepingCapacity: true) }
        let folded = Array(WordFolding.foldWord(text).utf8)
        folds[text] = folded
        return folded
    }

    /// The tokens of `text`, in order, as ``SearchlightTokenizer`` gives them.
    mutating func tokens(of text: String) -> [String] {
        var text = text
        text.makeContiguousUTF8()
        var tokens: [String] = []
        text.utf8.withContiguousStorageIfAvailable { bytes in
            WordRuns.forEach(in: bytes) { run, isASCII in
                let token = fold(UnsafeBufferPointer(rebasing: bytes[run]), isASCII: isASCII)
                if !token.isEmpty { tokens.append(String(decoding: token, as: UTF8.self)) }
                return true
            }
        }
        return tokens
    }
}

/// The runs of word scalars in UTF-8 text, as ``SearchlightTokenizer`` makes its tokens of them.
enum WordRuns {
    /// Calls `body` with the byte range of each run of word scalars that does not start with a
    /// mark, and whether it is all ASCII, until `body` returns `false`. Bytes that are not
    /// valid UTF-8 separate words.
    static func forEach(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>, Bool) -> Bool) {
        var start = -1
        var isASCII = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                let isWord = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                if isWord {
                    if start < 0 { start = index; isASCII = true }
                } else if start >= 0 {
                    guard body(start..<index, isASCII) else { return }
                    start = -1
                }
                index += 1
                continue
            }
            guard let (scalar, length) = bytes.validScalar(at: index) else {
                if start >= 0 {
                    guard body(start..<index, isASCII) else { return }
                    start = -1
                }
                index += 1
                continue
            }
            if WordFolding.isWordScalar(scalar) {
                if start >= 0 {
                    isASCII = false
                } else if !WordFolding.isMarkScalar(scalar) {
                    start = index
                    isASCII = false
                }
            } else if start >= 0 {
                guard body(start..<index, isASCII) else { return }
                start = -1
            }
            index += length
        }
        if start >= 0 { _ = body(start..<bytes.count, isASCII) }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// The scalar that starts at `index` (a lead byte that is not ASCII) and its length, or
    /// `nil` when the bytes there are not valid UTF-8: FTS5 hands a tokenizer whatever bytes
    /// a text or query holds.
    func validScalar(at index: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        let lead = UInt32(self[index])
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard index + length <= count else { return nil }
        var value = lead & (0xFF >> (length + 1))
        for offset in 1..<length {
            let byte = UInt32(self[index + offset])
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | (byte & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
