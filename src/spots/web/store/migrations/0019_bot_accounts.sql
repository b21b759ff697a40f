-- Bot accounts (web/botapi/): an account that a program plays through the bot API. It has no password; its
-- program connects with an API token, kept as its SHA-256. ``owner`` is the account that made it (NULL: the host,
-- with ``spots users add-bot``).
CREATE TABLE bot_accounts (
    account TEXT PRIMARY KEY,
    owner TEXT,
    token TEXT NOT NULL UNIQUE,
    created DOUBLE PRECISION NOT NULL
);
CREATE INDEX bot_accounts_owner ON bot_accounts (owner);
