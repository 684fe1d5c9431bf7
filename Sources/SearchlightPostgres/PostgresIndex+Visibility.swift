import PostgresNIO
import Searchlight
import SystemCalls

/// Each person sees only what they may read (Docs/Contract.md#shared-index): schema version 9.
///
/// Writers record who may read each file (`item.readers`, ``Searchlight/FileAccess/rules(for:)``
/// with the domain's id in front: `3/u:1000`) and who may pass each folder
/// (`searchlight_folder.passers`: the folders below each root, the root, and those above it),
/// and publish their machine's people (`searchlight_person`: name, user id and groups, from the
/// user database). Row-level security on `item` and `thumbnail` then gives a database role the
/// rows that the person of the same name could open on the item's machine: the file's own
/// rule, and no folder on its way that stops them.
///
/// Folders are matched by key: each item carries the keys of the folders above it
/// (`folder_keys`: the root's and each folder's below it), and a query computes once the keys
/// of the folders its person may not pass (`searchlight_blocked_folders()`), so that a row
/// costs two array overlaps. Keys are salted hashes (the salt readable by the writers'
/// role alone): what the function returns tells no folder's name.
///
/// Roles: the tables' owner (the writers' role) sees every row, as does any member of a role
/// named `searchlight_admin`; every other role that may connect sees its person's rows (none
/// when its name is no person of the item's machine). Identity is the role the session signed
/// in as (`session_user`).
///
/// A reader pays for this in every statement: the policy's functions run once per
/// statement (they are wrapped in `SELECT` so the planner computes them as init plans),
/// then each row costs the overlaps of `readers` with the person's tokens and of
/// `folder_keys` with the blocked keys. When the database's superuser ran the migration,
/// the search operators are `LEAKPROOF` and the GIN and trigram indexes still serve a
/// filtered reader; otherwise a reader's searches may scan.
///
/// ## The SQL functions
///
/// - `searchlight_folder_key(domain, prefix)`: the salted key of a folder.
/// - `searchlight_folder_keys(domain, identifier)`: the keys of the folders above an item,
///   the root's first; what `item.folder_keys` holds.
/// - `searchlight_folder_row_key(domain, identifier)`: the key a `searchlight_folder` row
///   stops (the root's, for the root and the folders above it).
/// - `searchlight_person_tokens(kind)`: the signed-in person's tokens of one kind, for every
///   domain of a machine where a person of that name is.
/// - `searchlight_allows(rules, …)`: whether rules let a person in; the one place the rule is
///   written in SQL, as ``Searchlight/FileAccess`` evaluates it in Swift.
/// - `searchlight_root_domains()`: the domains whose machine has the person as root.
/// - `searchlight_blocked_folders()`: the keys of the folders the person may not pass
///   (`SECURITY DEFINER`: it reads the folders and the salt as their owner).
/// - `searchlight_sees_all()`: whether the session's role is a member of `searchlight_admin`.
///
/// The key functions are revoked from `PUBLIC`: only the writers' role computes keys.
enum PostgreSQLVisibility {
    /// The schema version these statements bring the database to (see
    /// ``PostgresIndex/migrations``).
    static let version = 9

    /// `access`'s rules of `permission` as `item.readers` and `searchlight_folder.passers` hold
    /// them: with the domain's id in front (`3/u:1000`), as the person's tokens are made.
    ///
    /// The prefix keeps one machine's user ids from matching another's: user 1000 of the laptop
    /// is not user 1000 of the server. `searchlight_person_tokens` prefixes the person's
    /// tokens with the ids of the domains of their machine, so only the item's own machine
    /// counts.
    ///
    /// - Parameters:
    ///   - access: The owner, mode and ACL of a file or folder.
    ///   - permission: `.read` for an item's readers, `.pass` for a folder's passers.
    ///   - domainID: The id of the domain's row.
    /// - Returns: The rules, each as `ID/RULE`.
    static func rules(_ access: FileAccess, for permission: FileAccess.Permission, domainID: Int64) -> [String] {
        access.rules(for: permission).map { "\(domainID)/\($0)" }
    }

    /// The statements that mark the search's operators `LEAKPROOF` (a superuser's).
    ///
    /// Spliced into a `DO` block of ``statements`` that runs them only when the migrating role is
    /// a superuser; an administrator can run them later by hand.
    static let leakproof = [
        "ts_match_vq(tsvector, tsquery)", "textlike(text, text)", "texticlike(text, text)",
        "arrayoverlap(anyarray, anyarray)", "arraycontains(anyarray, anyarray)", "arraycontained(anyarray, anyarray)",
    ].map { "ALTER FUNCTION pg_catalog.\($0) LEAKPROOF;" }.joined(separator: " ")

