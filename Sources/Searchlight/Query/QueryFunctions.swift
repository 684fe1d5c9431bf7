import Foundation
import GRDB
import Synchronization

/// The SQL functions compiled queries call, registered on every connection of the index.
///
/// - `searchlight_test(value, op, pattern, flags)`: whether a text, list or identifier value
///   satisfies a string comparison (``QueryTextMatcher``); `0` for `NULL`.
/// - `searchlight_type_tree(contentType)`: ``ContentTypeTree/tree(of:)`` as a list joined by
///   the keyword separator.
/// - `searchlight_title(title, displayName, derived)` and
///   `searchlight_keywords(keywords, displayName, derived)`: an item's title and joined
///   keywords from their stored form (``StoredText``); `searchlight_name_keywords(displayName)`
///   the keywords a name gives (``AttributeSet/nameKeywords(of:)``), joined.
enum QueryFunctions {
    /// Added to the modifier bits of `flags` when the value is a list.
    static let listFlag = 16
    /// Added when the value is an item's text (``QueryTextMatcher/textWord``).
    static let textFlag = 32

    static func code(of op: QueryPredicate.Operator) -> Int {
        QueryPredicate.Operator.allCases.firstIndex(of: op)!
    }

    static func register(in db: Database) {
        // Each row calls the function with the same pattern: keep the matcher of the last
        // pattern this connection used (a statement with several patterns alternates among a
        // few, so keep a handful).
        let cache = Mutex<[(opCode: Int, flags: Int, encoded: String, matcher: QueryTextMatcher)]>([])
        db.add(function: DatabaseFunction("searchlight_test", argumentCount: 4, pure: true) { values in
            if values[0].isNull { return false }
            guard let opCode = Int.fromDatabaseValue(values[1]),
                  QueryPredicate.Operator.allCases.indices.contains(opCode),
                  let encoded = String.fromDatabaseValue(values[2]),
                  let flags = Int.fromDatabaseValue(values[3]) else { return false }
            let matcher = cache.withLock { entries in
                if let entry = entries.first(where: { $0.opCode == opCode && $0.flags == flags && $0.encoded == encoded }) {
                    return entry.matcher
                }
                let matcher = QueryTextMatcher(
                    op: QueryPredicate.Operator.allCases[opCode], pattern: QueryPattern(encoded: encoded),
                    modifiers: QueryStringModifiers(rawValue: flags & 15), isList: flags & listFlag != 0,
                    isText: flags & textFlag != 0)
                if entries.count >= 8 { entries.removeFirst() }
                entries.append((opCode, flags, encoded, matcher))
                return matcher
            }
            switch values[0].storage {
            case .string(let text): return matcher.matches(text)
            case .blob(let data): return matcher.matches(bytes: Array(data))
            case .null: return false
            case .int64(let number): return matcher.matches(String(number))
            case .double(let number): return matcher.matches(String(number))
            }
        })
        db.add(function: DatabaseFunction("searchlight_title", argumentCount: 3, pure: true) { values in
            StoredText(title: String.fromDatabaseValue(values[0]), keywords: nil,
                       column: Int.fromDatabaseValue(values[2]) ?? 0)
                .title(displayName: String.fromDatabaseValue(values[1]))
        })
        db.add(function: DatabaseFunction("searchlight_keywords", argumentCount: 3, pure: true) { values in
            StoredText(title: nil, keywords: String.fromDatabaseValue(values[0]),
                       column: Int.fromDatabaseValue(values[2]) ?? 0)
                .joinedKeywords(displayName: String.fromDatabaseValue(values[1]))
        })
        db.add(function: DatabaseFunction("searchlight_name_keywords", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map {
                AttributeSet.nameKeywords(of: $0).joined(separator: String(SearchableIndex.keywordSeparator))
            }
        })
        db.add(function: DatabaseFunction("searchlight_type_tree", argumentCount: 1, pure: true) { values in
            ContentTypeTree.tree(of: String.fromDatabaseValue(values[0]))
                .joined(separator: String(QueryTextMatcher.listSeparator))
        })
    }
}
