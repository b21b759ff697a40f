"""Clubs: a club's page with its members and admins, joining by invite link or by request and approval, its events,
and its leaderboard (its members' ratings, and its events' points over the season its admins set)."""
