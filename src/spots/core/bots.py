"""Making a bot by name from a game's registry: one factory for every game."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


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