    /// The change stamp an indexer compares with a file's, as the writers read it: for a file
    /// item written before version 9 (`access_pending`), the stored stamp with its change time
    /// moved (the last varint's low bit flipped), so that the next scan or watch reads its
    /// owner, mode and ACL as after a `chmod` (FileStatus.differsOnlyInChangeTime), without
    /// reading its content again. Until then only the writers and administrators see it.
    ///
    /// An SQL expression over `item`, spliced into the reads of change stamps
    /// (``PostgresIndex/changeStamps(domain:after:before:limit:)``). A stamp of 32 bytes (a
    /// content hash) or none is left as it is.
    static let storedStamp = """
        CASE WHEN item.access_pending AND length(item.change_stamp) NOT IN (0, 32)
            THEN set_byte(item.change_stamp, length(item.change_stamp) - 1,
                          get_byte(item.change_stamp, length(item.change_stamp) - 1) # 1)
            ELSE item.change_stamp END
        """

    /// The statements of migration 9, in order: the new columns, the folder, person and key
    /// tables, the SQL functions of the rule, the row-level security policies on `item` and
    /// `thumbnail`, the `LEAKPROOF` operators when the migrating role may mark them, and the
    /// grants that let any role read (filtered) rows.
    static let statements: [String] = [
        """
        ALTER TABLE item ADD COLUMN readers text[], ADD COLUMN folder_keys bigint[] NOT NULL DEFAULT '{}',
            ADD COLUMN access_pending boolean NOT NULL DEFAULT false
        """,
        // Files indexed before: who may read them is not known until a writer looks again.
        """
        UPDATE item SET access_pending = true WHERE identifier_is_path
        """,
        """
        CREATE TABLE searchlight_folder (
            domain_id bigint NOT NULL REFERENCES domain(id) ON DELETE CASCADE,
            identifier bytea NOT NULL,
            passers text[] NOT NULL,
            PRIMARY KEY (domain_id, identifier)
        )
        """,
        """
        CREATE TABLE searchlight_person (
            host text NOT NULL,
            name text NOT NULL,
            uid bigint NOT NULL,
            gids bigint[] NOT NULL,
            PRIMARY KEY (host, name)
        )
        """,
        """
        CREATE TABLE searchlight_key (salt text NOT NULL)
        """,
        """
        INSERT INTO searchlight_key SELECT md5(random()::text || clock_timestamp()::text || pg_backend_pid())
        """,
        // The key of the folder at `prefix` of a domain ('' for the root).
        """
        CREATE FUNCTION searchlight_folder_key(domain bigint, prefix bytea) RETURNS bigint
            LANGUAGE sql STABLE STRICT PARALLEL SAFE
            RETURN ('x' || left(md5((SELECT salt FROM searchlight_key) || domain || ':' || encode(prefix, 'hex')), 16))::bit(64)::bigint
        """,
        // The keys of the folders above an item: the root's, then each folder's on its path.
        """
        CREATE FUNCTION searchlight_folder_keys(domain bigint, identifier bytea) RETURNS bigint[]
            LANGUAGE sql STABLE STRICT PARALLEL SAFE
            RETURN (SELECT array_agg(searchlight_folder_key(domain, substring(identifier FROM 1 FOR n)) ORDER BY n)
                    FROM (SELECT 0 AS n UNION ALL
                          SELECT p - 1 FROM generate_series(1, length(identifier)) AS p
                          WHERE get_byte(identifier, p - 1) = 47) AS prefixes)
        """,
        // The key a folder row stops: its own, or the root's for the root and the folders above it.
        """
        CREATE FUNCTION searchlight_folder_row_key(domain bigint, identifier bytea) RETURNS bigint
            LANGUAGE sql STABLE STRICT PARALLEL SAFE
            RETURN searchlight_folder_key(domain,
                CASE WHEN length(identifier) > 0 AND get_byte(identifier, 0) = 47 THEN ''::bytea ELSE identifier END)
        """,
        """
        REVOKE ALL ON searchlight_key, searchlight_folder FROM PUBLIC
        """,
        """
        REVOKE EXECUTE ON FUNCTION searchlight_folder_key(bigint, bytea), searchlight_folder_keys(bigint, bytea),
            searchlight_folder_row_key(bigint, bytea) FROM PUBLIC
        """,
        // The signed-in person's tokens of one kind, for every domain of a machine where a
        // person of that name is: 'u', '-u', 'g', '-g' and '*' (FileAccess's rules).
        """
        CREATE FUNCTION searchlight_person_tokens(kind text) RETURNS text[]
            LANGUAGE sql STABLE PARALLEL SAFE
            RETURN (SELECT coalesce(array_agg(d.id || '/' || t.token), '{}')
                    FROM domain d JOIN searchlight_person p ON p.host = d.host AND p.name = session_user
                    CROSS JOIN LATERAL (
                        SELECT 'u:' || p.uid AS token WHERE kind = 'u'
                        UNION ALL SELECT '-u:' || p.uid WHERE kind = '-u'
                        UNION ALL SELECT 'g:' || g FROM unnest(p.gids) AS g WHERE kind = 'g'
                        UNION ALL SELECT '-g:' || g FROM unnest(p.gids) AS g WHERE kind = '-g'
                        UNION ALL SELECT '*' WHERE kind = '*') AS t)
        """,
        // Whether a person whose tokens are `u`, `nu`, `g`, `ng` and `everyone` (each kind of
        // searchlight_person_tokens) may, by `rules`: the first of their user, their user
        // denied, one of their groups, their groups denied, anyone (FileAccess.evaluate).
        // The one place the rule is written in SQL: items' readers and folders' passers.
        """
        CREATE FUNCTION searchlight_allows(rules text[], u text[], nu text[], g text[], ng text[], everyone text[])
            RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE
            RETURN CASE WHEN rules && u THEN true
                        WHEN rules && nu THEN false
                        WHEN rules && g THEN true
                        WHEN rules && ng THEN false
                        ELSE rules && everyone END
        """,
        // The domains whose machine has the signed-in person as root: all of their items.
        """
        CREATE FUNCTION searchlight_root_domains() RETURNS bigint[]
            LANGUAGE sql STABLE PARALLEL SAFE
            RETURN (SELECT coalesce(array_agg(d.id), '{}') FROM domain d
                    JOIN searchlight_person p ON p.host = d.host AND p.name = session_user AND p.uid = 0)
        """,
        // The keys of the folders the signed-in person may not pass. Reads the folders and
        // the salt as their owner; tells only keys.
        """
        CREATE FUNCTION searchlight_blocked_folders() RETURNS bigint[]
            LANGUAGE sql STABLE SECURITY DEFINER PARALLEL SAFE
            SET search_path FROM CURRENT
            RETURN (SELECT coalesce(array_agg(DISTINCT searchlight_folder_row_key(f.domain_id, f.identifier)), '{}')
                    FROM searchlight_folder f
                    WHERE NOT (ARRAY[f.domain_id] <@ (SELECT searchlight_root_domains())
                               OR searchlight_allows(f.passers, (SELECT searchlight_person_tokens('u')),
                                   (SELECT searchlight_person_tokens('-u')), (SELECT searchlight_person_tokens('g')),
                                   (SELECT searchlight_person_tokens('-g')), (SELECT searchlight_person_tokens('*')))))
        """,
        """
        CREATE FUNCTION searchlight_sees_all() RETURNS boolean
            LANGUAGE sql STABLE PARALLEL SAFE
            RETURN coalesce((SELECT pg_has_role(session_user, r.oid, 'MEMBER') FROM pg_roles r
                             WHERE r.rolname = 'searchlight_admin'), false)
        """,
        """
        ALTER TABLE item ENABLE ROW LEVEL SECURITY
        """,
        """
        CREATE POLICY searchlight_person_reads ON item FOR SELECT USING (
            (SELECT searchlight_sees_all())
            OR ARRAY[domain_id] <@ (SELECT searchlight_root_domains())
            OR ((CASE WHEN readers IS NULL THEN NOT access_pending
                      ELSE searchlight_allows(readers, (SELECT searchlight_person_tokens('u')),
                          (SELECT searchlight_person_tokens('-u')), (SELECT searchlight_person_tokens('g')),
                          (SELECT searchlight_person_tokens('-g')), (SELECT searchlight_person_tokens('*'))) END)
                AND NOT folder_keys && (SELECT searchlight_blocked_folders())))
        """,
        """
        ALTER TABLE thumbnail ENABLE ROW LEVEL SECURITY
        """,
        """
        CREATE POLICY searchlight_person_reads ON thumbnail FOR SELECT USING (
            EXISTS (SELECT 1 FROM item i WHERE i.domain_id = thumbnail.domain_id AND i.identifier = thumbnail.identifier))
        """,
        // The operators searches filter with may run before the policy (and so through the GIN
        // and trigram indexes): they tell nothing of a row but whether it matches. Only a
        // superuser may say so, in this database; otherwise Docs/Guide/SharedIndex.md says how.
        """
        DO $$ BEGIN
            IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
                \(leakproof)
            END IF;
        END $$
        """,
        // Rows are filtered per person: anyone who may connect may read.
        """
        GRANT SELECT ON item, thumbnail, domain, searchlight_person, searchlight_schema_version TO PUBLIC
        """,
    ]
}

