"""The SQLite store's schema: its tables, the columns and indexes added since, and the schema's version.

``store.Store`` creates these on a new file and brings an older file up to them (``Store._upgrade``); the same
tables for PostgreSQL are the numbered files in ``migrations/``, and ``SCHEMA_VERSION`` is the number of the
newest. Kept apart from the store's code so that either can be read on its own.
"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL DEFAULT 'spots', -- 'spots' or 'double-spot'
    host_token TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    rules TEXT NOT NULL,
    status TEXT NOT NULL,            -- 'playing', 'over', 'abandoned' or 'quarantined'
    winner INTEGER,
    moves INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,              -- 'human' or 'bot'
    bot TEXT,
    name TEXT NOT NULL,
    token TEXT UNIQUE,               -- humans only: the invite link's secret
    claimed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    move TEXT NOT NULL,
    seat INTEGER NOT NULL,           -- -1 for chance events
    at REAL NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE TABLE IF NOT EXISTS accounts (  -- version 3 (account_store.py): optional accounts, sessions, passkeys
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,       -- case-folded name
    password TEXT,                       -- argon2id hash; NULL: none (passkeys only)
    email TEXT,
    notify INTEGER NOT NULL DEFAULT 0,   -- 1: send your-turn notices to the e-mail address
    created REAL NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0, -- wrong passwords since the last right one
    failed_at REAL NOT NULL DEFAULT 0,
    reset TEXT,                          -- hash of a one-time reset code
    reset_until REAL
);
CREATE TABLE IF NOT EXISTS sessions (
    hash TEXT PRIMARY KEY,               -- SHA-256 of the cookie's token
    account TEXT NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL,
    seen REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (account);
CREATE TABLE IF NOT EXISTS passkeys (
    id TEXT PRIMARY KEY,                 -- credential id (base64url)
    account TEXT NOT NULL REFERENCES accounts(id),
    public_key TEXT NOT NULL,
    sign_count INTEGER NOT NULL DEFAULT 0,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS challenges (
    hash TEXT PRIMARY KEY,               -- SHA-256 of a WebAuthn challenge handed out, used once
    account TEXT,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS devices (    -- version 11: browsers that signed in before (migrations/0011_devices.sql)
    hash TEXT PRIMARY KEY,               -- SHA-256 of the device cookie's token
    account TEXT NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0, -- this browser's wrong passwords since its last right one
    failed_at REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS devices_by_account ON devices (account);
"""
COLUMNS = {  # columns added after the first release: (table, column, definition)
    ("tables", "game", "TEXT NOT NULL DEFAULT 'spots'"),  # before Double Spot every table was Spots
    ("tables", "summary", "TEXT"),  # the lobby row of a finished table, so the lobby never replays it
    ("tables", "problem", "TEXT"),  # why a table was quarantined
    ("tables", "owner", "TEXT"),  # who created it (a hashed address), for the per-client table limit
    ("seats", "open", "INTEGER NOT NULL DEFAULT 0"),  # may be taken from the lobby (else: only with its link)
    ("tables", "rated", "INTEGER NOT NULL DEFAULT 0"),  # its result changes ratings (migration 7)
    ("seats", "account", "TEXT"),  # version 3: the account that took the seat (NULL: a guest or a bot)
    ("tables", "clock", "TEXT"),  # version 5: a clocked table's clock (web/clocks.py: JSON), NULL without one
    ("invitations", "status", "TEXT NOT NULL DEFAULT 'invited'"),  # version 10: 'invited', 'accepted', 'declined'
    ("accounts", "look_alike", "TEXT"),  # version 12: the name's look-alike key (look_alike.py); NULL: made before
    # version 13: e-mail only to a confirmed address, with a one-click unsubscribe link, at most so many a day
    ("accounts", "email_confirmed", "INTEGER NOT NULL DEFAULT 0"),
    ("accounts", "email_token", "TEXT"),  # hash of the confirmation link's token
    ("accounts", "email_token_until", "REAL"),
    ("accounts", "unsubscribe", "TEXT"),  # the unsubscribe link's token
    ("accounts", "email_day", "INTEGER NOT NULL DEFAULT 0"),  # the day (since 1970, UTC) ``emails`` counts
    ("accounts", "emails", "INTEGER NOT NULL DEFAULT 0"),
}
INDEXES = """CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status, updated);
CREATE INDEX IF NOT EXISTS seats_by_account ON seats (account);
CREATE INDEX IF NOT EXISTS accounts_by_look_alike ON accounts (look_alike);
CREATE INDEX IF NOT EXISTS accounts_by_email_token ON accounts (email_token);
CREATE INDEX IF NOT EXISTS accounts_by_unsubscribe ON accounts (unsubscribe);"""
# The schema's version, kept in SQLite's user_version and PostgreSQL's schema_migrations: 1 is the first
# release, 2 added the first COLUMNS and INDEXES, 3 the accounts (migrations/0003_accounts.sql, the
# accounts tables in SCHEMA, seats.account), 5 the clocks and push subscriptions (migrations/0005_clocks.sql,
# push_store.py), 6 the coach's ANALYSES (migrations/0006_analysis.sql, analysis_store.py), 7 table talk,
# rematches and ratings (migrations/0007_talk.sql: talkstore.py, tables.rated), 8 the solo games
# (migrations/0008_solo.sql, solo_store.py), 9 the invitations by name (migrations/0009_invitations.sql,
# invite_store.py), 10 their answers (migrations/0010_invitation_status.sql, invitations.status), 11 the
# browsers that signed in before (migrations/0011_devices.sql, devices), 12 the names' look-alike keys
# (migrations/0012_look_alike.sql, accounts.look_alike), 13 confirmed addresses, unsubscribe links and a daily
# cap on e-mail (migrations/0013_email_confirmation.sql, accounts.email_*). A database of a newer version is refused.
SCHEMA_VERSION = 13
