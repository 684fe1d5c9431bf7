import Foundation
import GRDB
import GRDBSQLite

/// Ranks the candidate rows of a name query, selected with
/// ``SearchableIndex/candidateColumns``: their columns are read in place, their keywords put
/// together from their kind's (``CandidateKeywords``), and most are ranked on their bytes
/// (``CandidateRank``).
struct CandidateRanker {
    let tokens: [String]
    /// The items that have every word whole in their name: the best rank, known without a look.
    let wholeInName: MemberIDs
    private var onBytesRank: CandidateRank?
    private let keywords: CandidateKeywords
    /// Candidates share words (their folders' above all): each is folded once.
    private var folds = NameFolds()

    /// - Parameter onBytes: Whether candidates are ranked on their bytes rather than split
    ///   into words as strings: `false` for tests.
    init(tokens: [String], wholeInName: MemberIDs, onBytes: Bool = true, in db: any ReadConnection) throws {
        self.tokens = tokens
        self.wholeInName = wholeInName
        onBytesRank = onBytes ? CandidateRank(tokens) : nil
        keywords = try CandidateKeywords(in: db)
    }

    /// The match of the current row of `columns`; `nil` when the item's kind has no row (a
    /// join with `content_kind` would leave it out), or when a compound's parts are not in
    /// order in any field (``CompoundWords``).
    mutating func match(_ columns: SQLiteStatement) throws -> NameMatch? {
        let rowID = sqlite3_column_int64(columns, 0)
        let identifier = SearchableIndex.blob(columns, 1)
        let date = sqlite3_column_double(columns, 5)
        return try keywords.withKeywords(columns, kind: 4, derived: 6, user: [7, 8, 9]) { keywords, kind -> NameMatch? in
            let id = ItemIdentifier(bytes: Array(identifier))
            if wholeInName.contains(rowID) {
                return NameMatch(best: rowID, identifier: id, modificationDate: date)
            }
            let isPath = sqlite3_column_int64(columns, 6) & Int64(StoredText.pathIdentifier) != 0
            let folders = UnsafeBufferPointer(rebasing: identifier[..<(isPath ? identifier.lastIndex(of: UInt8(ascii: "/")) ?? 0 : 0)])
            if onBytesRank != nil {
                guard let rank = onBytesRank?.rank(name: SearchableIndex.text(columns, 2), title: SearchableIndex.text(columns, 3),
                                                   keywords: keywords, kind: kind, folders: folders) else { return nil }
                return NameMatch(id: rowID, identifier: id, modificationDate: date,
                                 prefixOnlyCount: rank.prefixOnlyCount, fieldRank: rank.fieldRank)
            }
            // The stored title and keywords lack only what the name gives (``StoredText``):
            // words that rank at least as well from the name.
            let title = SearchableIndex.optionalText(columns, 3)
            let name = SearchableIndex.optionalText(columns, 2)
            let keywordText = String(decoding: keywords, as: UTF8.self)
            return NameMatch(id: rowID, identifier: id, modificationDate: date, tokens: tokens, name: words(name)) {
                [words(title), words(keywordText), isPath ? id.parentComponents.flatMap { words($0) } : []]
            }
        } ?? nil
    }

    private mutating func words(_ text: String?) -> [String] {
        NameTokenizer.words(in: text ?? "") { folds.fold($0) }
    }
}
