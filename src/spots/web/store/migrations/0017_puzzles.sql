-- Puzzles (web/puzzles/): Glicko-2 ratings. Each puzzle's, as the tries of signed-in solvers moved it (NULL row: not
-- tried yet, its rating from its margin), and each signed-in solver's per game, with their tries and streak.
CREATE TABLE puzzle_ratings (
    puzzle TEXT PRIMARY KEY,         -- the puzzle's id (12 hex digits, from its game and position)
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    vol DOUBLE PRECISION NOT NULL,
    tries INTEGER NOT NULL,
    solved INTEGER NOT NULL
);
CREATE TABLE puzzle_solvers (
    account TEXT NOT NULL,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    rd DOUBLE PRECISION NOT NULL,
    vol DOUBLE PRECISION NOT NULL,
    tries INTEGER NOT NULL,
    solved INTEGER NOT NULL,
    PRIMARY KEY (account, game)
);
-- Each signed-in solver's tries, newest last: which puzzles they have seen (a rating moves once per puzzle).
CREATE TABLE puzzle_tries (
    account TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    solved INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account, puzzle)
);
