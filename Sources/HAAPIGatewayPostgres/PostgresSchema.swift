import HAAPIGateway

/// The tables the gateway keeps in PostgreSQL, by schema version, and how one version becomes the next.
///
/// `haapi_gateway_schema` holds the version the tables are at. ``migrations`` maps each version to the statements that
/// bring the one before it there (version 1: from nothing; version 2: when a session was last used, and who holds it
/// while a request acts on it, ``PostgresSessionStorage/claim(id:claim:lease:knownVersion:)``; version 3: what the
/// replicas learned about the upstream, ``PostgresUpstreamFacts``; version 4: the device authorizations under way,
/// ``PostgresDeviceAuthorizations``, the start links used, ``PostgresStartLinkLedger``, the sign-ins each address
/// started, ``PostgresNewSessionLimiter``, and whether anyone came back to a session, so that one nobody did can be
/// pushed out at the cap; version 5: each sign-in's first outcome, ``PostgresOutbox/enqueue(_:claimingFor:ending:)``;
/// version 6: the wrong user codes entered on the verification page, ``PostgresUserCodeAttemptLimiter``).
/// Every statement is idempotent (`IF NOT EXISTS`), so a
/// database whose tables an operator created from `docs/postgres-schema.sql` needs nothing from the gateway.
enum PostgresSchema {
    /// The version this gateway writes and reads.
    static let currentVersion = 6

    /// A fixed key for `pg_advisory_xact_lock`: replicas starting at once prepare the tables one after the other
    /// (concurrent `CREATE TABLE IF NOT EXISTS` can fail on PostgreSQL's catalogue).
    static let preparationLockKey: Int64 = 0x6861_6170_6967_7701  // "haapigw" and 1

    /// The setting ``preparation(marker:)`` leaves on its connection: its marker and the version it found
    /// (`"<marker> 4"`, `"<marker> none"`).
    static let preparationNote = "haapi_gateway.prepared"

    /// The preparation as one statement (a PL/pgSQL `DO` block) and so one transaction of its own: it takes the
    /// preparation lock, creates the version table, reads the version, and unless the tables are newer than this
    /// gateway's runs each version's ``migrations`` from the one after the version found to ``currentVersion`` and writes
    /// the version. The lock is held only while the database runs it, never across a round trip to the gateway, which a
    /// loaded machine may answer late: replicas starting at once wait for each other for milliseconds, not for each
    /// other's round trips. What it found is left in ``preparationNote`` for the session, after `marker` (letters and
    /// digits), to be read on the same connection.
    static func preparation(marker: String) -> String {
        precondition(marker.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }, "the marker is written into the statement")
        // Each statement of the tables as dynamic SQL: its text as a literal.
        func execute(_ statement: String) -> String { "EXECUTE '\(statement.replacingOccurrences(of: "'", with: "''"))';" }
        var lines = [
            "DO $haapi_gateway_preparation$",
            "DECLARE stored integer;",
            "BEGIN",
            "PERFORM pg_advisory_xact_lock(\(preparationLockKey));",
            execute(createSchemaTable),
            "SELECT max(version) INTO stored FROM haapi_gateway_schema;",
            "PERFORM set_config('\(preparationNote)', '\(marker) ' || coalesce(stored::text, 'none'), false);",
            // Tables newer than this gateway's are left as they are (the gateway refuses them).
            "IF stored > \(currentVersion) THEN RETURN; END IF;",
        ]
        for version in 1...currentVersion {
            lines += ["IF coalesce(stored, 0) < \(version) THEN"] + (migrations[version] ?? []).map(execute) + ["END IF;"]
        }
        lines += [
            "IF stored IS NULL THEN INSERT INTO haapi_gateway_schema (version) VALUES (\(currentVersion));",
            "ELSIF stored < \(currentVersion) THEN UPDATE haapi_gateway_schema SET version = \(currentVersion), installed_at = now();",
            "END IF;",
            "END",
            "$haapi_gateway_preparation$",
        ]
        return lines.joined(separator: "\n")
    }

    static let schemaTable = "haapi_gateway_schema"
    static let sessionsTable = "haapi_gateway_sessions"
    static let outboxTable = "haapi_gateway_outbox"
    static let upstreamFactsTable = "haapi_gateway_upstream_facts"
    static let deviceAuthorizationsTable = "haapi_gateway_device_authorizations"
    static let usedStartLinksTable = "haapi_gateway_used_start_links"
    static let signInStartsTable = "haapi_gateway_sign_in_starts"
    static let deviceTokensTable = "haapi_gateway_device_tokens"
    static let signInOutcomesTable = "haapi_gateway_sign_in_outcomes"
    static let wrongUserCodesTable = "haapi_gateway_wrong_user_codes"

