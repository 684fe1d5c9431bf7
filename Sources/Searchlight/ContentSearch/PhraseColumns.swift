import GRDB
import GRDBSQLite

/// `searchlight_phrase_columns(table)`: an FTS5 auxiliary function that tells, for the row a
/// match is on, which columns hold each phrase of the query, as one integer: bit
/// `8 × phrase + column` (eight phrases and eight columns at most; more are left out).
///
/// With it one read of a word's list (`"zulu" OR "zulu"*`: phrase 0 whole, phrase 1 a
/// prefix) says where in each row the word is, whole and as a prefix. Column filters
/// (`title : zulu*`) say it for one column, and each reads the word's whole list again: the
/// first page of a search whose word is a keyword of half the texts read it ten times
/// (``ContentSearch/claimedTiers(of:)``, issue 47). Read with `detail=column`, from the index
/// alone (`xPhraseFirstColumn`), so contentless tables answer it too.
enum PhraseColumns {
    static let name = "searchlight_phrase_columns"

    /// The columns (bit `column`) that hold `phrase` in a value of the function.
    static func columns(_ value: Int64, phrase: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value >> (8 * phrase))
    }

    /// Registers the function on `connection`.
    /// - Throws: `DatabaseError` when FTS5 refuses it.
    static func register(on connection: OpaquePointer) throws {
        let api = try FTS5API.of(connection)
        let code = api.pointee.xCreateFunction(UnsafeMutablePointer(mutating: api), name, nil, { api, context, result, _, _ in
            guard let api, let context, let first = api.pointee.xPhraseFirstColumn, let next = api.pointee.xPhraseNextColumn,
                  let count = api.pointee.xPhraseCount else { return }
            var value: Int64 = 0
            for phrase in 0..<min(count(context), 8) {
                var iterator = Fts5PhraseIter()
                var column: CInt = -1
                let code = first(context, phrase, &iterator, &column)
                guard code == SQLITE_OK else { return sqlite3_result_error_code(result, code) }
                while column >= 0 {
                    if column < 8 { value |= 1 << (8 * Int64(phrase) + Int64(column)) }
                    next(context, &iterator, &column)
                }
            }
            sqlite3_result_int64(result, value)
        }, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register \(name)")
        }
    }
}
