"""What the coach needs from a game: one evaluator giving every seat's chance to win from a position.

Why a hook and not a name: the analysis (``spots.analysis.analyse``, in ``engine.py``) is written for every game, and a
game hands it its strongest evaluator through its spec (``GameSpec.coach``), at a fixed budget with no
clock, so the same record always gives the same report.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

__all__ = ["Checked", "Evaluator", "Reason", "normalised", "terminal_values"]

Reason = tuple[str, dict[str, str]]  # a message id with "{field}"s, and the fields


class Checked(NamedTuple):
    """An independent check of a loss (``Evaluator.check``): the loss, its standard error, and every seat's chance
    after the move played and after the better move, by the same estimate."""

    lost: float
    error: float
    after_played: tuple[float, ...]
    after_best: tuple[float, ...]


class Evaluator(Protocol):
    """A game's win-chance estimates: ``values`` of a position, ``reasons`` of a mistake in words."""

    @property
    def name(self) -> str:
        """The evaluator and its fixed budget, in words ("expectimax over the rest of the turn, depth 1")."""
        ...

    def values(self, state: Any) -> Sequence[float]:
        """Every seat's chance to win from an unfinished ``state`` (they sum to 1 with two seats or more)."""
        ...

    # Optional: ``moves(state) -> {move: values}``, every legal move's values at once, for an evaluator that ranks
    # the moves in one search (Double Spot's); without it each move's position is valued by ``values``.
    # Optional: ``check(state, played, best) -> Checked | None``, what ``played`` lost against ``best`` by an
    # estimate independent of ``values`` and stronger (Spots: play-outs to the end of the game); with it a mistake
    # is named only where the check confirms it, at its size (``engine._named``); None where it cannot run here.

    def reasons(self, state: Any, played: str, best: str) -> list[Reason]:
        """Facts a player can check that tell ``played`` from ``best`` at ``state`` (bust odds, what it hands over):
        each a message id (marked with ``N_``, translated where shown) and its fields."""
        ...


def normalised(chances: Sequence[float]) -> list[float]:
    """Chances scaled to sum to 1 (a solo game's single chance is kept as it is)."""
    if len(chances) < 2:
        return [min(1.0, max(0.0, float(c))) for c in chances]
    total = float(sum(chances))
    if total <= 0:
        return [1.0 / len(chances)] * len(chances)
    return [float(c) / total for c in chances]


def terminal_values(state: Any) -> list[float]:
    """The result of a finished game as win chances: 1 for the winner, 1/k each in a k-way draw."""
    return [float(r) for r in state.returns()]
