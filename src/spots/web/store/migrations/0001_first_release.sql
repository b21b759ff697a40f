-- The first release's tables (the same shape as the SQLite store's SCHEMA).
-- A table's position is never stored: it is its moves replayed, so the moves are the truth.
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    host_token TEXT NOT NULL UNIQUE,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    rules TEXT NOT NULL,
    status TEXT NOT NULL,            -- 'playing', 'over', 'abandoned' or 'quarantined'
    winner INTEGER,
    moves INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,              -- 'human' or 'bot'
    bot TEXT,
    name TEXT NOT NULL,
    token TEXT UNIQUE,               -- humans only: the invite link's secret
    claimed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
-- The primary key (table, move number) is what lets several server processes share a table:
-- two that accept a move for the same position cannot both store it.
CREATE TABLE moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    move TEXT NOT NULL,
    seat INTEGER NOT NULL,           -- -1 for chance events
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, idx)
);
