-- Solo deals (issue 29): which daily deal or challenge a solo table plays, and its result once scored (the SQLite
-- store's SCHEMA and INDEXES hold the same). The board of the day joins it to the seat's account: only games the
-- server played, by players it can name, are on it.
CREATE TABLE solo_games (
    table_id TEXT PRIMARY KEY,                  -- the table (no foreign key: a table's removal leaves it unseen)
    deal TEXT NOT NULL,                         -- daily-YYYY-MM-DD or a challenge's name
    turns INTEGER,                              -- turns to the target, once the game is over and scored
    busts INTEGER
);
CREATE INDEX solo_games_by_deal ON solo_games (deal);
