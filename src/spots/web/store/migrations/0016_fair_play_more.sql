-- Fair play, continued (web/fairplay/). The watch for assistance (watch.py): an account the host marked (spots
-- fairplay mark) has its games unrated from then on; the text says when and why. NULL: not marked.
ALTER TABLE accounts ADD COLUMN marked TEXT;
-- Resigning (resign.py): the seats that resigned, in order, each with the number of moves played when it did, as
-- a JSON list of [seat, moves]; a stand-in plays a resigned seat to the end. NULL: nobody resigned.
ALTER TABLE tables ADD COLUMN resigned TEXT;
-- A rated table's minimum share of finished rated games (percent) for the accounts taking its seats; NULL: none.
ALTER TABLE tables ADD COLUMN min_finished INTEGER;
-- How each rated player's game ended for them (the reliability figure on profiles): 'finished' (played to the
-- end), 'resigned', 'time' (ran out of time) or 'left' (stopped playing; the table was retired).
ALTER TABLE rating_changes ADD COLUMN ending TEXT NOT NULL DEFAULT 'finished';
-- Reports and blocks (reports.py). A report is a signed-in player's word to the host about a chat line or a player
-- (spots users reports); the line's text is kept as it was. A reporter or reported account that is deleted leaves
-- the report without it (NULL).
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter TEXT,                   -- the account that reported
    account TEXT,                    -- the account reported (NULL: a guest, a spectator, or deleted)
    name TEXT NOT NULL,              -- the reported player's name as it was shown
    table_id TEXT,                   -- where the line was said (NULL: a player reported from their profile)
    line TEXT,                       -- the chat line's text as it was (NULL: a player, not a line)
    why TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'  -- 'open' or 'read' (spots users reports --read ID)
);
CREATE INDEX reports_by_status ON reports (status, at);
-- A block: nothing the blocked account says at a table, no invitation and no rematch offer of theirs reaches the
-- blocker.
CREATE TABLE blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (blocker, blocked)
);
