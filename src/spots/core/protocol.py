"""The state-machine interface every game in this package offers (Spots and Double Spot).

Front ends, records, the arena and the generic bots are written against
``GameState`` only, so a second game plugs in without touching them.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, Self, runtime_checkable

CHANCE = -1  # current_player() at a chance node (OpenSpiel's value)
TERMINAL = -4  # current_player() once the game is over

__all__ = ["CHANCE", "TERMINAL", "GameState"]


@runtime_checkable
class GameState(Protocol):
    """One position: whose move, its legal moves in notation, and its transitions."""

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` at a chance node or ``TERMINAL`` when the game is over."""
        ...

    def is_chance_node(self) -> bool: ...

    def is_terminal(self) -> bool: ...

    def legal_actions(self) -> list[str]:
        """The legal moves (or chance outcomes) in the game's notation, in a stable order."""
        ...

    def chance_outcomes(self, exact: bool = False) -> list[tuple[str, Any]]: ...

    def apply_action(self, action: object, player: int | None = None) -> None:
        """Apply a move; a bad one raises ``IllegalMoveError`` and changes nothing."""
        ...

    def sample_chance(self, rng: random.Random) -> str: ...

    def clone(self) -> Self: ...

    def returns(self) -> list[float]: ...

    def history(self) -> list[str]: ...

    def to_json(self, indent: int | None = None) -> str: ...

    def key(self) -> tuple[Any, ...]: ...
