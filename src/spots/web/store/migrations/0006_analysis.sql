-- The coach's reports (issue 27): one per record and budget, computed once by whichever server process
-- claims it first (the SQLite store's ANALYSES).
CREATE TABLE analyses (
    record TEXT NOT NULL,            -- a digest of the game, its rules and its moves
    budget TEXT NOT NULL,            -- the evaluator and its fixed budget, in words
    table_id TEXT NOT NULL,
    status TEXT NOT NULL,            -- 'computing', 'ready' or 'failed'
    done INTEGER NOT NULL DEFAULT 0, -- steps analysed so far, of total
    total INTEGER NOT NULL DEFAULT 0,
    report TEXT,                     -- the report as JSON once ready (why it failed, once failed)
    claimed DOUBLE PRECISION NOT NULL, -- when its process claimed it or last said how far it got
    PRIMARY KEY (record, budget)
);
