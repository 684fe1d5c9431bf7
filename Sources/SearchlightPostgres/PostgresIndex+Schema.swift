import PostgresNIO

extension PostgresIndex {
    /// The schema, evolved by numbered migrations recorded in `searchlight_schema_version`.
    ///
    /// - `domain`: one row per domain, naming the host and root it indexes, with what its
    ///   indexer remembers about it (its `state`) and when it was last brought up to date.
    /// - `item`: one row per item, keyed by (domain, identifier) — the identifier's raw bytes
    ///   as `bytea` — with no other key: writers of different domains never touch the same
    ///   row, index page aside. Next to each attribute are the words the search ranks by,
    ///   split in Swift by ``NameTokenizer`` (case changes, letter/digit boundaries, folded)
    ///   as the SQLite index splits them: `name_words`, `title_words`, `folder_words` (words
    ///   joined by spaces) and `author_words`, `keyword_words` (one entry per author or
    ///   keyword). `words` is their `tsvector` (GIN), `text_words` the `tsvector` of the text,
    ///   made by PostgreSQL with the `searchlight_text` configuration (`simple` with `unaccent`;
    ///   since version 7, split and folded as SQLite does: ``PostgreSQLTextWords``).
    ///   `folder_words` is empty unless `identifier_is_path` (since version 2).
    ///   `change_count` counts the batches written to the domain (since version 3).
    /// - `thumbnail`: thumbnails apart, so that item rows stay small; re-keyed and deleted
    ///   with their item by the foreign key.
    ///
    /// Wildcards and substrings on names use `pg_trgm` indexes (`LIKE`, `ILIKE`).
    /// Each migration's statements are made when it is applied (the word-folding one asks
    /// WordFolding about every scalar, a cost no start-up should pay).
    ///
    /// Versions are in increasing order and never reused: a migration, once released, is never
    /// edited, only followed by another (``migrate()`` runs those above the recorded version, so
    /// an edit would reach new databases only). The last version is ``schemaVersion``.
    ///
    /// - Version 1: the extensions, the SQL helpers `searchlight_unmark`, `searchlight_fold`,
    ///   `searchlight_words`, `searchlight_identifier_text` and `searchlight_word_vector`, and the
    ///   three tables with their indexes.
    /// - Version 2: `identifier_is_path` (true for the rows already there, false for new ones).
    /// - Version 3: `domain.change_count`.
    /// - Version 4: `searchlight_join_cjk`, the SQL twin of the SQLite matcher's joining of Han
    ///   and kana runs (``cjkClass``).
    /// - Version 5: `name_vector` and the indexes in the order of results.
    /// - Version 6: the user attributes (tags, comment, rating, origins).
    /// - Versions 7 to 13: made by their own types (`PostgreSQLTextWords`,
    ///   `PostgreSQLWordFolding`, `PostgreSQLVisibility`, `PostgreSQLMeaning`,
    ///   `PostgreSQLTextInitials`, `PostgreSQLFieldWords`, `PostgreSQLTextStart`), each beside
    ///   the code that reads what it adds.
    ///
    /// The statements are plain SQL text run with `PostgresQuery(unsafeSQL:)`: they take no
    /// argument from outside the code, only constants such as ``cjkClass``.
    ///
    /// ## The item table today
    ///
    /// What a reader of the database finds in `item`, by group of columns (the version that added
    /// each is in parentheses when it is not 1):
    ///
    /// - The key: `domain_id` (the `domain` row), `identifier` (`bytea`: the item's identifier,
    ///   not necessarily UTF-8).
    /// - The attributes, one typed column each: `display_name`, `title`, `authors` and `keywords`
    ///   (`text[]`), `content_type` and `content_type_tree` (`text[]`, for `contentTypeTree`
    ///   queries), `content_description`, `text_content`, `size`, `modification_date` and
    ///   `creation_date` (seconds since 1970), `pixel_width`, `pixel_height`, `page_count`,
    ///   `acquisition_make`, `acquisition_model`, `latitude`, `longitude`, `expiration_date`,
    ///   and the user attributes `user_tags`, `comment`, `star_rating`, `where_froms` (6).
    /// - The file indexer's bookkeeping: `change_stamp` (what the file's status was when it was
    ///   read), `failure` (`reason: message`, when extraction failed), `identifier_is_path` (2).
    /// - The words, made in Swift by the writers: `name_words`, `title_words`, `folder_words`
    ///   (words joined by spaces), `author_words` and `keyword_words` (one entry per author or
    ///   keyword), `text_words` (a `tsvector` literal since 8), and `words_folded` (8: false for
    ///   rows that wait for ``refoldWords()``).
    /// - Derived by the server, never written: `words` (the `tsvector` of the word columns),
    ///   `name_vector` (5), `text_initials` (11: the first letters of the text's words),
    ///   `field_words` (12: each rich field's words tagged with their field, ``PostgreSQLFieldWords``),
    ///   `text_start_words` (13: the words of a long text's start, ``PostgreSQLTextStart``).
    /// - Who may read it (9): `readers` (the rules of the file's owner, mode and ACL),
    ///   `folder_keys` (the keys of the folders above it), `access_pending` (written before 9,
    ///   not yet looked at again).
    ///
    /// Beside it: `domain` (`name`, `host`, `root`, `state`, `last_update_date`,
    /// `change_count`), `thumbnail`, `searchlight_folder`, `searchlight_person`,
    /// `searchlight_key` (9), `item_meaning` and `meaning_vector` (10), and
    /// `searchlight_schema_version`, which records each version applied and when.
    static let migrations: [(version: Int, statements: @Sendable () -> [String])] = [
        (1, { [
            """
            CREATE EXTENSION IF NOT EXISTS unaccent
            """,
            """
            CREATE EXTENSION IF NOT EXISTS pg_trgm
            """,
            """
            CREATE TEXT SEARCH CONFIGURATION searchlight_text (COPY = pg_catalog.simple)
            """,
            """
            ALTER TEXT SEARCH CONFIGURATION searchlight_text
                ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part,
                    numword, numhword, hword_numpart
                WITH unaccent, simple
            """,
            // Lowercases and removes combining marks (NFD, then the Mn blocks), as
            // NameTokenizer.fold does in Swift; for `c` and `d` query modifiers.
            """
            CREATE FUNCTION searchlight_unmark(value text) RETURNS text
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                RETURN regexp_replace(normalize(value, NFD),
                    '[\\u0300-\\u036F\\u0483-\\u0489\\u0591-\\u05BD\\u0610-\\u061A\\u064B-\\u065F\\u0670'
                    '\\u06D6-\\u06DC\\u0E31\\u0E34-\\u0E3A\\u0E47-\\u0E4E\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF'
                    '\\u20D0-\\u20FF\\u302A-\\u302D\\u3099\\u309A\\uFE20-\\uFE2F]', '', 'g')
            """,
            """
            CREATE FUNCTION searchlight_fold(value text) RETURNS text
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                RETURN lower(searchlight_unmark(value))
            """,
            // The words of a text split the way NameTokenizer splits names (separators, case
            // changes, letter/digit boundaries), folded and joined by spaces: for `w` and `t`
            // on attributes whose words are not stored.
            """
            CREATE FUNCTION searchlight_words(value text) RETURNS text
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                RETURN btrim(regexp_replace(searchlight_fold(
                    regexp_replace(regexp_replace(regexp_replace(regexp_replace(normalize(value, NFC),
                        '([[:lower:]])(?=[[:upper:]])', '\\1 ', 'g'),
                        '([[:upper:]])(?=[[:upper:]][[:lower:]])', '\\1 ', 'g'),
                        '([[:alpha:]])(?=[[:digit:]])', '\\1 ', 'g'),
                        '([[:digit:]])(?=[[:alpha:]])', '\\1 ', 'g')),
                    '[^[:alnum:]]+', ' ', 'g'))
            """,
            // Identifier bytes as text, for matches with modifiers: UTF-8 when they are,
            // else Latin-1 (so that no identifier makes a query fail).
            """
            CREATE FUNCTION searchlight_identifier_text(value bytea) RETURNS text
                LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
                BEGIN
                    RETURN convert_from(value, 'UTF8');
                EXCEPTION WHEN OTHERS THEN
                    RETURN convert_from(value, 'LATIN1');
                END $$
            """,
            """
            CREATE FUNCTION searchlight_word_vector(name text, title text, authors text[], keywords text[],
                                                    folders text) RETURNS tsvector
                LANGUAGE sql IMMUTABLE PARALLEL SAFE
                RETURN array_to_tsvector(array_remove(string_to_array(
                    coalesce(name, '') || ' ' || coalesce(title, '') || ' '
                    || coalesce(array_to_string(authors, ' '), '') || ' '
                    || coalesce(array_to_string(keywords, ' '), '') || ' ' || coalesce(folders, ''), ' '), ''))
            """,
            """
            CREATE TABLE domain (
                id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                name text NOT NULL UNIQUE,
                host text,
                root text,
                last_update_date double precision,
                state text
            )
            """,
            """
            CREATE TABLE item (
                domain_id bigint NOT NULL REFERENCES domain(id) ON DELETE CASCADE,
                identifier bytea NOT NULL,
                display_name text,
                title text,
                authors text[] NOT NULL DEFAULT '{}',
                content_type text,
                content_type_tree text[] NOT NULL DEFAULT '{}',
                content_description text,
                keywords text[] NOT NULL DEFAULT '{}',
                text_content text,
                size bigint,
                modification_date double precision,
                creation_date double precision,
                pixel_width integer,
                pixel_height integer,
                page_count integer,
                acquisition_make text,
                acquisition_model text,
                latitude double precision,
                longitude double precision,
                expiration_date double precision,
                change_stamp bytea,
                failure text,
                name_words text NOT NULL DEFAULT '',
                title_words text NOT NULL DEFAULT '',
                author_words text[] NOT NULL DEFAULT '{}',
                keyword_words text[] NOT NULL DEFAULT '{}',
                folder_words text NOT NULL DEFAULT '',
                words tsvector GENERATED ALWAYS AS
                    (searchlight_word_vector(name_words, title_words, author_words, keyword_words, folder_words)) STORED,
                text_words tsvector GENERATED ALWAYS AS
                    (to_tsvector('searchlight_text', coalesce(text_content, ''))) STORED,
                PRIMARY KEY (domain_id, identifier)
            )
            """,
            """
            CREATE INDEX item_words ON item USING gin (words)
            """,
            """
            CREATE INDEX item_text_words ON item USING gin (text_words)
            """,
            """
            CREATE INDEX item_name_trigrams ON item USING gin (display_name gin_trgm_ops)
            """,
            """
            CREATE INDEX item_folded_name_trigrams ON item USING gin (searchlight_fold(display_name) gin_trgm_ops)
            """,
            """
            CREATE INDEX item_type_tree ON item USING gin (content_type_tree)
            """,
            """
            CREATE INDEX item_by_content_type ON item (content_type)
            """,
            """
            CREATE INDEX item_by_modification_date ON item (modification_date)
            """,
            """
            CREATE INDEX item_by_expiration ON item (domain_id, expiration_date) WHERE expiration_date IS NOT NULL
            """,
            """
            CREATE INDEX item_by_failure ON item (domain_id) WHERE failure IS NOT NULL
            """,
            """
            CREATE TABLE thumbnail (
                domain_id bigint NOT NULL,
                identifier bytea NOT NULL,
                format text NOT NULL,
                width integer NOT NULL,
                height integer NOT NULL,
                bytes bytea NOT NULL,
                PRIMARY KEY (domain_id, identifier),
                FOREIGN KEY (domain_id, identifier) REFERENCES item (domain_id, identifier)
                    ON DELETE CASCADE ON UPDATE CASCADE
            )
            """,
        ] }),
        // An item's folders give words only when its identifier is a path (the library takes
        // an identifier as opaque unless its caller says otherwise). Items written before
        // were all given folder words: they keep them.
        (2, { [
            """
            ALTER TABLE item ADD COLUMN identifier_is_path boolean NOT NULL DEFAULT true
            """,
            """
            ALTER TABLE item ALTER COLUMN identifier_is_path SET DEFAULT false
            """,
        ] }),
        // Each domain counts the batches written to it: what a reader polls to learn that the
        // index changed (`serve`'s live page, `query --live`). A writer only counts in its own
        // domain's row, so that writers of different domains still never touch a common row.
        (3, { [
            """
            ALTER TABLE domain ADD COLUMN change_count bigint NOT NULL DEFAULT 0
            """,
        ] }),
        // A text with the spaces between Han and kana characters left out, as the SQLite
        // index's matcher reads it (ContentWords.joinedCJK): a `w` or `t` word of those scripts
        // is found anywhere in such a run.
        (4, { [
            """
            CREATE FUNCTION searchlight_join_cjk(value text) RETURNS text
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
                RETURN regexp_replace(value, '(\(cjkClass))[[:space:]\\u200B]+(?=\(cjkClass))', '\\1', 'g')
            """,
        ] }),
        // The words of the name alone, indexed: the items where every word of a search is a
        // whole word of the name rank first, and a first page made only of them is read
        // without ranking every candidate (PostgresIndex.bestTierPage). Dates indexed in the
        // order of query results.
        (5, { [
            """
            ALTER TABLE item ADD COLUMN name_vector tsvector GENERATED ALWAYS AS
                (array_to_tsvector(array_remove(string_to_array(name_words, ' '), ''))) STORED
            """,
            """
            CREATE INDEX item_name_vector ON item USING gin (name_vector)
            """,
            // In the order query results come in (newest first, undated last): a query's first
            // page walks the index and stops, instead of sorting every match.
            """
            DROP INDEX item_by_modification_date
            """,
            """
            CREATE INDEX item_by_modification_date ON item (modification_date DESC NULLS LAST)
            """,
            // In the order of search results among equals: a best-tier page of a common word
            // walks it, checking each item's name, and stops at the page's end.
            """
            CREATE INDEX item_by_recency ON item ((coalesce(modification_date, 0)) DESC)
            """,
        ] }),
        // v6-user-tags: tags, comment, rating and origins (UserAttributes), from a file's
        // extended attributes. Their words join `keyword_words` (ItemRow.keywordWords), so
        // that `words` finds them at the rank of keywords; items written before had none.
        (6, { [
            """
            ALTER TABLE item ADD COLUMN user_tags text[] NOT NULL DEFAULT '{}',
                ADD COLUMN comment text,
                ADD COLUMN star_rating double precision,
                ADD COLUMN where_froms text[] NOT NULL DEFAULT '{}'
            """,
        ] }),
        // v7-text-words-as-sqlite: the text's words split as the SQLite index splits them.
        (PostgreSQLTextWords.migration.version, { PostgreSQLTextWords.migration.statements }),
        // v8-one-word-fold: every word made by Searchlight's own fold and splitter.
        (PostgreSQLWordFolding.version, { PostgreSQLWordFolding.statements }),
        // v9-visibility: each person sees what they may read.
        (PostgreSQLVisibility.version, { PostgreSQLVisibility.statements }),
        // v10-meaning: the vectors of search by meaning.
        (PostgreSQLMeaning.version, { PostgreSQLMeaning.statements }),
        // v11-text-initials: a one-letter prefix of the text's words as one list.
        (PostgreSQLTextInitials.version, { PostgreSQLTextInitials.statements }),
        // v12-field-words: each rich field's words, tagged with their field, in one index.
        (PostgreSQLFieldWords.version, { PostgreSQLFieldWords.statements }),
        // v13-text-start: the words of the start of each long text, for relevance and phrases.
        (PostgreSQLTextStart.version, { PostgreSQLTextStart.statements }),
    ]

