"""Bots by name, for any registered game: ``make("greedy")`` (Spots) or ``make("mcts", game="double-spot")``.

Every bot has ``choose(state) -> move`` and is deterministic under its seed. Each game
keeps its bots beside its engine (``spots.games.<game>.bots``) and lists them in its
``GameSpec``; this is the one factory scripts, the arena and the front ends call.
``BOTS`` stays Spots' table, as scripts written before Double Spot expect.
"""

from __future__ import annotations

from typing import Any

from ..core.bots import Bot, RandomBot
from ..core.record import play_game
from ..games.spots.bots import BOTS


def make(name: str, seed: int = 0, game: str = "spots", **budget: Any) -> Bot:
    """A bot of ``game`` by name (``spots games`` lists each game's); ``budget`` goes to bots that take one."""
    from ..core.games import get

    return get(game).make_bot(name, seed, **budget)


__all__ = ["BOTS", "Bot", "RandomBot", "make", "play_game"]
