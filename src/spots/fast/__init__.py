"""A compiled batch simulator for Spots (the optional extra ``spots[fast]``, with Numba).

About one game by nature (it re-implements Spots' rules in arrays), so it imports
``spots.games.spots`` directly rather than through the registry.

It plays many games at once with the ``random`` and ``greedy`` policies, every trick tile
and every rules option, in plain arrays, and is checked move for move against the
reference engine by ``tests/test_fast_differential.py``. See ``docs/fast.md``.

    from spots import Rules
    from spots.fast import play_games
    games = play_games(Rules(players=3, tricks="all"), ["greedy", "random"], 100_000, seed=1)
    games.winner, games.turns, games.busts, games.scored, games.tiles_used

Importing this package needs no Numba; the simulator itself does, and ``require()``
says how to install it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import FastState, Games, play_games, warm_up

INSTALL_HINT = 'the fast simulator needs Numba; install it with: pip install "spots[fast]"'
__all__ = ["INSTALL_HINT", "FastState", "FastUnavailableError", "Games", "available", "play_games", "require",
           "warm_up"]


class FastUnavailableError(ImportError, ValueError):
    """Numba is not installed (also a ValueError, so the command line reports it like a bad option)."""


def available() -> bool:
    """Is Numba installed (so the fast simulator can run)?"""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def require() -> None:
    """Raise ``FastUnavailableError`` with the install command when Numba is missing."""
    if not available():
        raise FastUnavailableError(INSTALL_HINT)


def __getattr__(name: str) -> Any:
    if name in ("FastState", "Games", "play_games", "warm_up"):
        require()
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'spots.fast' has no attribute {name!r}")
