/// v13-text-start: the words of the start of each long text, for relevance and phrases.
///
/// The text tier (every word whole, in texts alone) is ordered by `ts_rank_cd` and searched for
/// the words as a phrase when it holds at most ``Searchlight/TextRelevance/maximumScored``
/// items. Both read the row's whole `text_words` out of TOAST: for `debian finish` on a copy of
/// `/usr/share/doc`, 175 changelogs' vectors, 26 MB, 17 ms for the relevance and 15 for the
/// phrase, most of the statement. SQLite scores and looks for phrases in the start of each text
/// alone (``Searchlight/TextRelevance``: 4 to 32 KB). `text_start_words` holds the words of
/// `text_words` at its first ``words`` positions, for the texts that have more (else `NULL`,
/// and the whole vector is its start): `debian finish` 31 → 16 ms in the server, 20 MB for the
/// copy's 882 texts of more than 5 000 words. It is generated from `text_words`, so it cannot
/// disagree with it; making it costs 1.6 ms a text of more than 5 000 bytes when one is written.
enum PostgreSQLTextStart {
    static let version = 13

    /// How many words of a text are its start: about 32 KB of English, the most of one text
    /// SQLite scores. At 2 048 words (12 KB), phrases of known items found in the start of a
    /// text on SQLite were past it on PostgreSQL: `words.py`'s hit@1 0.96 → 0.95, hit@5 0.97 → 0.96.
    static let words = 5000

    /// The vector of the start of the row's text: what relevance and phrases read.
    static let vector = "coalesce(item.text_start_words, item.text_words)"

    static let statements: [String] = [
        // Each lexeme with its positions in the start, as a `tsvector` literal (quotes doubled,
        // backslashes escaped); `NULL` when no position lies past the start.
        """
        CREATE FUNCTION searchlight_text_start(words tsvector) RETURNS tsvector
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
            RETURN CASE WHEN EXISTS (SELECT 1 FROM unnest(words) AS w WHERE w.positions[cardinality(w.positions)] > \(Self.words))
                THEN (SELECT coalesce(string_agg('''' || replace(replace(w.lexeme, '\\', '\\\\'), '''', '''''') || ''':'
                                                 || array_to_string(ARRAY(SELECT p FROM unnest(w.positions) AS p WHERE p <= \(Self.words)), ','),
                                                 ' '), '')::tsvector
                      FROM unnest(words) AS w WHERE w.positions[1] <= \(Self.words))
                END
        """,
        // A text of at most as many bytes as the start has words holds no word past it.
        """
        ALTER TABLE item ADD COLUMN text_start_words tsvector GENERATED ALWAYS AS
            (CASE WHEN octet_length(text_content) > \(Self.words) THEN searchlight_text_start(text_words) END) STORED
        """,
    ]
}
