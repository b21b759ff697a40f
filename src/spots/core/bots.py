"""What every game's bots share: the factory by name and the uniform random bot."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .protocol import GameState

__all__ = ["Bot", "RandomBot", "make_bot"]


class Bot(Protocol):
    """Anything that picks a move for the player to move: every bot of every game."""

    name: str

    def choose(self, state: Any) -> str: ...


class RandomBot:
    """Uniform over the legal moves (it needs nothing but ``legal_actions``, so it plays every game)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> str:
        moves = state.legal_actions()
        return moves[int(self.rng.random() * len(moves))]


def make_bot(registry: Mapping[str, Callable[..., Any]], name: str, seed: int = 0, **budget: Any) -> Any:
    """The bot called ``name``; a clear ValueError names the known bots or the bad option."""
    try:
        factory = registry[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are: {', '.join(registry)}") from None
    try:
        return factory(seed=seed, **budget)
    except TypeError as exc:
        raise ValueError(f"bad option for bot {name!r}: {exc}") from None
