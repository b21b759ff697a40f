-- Puzzle runs and drills (web/puzzles/). Each signed-in solver's best streak (solved until the first miss) and best
-- timed run, per game.
CREATE TABLE puzzle_bests (
    account TEXT NOT NULL,
    game TEXT NOT NULL,
    mode TEXT NOT NULL,              -- 'streak' or 'timed'
    best INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,    -- when it was set
    PRIMARY KEY (account, game, mode)
);
-- Each signed-in player's drill deck: their own mistakes (from their analysed games) that qualify as puzzles, each
-- scheduled by FSRS. The puzzle is kept whole (its open record line): it is not in the shipped set.
CREATE TABLE drill_cards (
    account TEXT NOT NULL,
    game TEXT NOT NULL,
    puzzle TEXT NOT NULL,            -- the puzzle's id (12 hex digits, from its game and position)
    line TEXT NOT NULL,              -- the puzzle, one JSON object (spots.puzzles.judge.Puzzle.to_line)
    card TEXT NOT NULL,              -- its FSRS card (fsrs.Card.to_dict, as JSON)
    due DOUBLE PRECISION NOT NULL,   -- when it is next due (seconds since 1970, UTC)
    table_id TEXT NOT NULL,          -- the game it came from
    added DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, puzzle)
);
CREATE INDEX drill_cards_due ON drill_cards (account, due);
