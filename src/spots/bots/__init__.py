"""Bots by name, for any registered game: ``make("greedy")`` (Spots) or ``make("mcts", game="double-spot")``.

Every bot has ``choose(state) -> move`` and is deterministic under its seed. Each game
keeps its bots beside its engine (``spots.games.<game>.bots``) and lists them in its
``GameSpec`` (``spots games`` prints each game's); this is the one factory scripts, the arena and
the front ends call.
"""

from __future__ import annotations

from typing import Any

from ..core.bots import Bot


def make(name: str, seed: int = 0, game: str = "spots", **budget: Any) -> Bot:
    """A bot of ``game`` by name; ``budget`` goes to bots that take one. A ValueError names the known bots."""
    from ..core.games import get

    return get(game).make_bot(name, seed, **budget)


def names(game: str = "spots") -> list[str]:
    """The names of a game's bots, in the order ``spots games`` lists them."""
    from ..core.games import get

    return list(get(game).bots)


__all__ = ["make", "names"]
