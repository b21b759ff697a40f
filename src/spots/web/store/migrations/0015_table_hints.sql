-- Whether the advisor answers at a table (Hint): the creator's choice at an unrated table, 1 (on) for tables made
-- before the choice. A rated table never answers, whatever this says (web/tables/hints.py).
ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 1;
