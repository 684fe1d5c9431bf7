/// The folds met so far while checking names: names share words and letters, and folding
/// non-ASCII text is slow.
struct NameFolds {
    /// Keyed by the word's ``FNV1a`` hash, not by the word: a `[String: String]`'s code is
    /// linked from swift-argument-parser's objects (the first of the copies the linker is
    /// offered), which reach its types by their mangled names and look `String`'s `Hashable`
    /// conformance up by scanning every conformance record of the executable, at every search
    /// whose names are not all ASCII. At most ``bucketLimit`` words share a hash here: names
    /// made to collide are folded again, never compared with one another at length.
    private var words: [Int64: [(word: String, folded: String)]] = [:]
    /// Keyed by `Int64`, whose `Hashable` conformance name search looks up anyway (``KindTable``).
    private var scalars: [Int64: [UInt8]] = [:]
    private var buffer: [UInt8] = []

    /// ``NameTokenizer/fold(_:)``, remembered.
    mutating func fold(_ word: String) -> String {
        let key = Int64(bitPattern: FNV1a.hash(word.utf8))
        let known = words[key] ?? []
        if let found = known.first(where: { $0.word == word }) { return found.folded }
        let folded = WordFolding.foldWord(word)
        if known.count < Self.bucketLimit { words[key] = known + [(word, folded)] }
        return folded
    }

    /// How many words one hash keeps.
    static let bucketLimit = 4

    /// The UTF-8 of a name folded scalar by scalar (`Zürich` → `zurich`).
    ///
    /// Folding a word gives its scalars' folds in order, but for combining marks that swap
    /// places; so an ASCII query word that matches a word of the name, folded, is found in
    /// this text as it is: a name whose text lacks one needs no splitting into words.
    mutating func foldedScalars(of bytes: UnsafeBufferPointer<UInt8>) -> ArraySlice<UInt8> {
        buffer.removeAll(keepingCapacity: true)
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar.isASCII {
                buffer.append(NameTokenizer.lowercased(UInt8(scalar.value)))
            } else if let folded = scalars[Int64(scalar.value)] {
                buffer.append(contentsOf: folded)
            } else {
                let folded = Array(NameTokenizer.fold(String(scalar)).utf8)
                scalars[Int64(scalar.value)] = folded
                buffer.append(contentsOf: folded)
            }
        }
        return buffer[...]
    }
}

extension ArraySlice<UInt8> {
    /// Whether `part` occurs in these bytes.
    func contains(_ part: [UInt8]) -> Bool {
        guard part.count <= count else { return false }
        guard !part.isEmpty else { return true }
        var start = startIndex
        while start + part.count <= endIndex {
            if self[start] == part[0] && self[start..<(start + part.count)].elementsEqual(part) { return true }
            start += 1
        }
        return false
    }
}
