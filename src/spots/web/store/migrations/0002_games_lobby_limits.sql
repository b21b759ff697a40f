-- What later releases added (the SQLite store's COLUMNS and INDEXES).
ALTER TABLE tables ADD COLUMN game TEXT NOT NULL DEFAULT 'spots';  -- before Double Spot every table was Spots
ALTER TABLE tables ADD COLUMN summary TEXT;  -- the lobby row of a finished table
ALTER TABLE tables ADD COLUMN problem TEXT;  -- why a table was quarantined
ALTER TABLE tables ADD COLUMN owner TEXT;    -- who created it (a hashed address), for the per-client limit
ALTER TABLE seats ADD COLUMN open INTEGER NOT NULL DEFAULT 0;  -- may be taken from the lobby
CREATE INDEX tables_by_status ON tables (status, updated);
