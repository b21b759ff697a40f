-- Spots' own table in the server's database (its WebView.migrations): which daily deal or challenge a solo
-- table plays, and its result once scored. The board of the day joins it to the seat's account: only games the
-- server played, by players it can name, are on it. Until this folder existed the shell made the table (its
-- migration 8), so a database made then already has it: IF NOT EXISTS keeps it, and its deals are copied to
-- the table's own deal column (the shell's migration 14).
CREATE TABLE IF NOT EXISTS solo_games (
    table_id TEXT PRIMARY KEY,                  -- the table (no foreign key: a table's removal leaves it unseen)
    deal TEXT NOT NULL,                         -- daily-YYYY-MM-DD or a challenge's name
    turns INTEGER,                              -- turns to the target, once the game is over and scored
    busts INTEGER
);
CREATE INDEX IF NOT EXISTS solo_games_by_deal ON solo_games (deal);
UPDATE tables SET deal = (SELECT g.deal FROM solo_games g WHERE g.table_id = tables.id)
    WHERE deal IS NULL AND id IN (SELECT table_id FROM solo_games);
