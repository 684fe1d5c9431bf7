import Foundation
import GRDB

extension ContentSearch {
    /// The items whose text holds every Han or kana word as written (folded), among `ids`.
    /// The compounds of several runs among them: their runs, in order, as consecutive words.
    ///
    /// Costs the whole text of every one of `ids`, read and inflated (``SearchableIndex/texts(of:limit:in:)``):
    /// this is why the page shortcuts give up on such words (``hasCJK``).
    ///
    /// - Parameter ids: Row ids of items that match every word in the full-text index.
    /// - Returns: Those of `ids` that pass, in their order; an item without text does not.
    /// - Throws: A `DatabaseError` when a read fails.
    func verified(_ ids: [Int64]) throws -> [Int64] {
        let words = tokens.filter { $0.unicodeScalars.contains(where: ContentWords.isSplitCJK) }
        let compounds = tokens.map(CompoundWords.runs(of:)).filter { $0.count > 1 }
        let texts = try SearchableIndex.texts(of: ids, in: db)
        var folder = RunFolder()
        return ids.filter { id in
            guard let text = texts[id] else { return false }
            if !words.isEmpty {
                let folded = NameTokenizer.fold(ContentWords.joinedCJK(text))
                guard words.allSatisfy({ folded.contains($0) }) else { return false }
            }
            guard !compounds.isEmpty else { return true }
            let runs = folder.tokens(of: text)
            return compounds.allSatisfy { CompoundWords.match(parts: $0, in: runs).prefix }
        }
    }

    /// Drops the content matches whose text lacks a Han or kana word as written.
    ///
    /// Only the matches of the text (`.content`) are checked, their texts read whole
    /// (``verified(_:)``): a match in a rich field keeps its place.
    ///
    /// - Parameter matches: Ranked matches by row id; those whose text fails are removed.
    /// - Throws: A `DatabaseError` when a read fails; `matches` is then left as it was.
    func keepVerified(_ matches: inout [Int64: Match]) throws {
        let content = matches.values.filter { $0.matchedIn == .content }.map(\.rank.id)
        let kept = Set(try verified(content))
        for id in content where !kept.contains(id) { matches[id] = nil }
    }
}

