/// Whether folded words follow one another, in order, among the words of a text
/// (``NameTokenizer/words(in:)`` of its start): the phrase check of
/// ``SearchResult/matchesLikeTitle`` for items another index found.
///
/// ```swift
/// TextPhrase.holds(["net", "present", "value"], in: "The Net Present Value of…")  // true
/// ```
///
/// The same answer as ``CompoundWords/match(parts:in:)`` on ``NameTokenizer/words(in:)`` of the
/// text's start, without making those words. A page of results on a copy of `/usr/share/doc`
/// split up to 16 384 characters of each of its first hundred texts (a changelog with one
/// `ö` is split scalar by scalar, every word folded): a quarter of the server's work for a
/// search of two words. Here the text's bytes are scanned once: a run of ASCII letters and
/// digits between ASCII separators (most of them) is split and compared in place; only a run
/// holding other bytes is split by ``NameTokenizer`` and folded. ASCII separators separate in
/// both, so run by run the words are the same.
enum TextPhrase {
    /// How much of a text is read: its first 64 KiB, cut back to the start of a Unicode scalar
    /// (where the split words it stands for once fell back to 16 384 characters).
    static let bytesRead = 65_536

    /// Whether `parts` are consecutive words of `text`'s first ``bytesRead`` bytes.
    ///
    /// - Parameters:
    ///   - parts: Folded words, as ``NameTokenizer/words(in:)`` makes them; empty holds nowhere.
    ///   - text: Any text.
    ///   - limit: How many bytes of the text are read (``bytesRead``).
    static func holds(_ parts: [String], in text: String, bytes limit: Int = bytesRead) -> Bool {
        guard !parts.isEmpty else { return false }
        var text = text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable { all in
            var end = min(all.count, limit)
            while end > 0, end < all.count, all[end] & 0xC0 == 0x80 { end -= 1 }
            let read = UnsafeBufferPointer(rebasing: all[..<end])
            guard parts.count < UInt64.bitWidth else {
                // A phrase this long is no search anyone types: the words themselves.
                return CompoundWords.match(parts: parts, in: NameTokenizer.words(in: String(decoding: read, as: UTF8.self))).whole
            }
            return isFound(parts, in: read)
        } ?? false
    }

    /// How much of the phrase the words read end with, after one more word: a state is a set
    /// of bits, bit `k` when the last `k` words read are the phrase's first `k` parts (several
    /// bits when a part repeats: `la la land`), bit 0 always. `isPart(k)`: whether the new
    /// word is part `k`.
    @inline(__always)
    private static func reading(after state: UInt64, _ isPart: (Int) -> Bool) -> UInt64 {
        var next: UInt64 = 1
        var candidates = state
        while candidates != 0 {
            let part = candidates.trailingZeroBitCount
            candidates &= candidates - 1
            if isPart(part) { next |= 1 << (part + 1) }
        }
        return next
    }

    /// Whether the words of `bytes` (UTF-8) hold `parts`, fewer than 64, in order and adjacent.
    private static func isFound(_ parts: [String], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // The parts' bytes one after another, part `k` from `starts[k]` to `starts[k + 1]`.
        let flat = parts.flatMap(\.utf8)
        var starts = [0]
        for part in parts { starts.append(starts[starts.count - 1] + part.utf8.count) }
        let phrase: UInt64 = 1 << parts.count
        // An ASCII word never equals a part with other bytes: 0 matches no lowercased ASCII letter.
        let first = flat.first.map { $0 < 0x80 ? $0 : 0 } ?? 0
        return flat.withUnsafeBufferPointer { flat in
            starts.withUnsafeBufferPointer { starts in
                var state: UInt64 = 1
                // Folding is the slow part, and a text repeats its names (`Jörg`, `don’t`):
                // each run is folded once.
                var split: [String: [String]] = [:]
                return NameTokenizer.firstRun(in: bytes) { range, isASCII -> Bool? in
                    let run = UnsafeBufferPointer(rebasing: bytes[range])
                    if isASCII {
                        // Nothing of the phrase read yet, and a run without the first part's
                        // first letter holds no word that starts it: most runs are passed so.
                        if state == 1, !run.contains(where: { NameTokenizer.lowercased($0) == first }) { return nil }
                        _ = NameTokenizer.forEachASCIIWord(in: run) { word in
                            guard state & phrase == 0 else { return }
                            state = reading(after: state) { part in
                                let start = starts[part], length = starts[part + 1] - start
                                guard length == word.count else { return false }
                                for offset in 0..<length where NameTokenizer.lowercased(run[word.lowerBound + offset]) != flat[start + offset] {
                                    return false
                                }
                                return true
                            }
                        }
                    } else {
                        let text = String(decoding: run, as: UTF8.self)
                        let words = split[text] ?? NameTokenizer.words(in: text)
                        split[text] = words
                        for word in words where state & phrase == 0 {
                            state = reading(after: state) { parts[$0] == word }
                        }
                    }
                    return state & phrase != 0 ? true : nil
                } ?? false
            }
        }
    }
}
