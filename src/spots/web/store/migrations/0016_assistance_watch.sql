-- Fair play's watch for assistance (web/fairplay/watch.py): an account the host marked (spots fairplay mark) has
-- its games unrated from then on. The text says when and why; NULL: not marked.
ALTER TABLE accounts ADD COLUMN marked TEXT;
