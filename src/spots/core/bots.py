"""What every game's bots share: the factory by name and the uniform random bot."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .protocol import GameState

__all__ = ["Bot", "RandomBot", "deadline", "make_bot", "time_budget"]


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


def time_budget(time_ms: float | None) -> float | None:
    """A search bot's optional wall-clock budget, checked the same way for every bot (None: no clock)."""
    if time_ms is not None and not time_ms > 0:
        raise ValueError(f"time_ms must be a positive number of milliseconds or None (no limit), not {time_ms}")
    return time_ms


def deadline(time_ms: float | None, start: float | None = None) -> float:
    """The ``time.perf_counter()`` by which a decision begun at ``start`` (now) must end; never without a clock."""
    if time_ms is None:
        return math.inf
    return (time.perf_counter() if start is None else start) + time_ms / 1000
