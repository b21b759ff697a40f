-- Accounts (optional: guests still play with a seat link), their sessions and passkeys (the SQLite store's
-- SCHEMA and COLUMNS hold the same). Nothing secret is stored as itself: passwords as argon2id hashes,
-- session tokens, reset codes and WebAuthn challenges as SHA-256 hashes.
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,                        -- random, never shown: seats and sessions point here
    name TEXT NOT NULL,                         -- as the player spelled it
    name_key TEXT NOT NULL UNIQUE,              -- case-folded: one account per name whatever the capitals
    password TEXT,                              -- argon2id hash (PHC string); NULL: none (passkeys only)
    email TEXT,
    notify INTEGER NOT NULL DEFAULT 0,          -- 1: send your-turn notices to the e-mail address
    created DOUBLE PRECISION NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,        -- 1: the host turned it off (no sign-in, no session)
    failures INTEGER NOT NULL DEFAULT 0,        -- wrong passwords since the last right one
    failed_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    reset TEXT,                                 -- hash of a one-time reset code (spots users reset)
    reset_until DOUBLE PRECISION
);
CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,                      -- SHA-256 of the cookie's token
    account TEXT NOT NULL REFERENCES accounts(id),
    created DOUBLE PRECISION NOT NULL,
    seen DOUBLE PRECISION NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account);
CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,                        -- the credential id (base64url)
    account TEXT NOT NULL REFERENCES accounts(id),
    public_key TEXT NOT NULL,                   -- its COSE public key (base64url)
    sign_count INTEGER NOT NULL DEFAULT 0,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE challenges (
    hash TEXT PRIMARY KEY,                      -- SHA-256 of a WebAuthn challenge handed out, used once
    account TEXT,                               -- registering a passkey: whose; signing in: NULL
    expires DOUBLE PRECISION NOT NULL
);
ALTER TABLE seats ADD COLUMN account TEXT;      -- the account that took the seat (NULL: a guest or a bot)
CREATE INDEX seats_by_account ON seats (account);
