import Searchlight

/// A search of Elasticsearch's query DSL as Samba's Spotlight backend builds it: the Lucene
/// `query_string` it writes from a Spotlight query, and the `bool`, `prefix` and `match_all`
/// queries around it, as one tree.
///
/// A field of `nil` is the query's default fields (`query_string`'s `fields`). The tree is
/// translated into Searchlight's own query (``QueryExpression``) per domain
/// (``expression(fields:root:)``): no second search engine.
indirect enum ElasticsearchQuery: Hashable, Sendable {
    /// `field:value` or `value`: a word or a pattern (`*` wildcards), escapes resolved.
    case term(field: String?, QueryPattern)
    /// `field:"some words"`.
    case phrase(field: String?, String)
    /// `field:[low TO high]`, `{…}` for exclusive bounds; a `nil` bound is open (`*`).
    case range(field: String?, lower: Bound?, upper: Bound?)
    /// The DSL's `prefix` query: values that start with the text.
    case prefix(field: String, String)
    /// Every operand holds; `and([])` holds for every item (`match_all`, `*:*`).
    case and([ElasticsearchQuery])
    /// Some operand holds; `or([])` holds for none (an empty query string).
    case or([ElasticsearchQuery])
    case not(ElasticsearchQuery)

    /// One end of a range.
    struct Bound: Hashable, Sendable {
        var text: String
        var isInclusive: Bool
    }

    /// Every item.
    static let all = ElasticsearchQuery.and([])
}
