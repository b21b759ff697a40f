-- Each event game's scores (JSON, every seat's: dogs or discs), so a duplicate round compares everyone who had the
-- same dice, and the coach's luck of each entrant at it (JSON, when the event breaks ties by luck; set once the
-- game's report is made).
ALTER TABLE tournament_games ADD COLUMN scores TEXT;
ALTER TABLE tournament_games ADD COLUMN luck TEXT;
