-- Invitations by name (issue 25, My games): a signed-in table creator keeps a human seat for a named account,
-- which accepts (the seat becomes the account's) or declines (the seat stays an ordinary invite link). The SQLite
-- store's SCHEMA and INDEXES hold the same. Deleting an account deletes the invitations to and from it.
CREATE TABLE invitations (
    table_id TEXT NOT NULL,                     -- the table (no foreign key: a table's removal leaves it unseen)
    seat INTEGER NOT NULL,
    account TEXT NOT NULL,                      -- the invited account
    inviter TEXT NOT NULL,                      -- the creator's account
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX invitations_by_account ON invitations (account);
