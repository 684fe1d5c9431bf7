/// v12-field-words: the words of the rich fields, each tagged with its field, indexed.
///
/// The `words` vector holds the words of name, title, authors, keywords and folders without
/// saying which field holds which: whether any row holds a word in its name or title (a rank
/// better than keywords) could only be told by testing every row holding it anywhere, and in
/// half a million notes whose keywords repeat their text that is every row. This index holds
/// each word behind a one-character tag of its field (`0` name, `1` title, `2` keywords,
/// `3` authors, `4` folders: `'1alpha'` is `alpha` in a title), so that the rows holding a
/// word (or a prefix: `'1alph':*`) in the fields of a rank or better are one look-up of one
/// GIN index (``TieredNamePage``). It is an index on an expression of the word columns:
/// nothing writes it, no column is added, and a database migrating to it only builds the index.
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

    /// The indexed expression, as a condition's left side must spell it for the planner to use the index.
    static let vector = "searchlight_field_vector(item.name_words, item.title_words, item.author_words, item.keyword_words, item.folder_words)"

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
        CREATE INDEX item_field_words ON item USING gin (searchlight_field_vector(name_words, title_words, author_words, keyword_words, folder_words))
        """,
    ]
}
