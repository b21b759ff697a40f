-- Fair play (web/fairplay/). Whether the advisor answers at a table (Hint): the creator's choice at an unrated
-- table, 1 (on) for tables made before the choice; a rated table never answers, whatever this says.
ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 1;
-- The table's committed dice (core/commitment.py): the SHA-256 everyone sees from the start, the secret seed (no
-- page shows it before the game is over) and the players' salts (a JSON list of {seat, salt, at}); for a daily
-- deal's table, dice_deal 1 (the seed is the deal's key) and dice_reveal, the UTC day from which its key may be
-- shown. NULL: a table made before the dice were committed to, or on a tutorial's or a challenge's known dice.
ALTER TABLE tables ADD COLUMN dice_commitment TEXT;
ALTER TABLE tables ADD COLUMN dice_seed TEXT;
ALTER TABLE tables ADD COLUMN dice_salts TEXT;
ALTER TABLE tables ADD COLUMN dice_deal INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN dice_reveal TEXT;
