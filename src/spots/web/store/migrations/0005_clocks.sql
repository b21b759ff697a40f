-- Clocks and your-turn notices (the SQLite store's COLUMNS and INDEXES say the same).
ALTER TABLE tables ADD COLUMN clock TEXT;  -- a clocked table's clock (web/clocks.py: JSON), NULL without one
-- Web Push: a browser that asked to hear about a seat's turns.
CREATE TABLE push_subscriptions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    endpoint TEXT NOT NULL,
    subscription TEXT NOT NULL,      -- the browser's PushSubscription as JSON
    created DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat, endpoint)
);
