-- Browsers that signed in to an account before (issue 42): each holds a long-lived device cookie whose token's
-- SHA-256 is kept here. A wrong password from such a browser counts on the browser, not on the account, so a
-- stranger's wrong passwords, which lock the account's password, do not lock out its owner's own browsers. The
-- SQLite store's SCHEMA holds the same.
CREATE TABLE devices (
    hash TEXT PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(id),
    created DOUBLE PRECISION NOT NULL,
    failures INTEGER NOT NULL DEFAULT 0,
    failed_at DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE INDEX devices_by_account ON devices (account);
