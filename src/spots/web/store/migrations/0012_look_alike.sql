-- A name's look-alike key (issue 42, web/look_alike.py): its case-folded confusable skeleton (Unicode TR39), so
-- that a name which reads as one taken (a Cyrillic А in Alice) is refused at sign-up. NULL for the accounts made
-- before: their keys are worked out when a new name is checked. The SQLite store's COLUMNS and INDEXES hold the
-- same.
ALTER TABLE accounts ADD COLUMN look_alike TEXT;
CREATE INDEX accounts_by_look_alike ON accounts (look_alike);
