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
-- The bot ladder (web/botapi/ladder.py): the bots that entered it per game, and when their program last said it is
-- there (a bot is paired only while its connection is open); and which tables are ladder games (rated apart).
CREATE TABLE ladder_entries (
    account TEXT NOT NULL,
    game TEXT NOT NULL,
    joined DOUBLE PRECISION NOT NULL,
    seen DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, game)
);
CREATE TABLE ladder_games (
    table_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
-- An open seat of a table may be taken by a bot account through the bot API only when its creator allowed it.
ALTER TABLE tables ADD COLUMN bots_join INTEGER NOT NULL DEFAULT 0;
