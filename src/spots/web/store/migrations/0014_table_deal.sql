-- The deal a table was made for, by name (a game's named deal: Spots' daily-YYYY-MM-DD or a challenge), so a
-- table read back rolls on from the deal's own dice (WebView.deal_dice). NULL: a table on dice of its own.
ALTER TABLE tables ADD COLUMN deal TEXT;
