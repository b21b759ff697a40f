-- The host's secret that keys the server's daily deals (solo_store.host_secret): made once, by whichever server
-- process asks first, and shared by all of them. Without it nobody can compute a day's dice before the day is
-- over; each day's key (an HMAC of the date) is shown once the day has passed, so its games can be checked.
CREATE TABLE IF NOT EXISTS solo_secret (
    id INTEGER PRIMARY KEY,                     -- always 1: one secret per server
    secret TEXT NOT NULL                        -- 256 bits from the OS, hex
);