    /// Han and kana, as a regular expression class: the characters the SQLite index splits
    /// one by one (ContentWords.isSplitCJK — hiragana, katakana and the ideographs).
    ///
    /// Spliced into migration 4's `searchlight_join_cjk`. Changing it changes nothing in a
    /// database already at version 4 or later: the function was created with the class of its
    /// day, so a new class needs a new migration that replaces the function.
    static let cjkClass = "[\\u3040-\\u30FF\\u31F0-\\u31FF\\uFF66-\\uFF9D\\u3006\\u3007\\u3021-\\u3029"
        + "\\u3038-\\u303A\\u3400-\\u4DBF\\u4E00-\\u9FFF\\uF900-\\uFAFF\\U00017000-\\U00018AFF"
        + "\\U0001B170-\\U0001B2FB\\U00020000-\\U0003FFFF]"

    /// The schema version this build writes and reads.
    ///
    /// A writable handle migrates an older database up to this version when it opens; a
    /// read-only handle refuses a database at any other version (older or newer), and a writable
    /// one refuses a newer one, with ``PostgresIndexError/Code/unsupportedDatabase``.
    public static var schemaVersion: Int { migrations.last!.version }

    /// Brings the schema up to date: every migration above the recorded version, in order, in
    /// one transaction.
    ///
    /// The transaction first takes an advisory lock (key 91754175713352, "SEARCH" in ASCII), so
    /// writers that open the same database at once take turns: the second one finds the schema
    /// already migrated and applies nothing. All the migrations commit together or not at all,
    /// so a failure leaves the database at the version it had. The statement timeout is lifted
    /// for the transaction: a migration that rewrites every row may take minutes.
    ///
    /// Called by the initializer of a writable handle only (``isReadOnly`` false), before
    /// `refoldWords()`.
    ///
    /// - Throws: ``PostgresIndexError`` with ``PostgresIndexError/Code/unsupportedDatabase`` when
    ///   the database's encoding is not UTF-8 or its locale does not lowercase `É`, when its
    ///   schema is newer than ``schemaVersion``, or when a statement is refused for want of a
    ///   privilege or a feature (SQLSTATE 42501 or 0A000: in practice the extensions `unaccent`
    ///   and `pg_trgm`); any other failure as the transaction reports it.
    func migrate() async throws {
        let logger = self.logger, location = self.location
        try await withTransaction("cannot prepare the database") { connection in
            // Migrations may take long: the statement timeout of a handle is for its queries.
            try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
            // The key is "SEARCH" in ASCII.
            try await connection.query("SELECT pg_advisory_xact_lock(91754175713352)", logger: logger)
            let encoding = try await connection.query("SELECT current_setting('server_encoding'), lower('É') = 'é'",
                                                      logger: logger)
            for try await (name, folds) in encoding.decode((String, Bool).self) {
                guard name == "UTF8", folds else {
                    throw PostgresIndexError(.unsupportedDatabase, "the database must use the UTF8 encoding and a UTF-8 "
                                             + "locale (createdb -E UTF8 --locale=C.UTF-8 NAME)", location: location)
                }
            }
            try await connection.query("""
                CREATE TABLE IF NOT EXISTS searchlight_schema_version (
                    version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            var current = 0
            for try await version in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM searchlight_schema_version", logger: logger).decode(Int.self) {
                current = version
            }
            guard current <= Self.schemaVersion else {
                throw PostgresIndexError(.unsupportedDatabase, "the index has schema version \(current), newer than "
                                         + "this Searchlight's \(Self.schemaVersion)", location: location)
            }
            for migration in Self.migrations where migration.version > current {
                do {
                    for statement in migration.statements() {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501"
                    || error.serverInfo?[.sqlState] == "0A000" {
                    throw PostgresIndexError(.unsupportedDatabase, "cannot create the extensions unaccent and pg_trgm "
                                             + "(install postgresql-contrib; a superuser can run CREATE EXTENSION)",
                                             location: location, cause: error)
                }
                try await connection.query(
                    "INSERT INTO searchlight_schema_version(version) VALUES (\(migration.version))", logger: logger)
            }
        }
    }
}