extension PostgresBatchWriter {
    /// Records who may pass through a folder: a row of `searchlight_folder`, its passers
    /// (``PostgreSQLVisibility/rules(_:for:domainID:)`` of `.pass`).
    ///
    /// A folder below the root is keyed by its path's bytes relative to the root (`""` for the
    /// root); a folder above the root by its absolute path, which starts with `/` and so cannot be
    /// mistaken for one below. One statement; a row whose passers did not change is not
    /// rewritten, so a scan that finds nothing new leaves no dead rows behind.
    ///
    /// Items already indexed below the folder are not touched: their `folder_keys` name the
    /// folder whatever its rules, and the policy reads the rules when a person reads.
    ///
    /// - Parameters:
    ///   - access: The folder's owner, mode and ACL, as the walk read them.
    ///   - folder: The folder: a path below the root, or an absolute path above it.
    ///   - domain: The id of the domain's row.
    /// - Throws: An error of the connection when the statement fails.
    func setFolderAccess(_ access: FileAccess, of folder: IndexBatch.FolderAccessKey, domain: Int64) async throws {
        let identifier = switch folder {
        case .inside(let path): ByteBuffer(bytes: path.bytes)
        case .above(let path): ByteBuffer(string: path)
        }
        try await connection.query("""
            INSERT INTO searchlight_folder (domain_id, identifier, passers)
            VALUES (\(domain), \(identifier), \(PostgreSQLVisibility.rules(access, for: .pass, domainID: domain)))
            ON CONFLICT (domain_id, identifier) DO UPDATE SET passers = excluded.passers
                WHERE searchlight_folder.passers IS DISTINCT FROM excluded.passers
            """, logger: logger)
    }
}

