-- Tournaments (web/tournaments/): an event, its entrants and its games. ``settings`` is the event's JSON (format,
-- seats, rounds, minutes, pace, rated, duplicate, rules options, tie-breaks); ``secret`` the key its duplicate
-- deals come from (kept here, shown with the deals once the event is over); ``round`` the round being played.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    owner TEXT NOT NULL,
    settings TEXT NOT NULL,
    secret TEXT NOT NULL,
    starts DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 0,
    created DOUBLE PRECISION NOT NULL,
    ended DOUBLE PRECISION
);
CREATE INDEX tournaments_status ON tournaments (status);
-- An entrant is an account (``entrant`` is the account id) or one of the server's bots entered by the organiser
-- (``entrant`` is "bot:" and a number, ``bot`` the bot's name). A withdrawn entrant keeps its results.
CREATE TABLE tournament_entrants (
    tournament TEXT NOT NULL,
    entrant TEXT NOT NULL,
    name TEXT NOT NULL,
    account TEXT,
    bot TEXT,
    joined DOUBLE PRECISION NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament, entrant)
);
CREATE INDEX tournament_entrants_account ON tournament_entrants (account);
-- Each game of an event: its table, its round, its entrants in seat order (JSON) and, once over, their places.
CREATE TABLE tournament_games (
    table_id TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    round INTEGER NOT NULL,
    players TEXT NOT NULL,
    places TEXT,
    created DOUBLE PRECISION NOT NULL,
    finished DOUBLE PRECISION
);
CREATE INDEX tournament_games_tournament ON tournament_games (tournament, round);
-- Clubs (web/clubs/): a club, its members (admin, member, or pending: asked to join, waiting for an admin), its
-- invite link's token (whoever opens it joins at once; an admin makes a new one to end the old), and the day its
-- season began (its leaderboard counts its events' points since then). A club's events carry its id.
CREATE TABLE clubs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    about TEXT NOT NULL,
    invite TEXT NOT NULL,
    season DOUBLE PRECISION NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE club_members (
    club TEXT NOT NULL,
    account TEXT NOT NULL,
    role TEXT NOT NULL,
    joined DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (club, account)
);
CREATE INDEX club_members_account ON club_members (account);
ALTER TABLE tournaments ADD COLUMN club TEXT;
