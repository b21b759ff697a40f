"""Tournaments: who meets whom (``pairing``), who is ahead (``scoring``), and which format lets the better
player win most often (``study``).

Why a package apart from the web app: the formats are rules, the same for a club night on the server and a
simulated event of bots, so they are pure functions of the results so far (standard library only), as the game
engines are. The server stores the results and asks here for the next round; the study plays bots through the same
functions. The decisions (points, tie-breaks, byes, seats) are written in ``docs/tournaments.md``.
"""

from .pairing import Table, arena_tables, round_robin, swiss_round, table_sizes
from .scoring import (
    GameResult,
    SameDice,
    Standing,
    arena_points,
    arena_standings,
    game_points,
    places,
    same_dice,
    standings,
)

__all__ = ["GameResult", "SameDice", "Standing", "Table", "arena_points", "arena_standings", "arena_tables",
           "game_points", "places", "round_robin", "same_dice", "standings", "swiss_round", "table_sizes"]