    /// The version table itself (created before any migration runs).
    static let createSchemaTable = """
        CREATE TABLE IF NOT EXISTS haapi_gateway_schema (
            version integer NOT NULL,
            installed_at timestamptz NOT NULL DEFAULT now()
        )
        """

    /// The statements that bring the tables from the version before to each version.
    static let migrations: [Int: [String]] = [
        1: [
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_sessions (
                id text PRIMARY KEY,
                version bigint NOT NULL,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                idle_expires_at timestamptz NOT NULL,
                idle_timeout_seconds integer NOT NULL,
                address text,
                document bytea NOT NULL
            )
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_sessions_expiry
                ON haapi_gateway_sessions (LEAST(expires_at, idle_expires_at))
            """,
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_outbox (
                delivery_id text NOT NULL,
                sink text NOT NULL,
                outcome text NOT NULL,
                document bytea NOT NULL,
                attempts integer NOT NULL DEFAULT 0,
                created_at timestamptz NOT NULL,
                next_attempt_at timestamptz NOT NULL,
                give_up_at timestamptz,
                claimed_by text,
                claimed_until timestamptz,
                PRIMARY KEY (delivery_id, sink)
            )
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_outbox_due
                ON haapi_gateway_outbox (next_attempt_at)
            """,
        ],
        2: [
            """
            ALTER TABLE haapi_gateway_sessions
                ADD COLUMN IF NOT EXISTS used_at timestamptz,
                ADD COLUMN IF NOT EXISTS claimed_by text,
                ADD COLUMN IF NOT EXISTS claimed_until timestamptz
            """
        ],
        3: [
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_upstream_facts (
                issuer text NOT NULL,
                client_id text NOT NULL,
                token_bound_codes boolean NOT NULL,
                learned_at timestamptz NOT NULL,
                PRIMARY KEY (issuer, client_id)
            )
            """
        ],
        4: [
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_device_authorizations (
                device_code_hash text PRIMARY KEY,
                reference text NOT NULL UNIQUE,
                user_code_hash text NOT NULL UNIQUE,
                client_id text NOT NULL,
                scopes text,
                created_at timestamptz NOT NULL,
                expires_at timestamptz NOT NULL,
                forget_at timestamptz NOT NULL,
                interval_seconds integer NOT NULL,
                last_poll_at timestamptz,
                entries integer NOT NULL DEFAULT 0,
                state text NOT NULL,
                tokens bytea,
                address text
            )
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_device_authorizations_forget
                ON haapi_gateway_device_authorizations (forget_at)
            """,
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_used_start_links (
                signature_hash text PRIMARY KEY,
                expires_at timestamptz NOT NULL
            )
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_used_start_links_expiry
                ON haapi_gateway_used_start_links (expires_at)
            """,
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_sign_in_starts (
                address text NOT NULL,
                started_at timestamptz NOT NULL
            )
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_sign_in_starts_address
                ON haapi_gateway_sign_in_starts (address, started_at)
            """,
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_device_tokens (
                token_hash text PRIMARY KEY,
                client_id text NOT NULL,
                expires_at timestamptz NOT NULL
            )
            """,
            """
            ALTER TABLE haapi_gateway_sessions
                ADD COLUMN IF NOT EXISTS returned boolean NOT NULL DEFAULT true
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_sessions_untouched
                ON haapi_gateway_sessions (address, created_at) WHERE NOT returned
            """,
        ],
        5: [
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_sign_in_outcomes (
                sign_in text PRIMARY KEY,
                outcome text NOT NULL,
                delivery_id text NOT NULL,
                recorded_at timestamptz NOT NULL
            )
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_sign_in_outcomes_recorded
                ON haapi_gateway_sign_in_outcomes (recorded_at)
            """,
        ],
        6: [
            """
            CREATE TABLE IF NOT EXISTS haapi_gateway_wrong_user_codes (
                address_hash text,
                wrong_at timestamptz NOT NULL
            )
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_wrong_user_codes_time
                ON haapi_gateway_wrong_user_codes (wrong_at)
            """,
            """
            CREATE INDEX IF NOT EXISTS haapi_gateway_wrong_user_codes_address
                ON haapi_gateway_wrong_user_codes (address_hash, wrong_at)
            """,
        ],
    ]
}
