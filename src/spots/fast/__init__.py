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

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import FastState, Games, play_games, warm_up
    from .study import study_rows

INSTALL_HINT = 'the fast simulator needs Numba; install it with: pip install "spots[fast]"'
__all__ = ["INSTALL_HINT", "FastState", "FastUnavailableError", "Games", "available", "play_games", "require",
           "study_rows", "supports", "warm_up"]


class FastUnavailableError(ImportError, ValueError):
    """Numba is not installed (also a ValueError, so the command line reports it like a bad option)."""


def available() -> bool:
    """Is Numba installed (so the fast simulator can run)?"""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


FAST_BOTS = {"random": frozenset(), "greedy": frozenset({"risk"})}  # the bots the simulator plays, and their options


def supports(config: Mapping[str, Any]) -> bool:
    """Can the simulator play this study configuration (Spots, only random and greedy seats, greedy with at most
    a risk)? Needs no Numba: ``spots.study`` asks it before choosing its runner."""
    from ..core.play import parse_bot

    if config.get("game") != "spots":
        return False
    for bot in config.get("bots", ()):
        name, budget = parse_bot(bot)
        if name not in FAST_BOTS or set(budget) - FAST_BOTS[name]:
            return False
    return True


def require() -> None:
    """Raise ``FastUnavailableError`` with the install command when Numba is missing."""
    if not available():
        raise FastUnavailableError(INSTALL_HINT)


def drop_stale_cache(here: Path = Path(__file__).parent) -> None:
    """Forget compiled code when any of this package's sources changed.

    Numba checks a cached function only against its own file, yet compiled functions inline the
    ones they call from other files: after an edit elsewhere it would run stale code. So the cache
    is keyed on all the sources together. A read-only install keeps whatever it has."""
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in sorted(here.glob("*.py")))).hexdigest()
    cache = here / "__pycache__"
    stamp = cache / "numba-sources.sha256"
    try:
        if stamp.exists() and stamp.read_text() == digest:
            return
        for old in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            old.unlink()
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        pass


def __getattr__(name: str) -> Any:
    if name in ("FastState", "Games", "play_games", "warm_up"):
        require()
        from . import api

        return getattr(api, name)
    if name == "study_rows":
        require()
        from .study import study_rows

        return study_rows
    raise AttributeError(f"module 'spots.fast' has no attribute {name!r}")


drop_stale_cache()  # before any compiled module is imported
