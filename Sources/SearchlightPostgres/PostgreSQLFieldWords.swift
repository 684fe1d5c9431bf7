/// v12-field-words: the words of the rich fields, each tagged with its field, indexed.
///
/// The `words` vector holds the words of name, title, authors, keywords and folders without
/// saying which field holds which: whether any row holds a word in its name or title (a rank
/// better than keywords) could only be told by testing every row holding it anywhere, and in
/// half a million notes whose keywords repeat their text that is every row. This index holds
/// each word behind a one-character tag of its field (`0` name, `1` title, `2` keywords,
/// `3` authors, `4` folders: `'1alpha'` is `alpha` in a title), so that the rows holding a
/// word (or a prefix: `'1alph':*`) in the fields of a rank or better are one look-up of one
/// GIN index (``TieredNamePage``). It is a column the server generates from the word columns
/// (nothing else writes it), stored: a row that a bitmap reads is tested on the stored vector,
/// where an index on the expression made every test build the vector again (2.6 s for the
/// 50 000 notes holding `november` among their keywords). Migrating rewrites `item` (31 s at
/// 500 000 notes).
enum PostgreSQLFieldWords {
    static let version = 12

    /// The tag of each field in the index, in rank order: name, title, keywords, authors, folders.
    enum Tag: String, CaseIterable {
        case name = "0", title = "1", keywords = "2", authors = "3", folders = "4"

        /// The rank the search gives the field (``RankedNameSearch``): authors rank with
        /// keywords when the text counts, and not at all in a search of names alone.
        func rank(includingText: Bool) -> Int? {
            switch self {
            case .name: 0
            case .title: 1
            case .keywords: 2
            case .authors: includingText ? 2 : nil
            case .folders: 3
            }
        }
    }

    /// The indexed column.
    static let vector = "item.field_words"

    /// The query (`tsquery` text) of `parts` in any one of the fields of `tags`, in order, the
    /// last part as a prefix when `lastAsPrefix`: `('0note' & '04':*) | ('1note' & '14':*)`. A
    /// plain word is its only part (`('2alpha') | ('3alpha')`).
    static func query(_ parts: [String], in tags: [Tag], lastAsPrefix: Bool) -> String {
        tags.map { tag in
            "(" + parts.indices.map {
                PostgresQueryCompiler.tsqueryLexeme(tag.rawValue + parts[$0]) + (lastAsPrefix && $0 == parts.count - 1 ? ":*" : "")
            }.joined(separator: " & ") + ")"
        }.joined(separator: " | ")
    }

    static let statements: [String] = [
        """
        CREATE FUNCTION searchlight_field_vector(name text, title text, authors text[], keywords text[],
                                                 folders text) RETURNS tsvector
            LANGUAGE sql IMMUTABLE PARALLEL SAFE
            RETURN array_to_tsvector(ARRAY(
                SELECT DISTINCT field.tag || word.word
                FROM (VALUES ('\(Tag.name.rawValue)', name), ('\(Tag.title.rawValue)', title),
                             ('\(Tag.keywords.rawValue)', array_to_string(keywords, ' ')),
                             ('\(Tag.authors.rawValue)', array_to_string(authors, ' ')),
                             ('\(Tag.folders.rawValue)', folders)) AS field(tag, words)
                    CROSS JOIN LATERAL unnest(string_to_array(field.words, ' ')) AS word(word)
                WHERE word.word <> ''))
        """,
        """
        ALTER TABLE item ADD COLUMN field_words tsvector GENERATED ALWAYS AS
            (searchlight_field_vector(name_words, title_words, author_words, keyword_words, folder_words)) STORED
        """,
        """
        CREATE INDEX item_field_words ON item USING gin (field_words)
        """,
    ]
}
