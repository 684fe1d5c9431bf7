/// The words of an item's text on PostgreSQL, made as the SQLite index makes them (migration
/// `v7-text-words-as-sqlite`), so that a search finds the same items on both backends.
///
/// SQLite's full-text index (FTS5 `unicode61`, given ``Searchlight`` `ContentWords`' text)
/// splits a text at every character that is not a letter or digit, adds the parts of words
/// that name search splits (`testWORD` → `test`, `word`; `fips1402` → `fips`, `1402`), and
/// indexes each Han or kana character alone. PostgreSQL's parser kept URLs, hosts, file
/// names, e-mail addresses, decimals and versions whole (`testpdf.pdf`, `fips-197.pdf`,
/// `3.14`, `-05`), never split at case changes, and kept a run of Han or kana as one word:
/// `search pdf` missed `(…/fips1402.pdf)` and `"testPDF.pdf"` in texts that SQLite found.
///
/// `searchlight_text_vector(text)` therefore gives the parser only words: it replaces every
/// run of other characters with a space and puts spaces around Han and kana characters; the
/// words are folded as SQLite folds them (`searchlight_fold`: lowercase, combining marks
/// removed; no longer `unaccent`), and keep their positions for phrase queries. The parts of split words (`searchlight_words`,
/// the SQL form of `NameTokenizer`) are added without positions.
///
/// A `tsvector` holds at most 1 MiB, a text up to 1 MiB (Docs/Contract.md#what-is-indexed): a text of that many
/// distinct words (hexadecimal dumps, Base64) made the whole batch's `INSERT` fail before.
/// A text too large for one vector keeps positions for its first words and, past them, as
/// many of its distinct words as the vector can hold, first met first (SQLite keeps them all).
enum PostgreSQLTextWords {
    /// The migration: the function, and `text_words` made again with it (the table is rewritten).
    ///
    /// The statements run in order; adding `text_words` again as a stored generated column
    /// rewrites the table, computing every item's vector once.
    static let migration: (version: Int, statements: [String]) = (7, [
        // Folded as SQLite folds (lowercase, combining marks removed), not by `unaccent`,
        // which also turns `ß` into `ss`, `ø` into `o`, `ﬁ` into `fi` and `ＡＢＣ` into `abc`.
        """
        ALTER TEXT SEARCH CONFIGURATION searchlight_text
            ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part,
                numword, numhword, hword_numpart
            WITH simple
        """,
        """
        CREATE FUNCTION searchlight_text_vector(value text) RETURNS tsvector
            LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
            DECLARE
                words text := regexp_replace(regexp_replace(searchlight_fold(value), '[^[:alnum:]]+', ' ', 'g'),
                                             '(\(PostgresIndex.cjkClass))', ' \\1 ', 'g');
                parts text := searchlight_words(value);
            BEGIN
                -- At most four bytes of vector per byte of words (one-letter words): this fits.
                IF octet_length(words) + octet_length(parts) <= \(fastPathBytes) THEN
                    RETURN to_tsvector('searchlight_text', words) || strip(to_tsvector('searchlight_text', parts));
                END IF;
                BEGIN
                    RETURN to_tsvector('searchlight_text', words) || strip(to_tsvector('searchlight_text', parts));
                EXCEPTION WHEN program_limit_exceeded THEN
                    -- Positions for the first words, then distinct words while they fit.
                    RETURN to_tsvector('searchlight_text', left(words, \(headCharacters)))
                        || strip(to_tsvector('searchlight_text', (
                            SELECT coalesce(string_agg(word, ' ' ORDER BY first), '') FROM (
                                SELECT word, first, sum(octet_length(word) + 8) OVER (ORDER BY first) AS total
                                FROM (SELECT word, min(position) AS first
                                      FROM regexp_split_to_table(lower(words || ' ' || parts), ' +')
                                           WITH ORDINALITY AS split(word, position)
                                      WHERE word <> '' GROUP BY word) AS distinct_words
                            ) AS counted WHERE total <= \(distinctBytes))));
                END;
            END $$
        """,
        """
        ALTER TABLE item DROP COLUMN text_words
        """,
        """
        ALTER TABLE item ADD COLUMN text_words tsvector GENERATED ALWAYS AS
            (searchlight_text_vector(coalesce(text_content, ''))) STORED
        """,
        """
        CREATE INDEX item_text_words ON item USING gin (text_words)
        """,
    ])

    /// Texts whose words take at most this many bytes fit in one vector whatever they are.
    static let fastPathBytes = 200_000
    /// The characters of the words kept with positions when a text does not fit (at most
    /// 4 bytes each, 4 bytes of vector per byte: under 400 kB).
    static let headCharacters = 25_000
    /// What the distinct words may take past the head (with a lexeme's own overhead).
    static let distinctBytes = 560_000
}
