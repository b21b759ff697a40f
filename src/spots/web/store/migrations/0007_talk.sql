-- Table talk, rematches and ratings (the SQLite store's TALK_SCHEMA and its "rated" column).
CREATE TABLE chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    id TEXT NOT NULL,                -- random: processes add lines at once without a race on a counter
    at DOUBLE PRECISION NOT NULL,
    moves INTEGER NOT NULL,          -- moves made when it was said (a replay shows it at that step)
    channel TEXT NOT NULL,           -- 'players' (the seats) or 'watchers' (the spectators)
    seat INTEGER,                    -- the sender's seat; NULL for a spectator
    author TEXT NOT NULL,            -- who said it ('seat:N' or a spectator's key), what a mute names
    name TEXT NOT NULL,
    phrase TEXT,                     -- a quick phrase's key (shown in each reader's language), else NULL
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, id)
);
CREATE INDEX chat_by_table ON chat (table_id, at);
CREATE TABLE chat_mutes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    author TEXT NOT NULL,
    PRIMARY KEY (table_id, author)
);
CREATE TABLE rematches (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    accepted TEXT NOT NULL,          -- JSON list of the human seats that said yes
    next_table TEXT                  -- the new table once everyone said yes
);
CREATE TABLE ratings (
    game TEXT NOT NULL,
    player TEXT NOT NULL,            -- 'user:<account>' or 'bot:<bot>'
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game, player)
);
-- One row per rated player per table: the primary key is what makes a table count once, whichever
-- process (or how many) rates it.
CREATE TABLE rating_changes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    place INTEGER NOT NULL,          -- 1 = first
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, player)
);
CREATE INDEX rating_changes_by_player ON rating_changes (game, player, at);
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;  -- its result changes ratings
