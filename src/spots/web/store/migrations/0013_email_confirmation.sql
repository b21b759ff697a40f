-- E-mail only to an address its owner confirmed (issue 42): a link with a one-time token (its SHA-256 kept, for a
-- day), a one-click unsubscribe link in every e-mail (its token), and at most so many e-mails an account a day
-- (counted per UTC day). An address given before this is unconfirmed until its owner confirms it. The SQLite
-- store's COLUMNS and INDEXES hold the same.
ALTER TABLE accounts ADD COLUMN email_confirmed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN email_token TEXT;
ALTER TABLE accounts ADD COLUMN email_token_until DOUBLE PRECISION;
ALTER TABLE accounts ADD COLUMN unsubscribe TEXT;
ALTER TABLE accounts ADD COLUMN email_day INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN emails INTEGER NOT NULL DEFAULT 0;
CREATE INDEX accounts_by_email_token ON accounts (email_token);
CREATE INDEX accounts_by_unsubscribe ON accounts (unsubscribe);