extension PostgresIndex {
    /// Publishes the people of the machine `host` (``SystemCalls/SystemCall/people()``): who a
    /// database role of the same name is there. Rewritten only when it changed.
    ///
    /// ``PostgresStore`` publishes them with each domain's origin (a scan's or a watch's
    /// ``PostgresStore/setOrigin(host:root:domain:)``): the row-level security that decides
    /// which items a role sees reads the person's user and groups from here, so a person added
    /// to a group on `host` sees that group's files once this ran again.
    ///
    /// ```swift
    /// try await index.publish(people: SystemCall.people(), host: "laptop")
    /// ```
    ///
    /// One transaction: the stored people of `host` are read and compared with `people` as a
    /// set; when they differ, they are all replaced. Other machines' people are untouched.
    ///
    /// - Parameters:
    ///   - people: The machine's people: name, user id and groups.
    ///   - host: The machine's name, as its domains record it.
    /// - Throws: ``PostgresIndexError`` when the database cannot be written.
    public func publish(people: [SystemCall.Person], host: String) async throws {
        try await withTransaction("cannot write to the index") { connection in
            var stored: Set<SystemCall.Person> = []
            let rows = try await connection.query("SELECT name, uid, gids FROM searchlight_person WHERE host = \(host)",
                                                  logger: self.logger)
            for try await (name, uid, gids) in rows.decode((String, Int64, [Int64]).self) {
                stored.insert(SystemCall.Person(name: name, user: UInt32(truncatingIfNeeded: uid),
                                                groups: gids.map { UInt32(truncatingIfNeeded: $0) }))
            }
            guard stored != Set(people) else { return }
            try await connection.query("DELETE FROM searchlight_person WHERE host = \(host)", logger: self.logger)
            let names = people.map(\.name), users = people.map { Int64($0.user) }
            // Groups as one text per person ('{1,2}'): arrays of arrays must be rectangular.
            let groups = people.map { "{" + $0.groups.map(String.init).joined(separator: ",") + "}" }
            try await connection.query("""
                INSERT INTO searchlight_person (host, name, uid, gids)
                SELECT \(host), name, uid, gids::bigint[] FROM unnest(\(names)::text[], \(users)::bigint[], \(groups)::text[])
                    AS p(name, uid, gids)
                """, logger: self.logger)
        }
    }
}
