-- haapi-gateway: the PostgreSQL tables of sessions.store: postgres (schema version 6).
--
-- The gateway creates these tables itself on its first start when its user may create tables (inside a transaction,
-- under an advisory lock, so replicas starting at once are safe). Where it may not, create them with this file as a
-- user that may, once, before the gateway starts:
--
--     psql "postgres://admin@db.example.com/haapi" -v ON_ERROR_STOP=1 -1 -f docs/postgres-schema.sql
--
-- and give the gateway's user (here haapi_gateway) what it needs, and nothing more:
--
--     GRANT SELECT ON haapi_gateway_schema TO haapi_gateway;
--     GRANT SELECT, INSERT, UPDATE, DELETE ON haapi_gateway_sessions, haapi_gateway_outbox, haapi_gateway_upstream_facts,
--         haapi_gateway_device_authorizations, haapi_gateway_used_start_links, haapi_gateway_sign_in_starts,
--         haapi_gateway_device_tokens, haapi_gateway_sign_in_outcomes, haapi_gateway_wrong_user_codes TO haapi_gateway;
--
-- The gateway then finds version 6 in haapi_gateway_schema and changes nothing. A gateway that finds a newer version
-- than it knows refuses to start. Tables of versions 1 to 5 (made by an earlier gateway or an earlier copy of this file)
-- are brought to version 6 by running this file again: every statement is idempotent. Every statement below is also in Sources/HAAPIGatewayPostgres/PostgresSchema.swift
-- (a test keeps the two equal).
--
-- What the columns hold: sessions are found by the SHA-256 of the session id (the cookie), never the id itself;
-- every document is AES-256-GCM sealed by the gateway (sessions.encryptionKeysFile) and bound to its row. A copy of
-- these tables without the key file reveals client addresses, sink names, outcomes and times, not what a sign-in holds.
-- haapi_gateway_upstream_facts holds nothing secret and nothing sealed: per upstream issuer and client id, whether the
-- upstream issues token-bound authorization codes, and when a replica learned it.
-- haapi_gateway_device_authorizations finds a device by the SHA-256 of its device code and a person's code by an HMAC
-- under a key derived from the key file (never the codes themselves); the tokens waiting for a device's next poll are
-- sealed like the sessions. haapi_gateway_used_start_links holds the SHA-256 of each used start link's signature until
-- the link expires. haapi_gateway_sign_in_starts holds a client address and a time for each sign-in started, for a
-- day at most (the per-address budget of new sign-ins, counted for the replicas together). haapi_gateway_device_tokens
-- holds the SHA-256 of each access token handed to a device client, with the client and when the token expires, so
-- that a device may revoke only its own tokens (RFC 7009 §2.1). haapi_gateway_sign_in_outcomes holds, for a day, each
-- sign-in's id with its first outcome (success, error or cancelled) and that outcome's delivery id, written in the same
-- statement as the outcome's deliveries, so that a sign-in a killed replica had ended is not ended again by another.
-- haapi_gateway_wrong_user_codes holds, for a day at most, the time of each wrong user code entered on the verification
-- page and the client address's HMAC under a key derived from the key file (never the address itself), so that the
-- bounds on guessing codes hold for the replicas together.

CREATE TABLE IF NOT EXISTS haapi_gateway_schema (
    version integer NOT NULL,
    installed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS haapi_gateway_sessions (
    id text PRIMARY KEY,
    version bigint NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    idle_expires_at timestamptz NOT NULL,
    idle_timeout_seconds integer NOT NULL,
    address text,
    document bytea NOT NULL
);

CREATE INDEX IF NOT EXISTS haapi_gateway_sessions_expiry
    ON haapi_gateway_sessions (LEAST(expires_at, idle_expires_at));

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
);

CREATE INDEX IF NOT EXISTS haapi_gateway_outbox_due
    ON haapi_gateway_outbox (next_attempt_at);

-- Version 2: when a session was last used (kiosk idle resets), and which request holds it while it acts (claimed_by is
-- a random value per request; a claim ends when released or at claimed_until).
ALTER TABLE haapi_gateway_sessions
    ADD COLUMN IF NOT EXISTS used_at timestamptz,
    ADD COLUMN IF NOT EXISTS claimed_by text,
    ADD COLUMN IF NOT EXISTS claimed_until timestamptz;

-- Version 3: what the replicas learned about the upstream, per issuer and client id: whether it issues token-bound
-- authorization codes (Curity's issue-token-bound-authorization-code), so that a restart or another replica proves its
-- first code exchange at once. Delete a row to make the gateways learn it again.
CREATE TABLE IF NOT EXISTS haapi_gateway_upstream_facts (
    issuer text NOT NULL,
    client_id text NOT NULL,
    token_bound_codes boolean NOT NULL,
    learned_at timestamptz NOT NULL,
    PRIMARY KEY (issuer, client_id)
);

-- Version 4: the device authorizations under way (RFC 8628), so that any replica serves any step of one and hands its
-- tokens over once; the start links used, so that each starts one sign-in across the replicas; the sign-ins each
-- address started (sessions.maximumNewSessionsPerAddress for the replicas together); and whether anyone came back to a
-- session after its first page (at the cap, one nobody came back to is pushed out). Rows are deleted by the gateways
-- once they are of no more use.
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
);

CREATE INDEX IF NOT EXISTS haapi_gateway_device_authorizations_forget
    ON haapi_gateway_device_authorizations (forget_at);

CREATE TABLE IF NOT EXISTS haapi_gateway_used_start_links (
    signature_hash text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS haapi_gateway_used_start_links_expiry
    ON haapi_gateway_used_start_links (expires_at);

CREATE TABLE IF NOT EXISTS haapi_gateway_device_tokens (
    token_hash text PRIMARY KEY,
    client_id text NOT NULL,
    expires_at timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS haapi_gateway_sign_in_starts (
    address text NOT NULL,
    started_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS haapi_gateway_sign_in_starts_address
    ON haapi_gateway_sign_in_starts (address, started_at);

ALTER TABLE haapi_gateway_sessions
    ADD COLUMN IF NOT EXISTS returned boolean NOT NULL DEFAULT true;

CREATE INDEX IF NOT EXISTS haapi_gateway_sessions_untouched
    ON haapi_gateway_sessions (address, created_at) WHERE NOT returned;

CREATE TABLE IF NOT EXISTS haapi_gateway_sign_in_outcomes (
    sign_in text PRIMARY KEY,
    outcome text NOT NULL,
    delivery_id text NOT NULL,
    recorded_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS haapi_gateway_sign_in_outcomes_recorded
    ON haapi_gateway_sign_in_outcomes (recorded_at);

-- Version 6: the wrong user codes entered on the verification page (devices.maximumWrongCodesPerAddress and
-- devices.maximumWrongCodes for the replicas together); address_hash is NULL for a request without an address.
CREATE TABLE IF NOT EXISTS haapi_gateway_wrong_user_codes (
    address_hash text,
    wrong_at timestamptz NOT NULL
);

CREATE INDEX IF NOT EXISTS haapi_gateway_wrong_user_codes_time
    ON haapi_gateway_wrong_user_codes (wrong_at);

CREATE INDEX IF NOT EXISTS haapi_gateway_wrong_user_codes_address
    ON haapi_gateway_wrong_user_codes (address_hash, wrong_at);

INSERT INTO haapi_gateway_schema (version) SELECT 6 WHERE NOT EXISTS (SELECT 1 FROM haapi_gateway_schema);
UPDATE haapi_gateway_schema SET version = 6, installed_at = now() WHERE version < 6;
