-- An invitation's answer (issue 25): 'invited' until the invitee accepts ('accepted') or declines ('declined'), so
-- the table's host page can say what became of it. Before, an answered invitation was deleted. The SQLite store's
-- COLUMNS hold the same.
ALTER TABLE invitations ADD COLUMN status TEXT NOT NULL DEFAULT 'invited';
