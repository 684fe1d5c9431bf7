/// v11-text-initials: the first letter of every word of each text, indexed.
///
/// A one-letter search (`s`, the first key a person types) asked the text's GIN index for
/// `'s':*`, a partial match that walks every word of the index starting with `s` and merges
/// their lists: 53 ms of a 61 ms statement at 6 300 documents, where a two-letter prefix took
/// 2 ms. `text_initials` holds each text's distinct first letters (a few dozen lexemes), so
/// that a one-letter prefix is one list of the index (``RankedNameSearch``), as SQLite's
/// prefix index answers it (`prefix='1 2 3'`). It is generated from `text_words`: nothing
/// else writes it, and it cannot disagree with the words.
enum PostgreSQLTextInitials {
    static let version = 11

    static let statements: [String] = [
        """
        CREATE FUNCTION searchlight_initials(words tsvector) RETURNS tsvector
            LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
            RETURN (SELECT array_to_tsvector(coalesce(array_agg(DISTINCT left(w.lexeme, 1)), '{}'))
                    FROM unnest(words) AS w)
        """,
        """
        ALTER TABLE item ADD COLUMN text_initials tsvector GENERATED ALWAYS AS (searchlight_initials(text_words)) STORED
        """,
        """
        CREATE INDEX item_text_initials ON item USING gin (text_initials)
        """,
    ]

    /// Whether `token` is a word of one letter, which `text_initials` answers as a prefix.
    static func answers(_ token: String) -> Bool {
        token.unicodeScalars.count == 1
    }
}
