"""The state-machine interface every game in this package offers (Spots and Double Spot).

Front ends, records, the arena and the generic bots are written against
``GameState`` only, so a second game plugs in without touching them.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from .errors import RulesError

CHANCE = -1  # current_player() at a chance node (OpenSpiel's value)
TERMINAL = -4  # current_player() once the game is over

__all__ = ["CHANCE", "TERMINAL", "Game", "GameState"]


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


class Game:
    """A game definition, as in OpenSpiel: the rules, and a factory of initial states.

    Each game subclasses it naming its ``RULES`` and ``STATE`` classes; ``Game(rules)`` or
    ``Game(**options)`` (the rules check the options).
    """

    RULES: ClassVar[type[Any]]
    STATE: ClassVar[type[Any]]
    NAME: ClassVar[str] = "Game"

    def __init__(self, rules: Any = None, **options: Any) -> None:
        if rules is not None and options:
            raise RulesError("give either a Rules object or keyword options, not both")
        self.rules = rules if rules is not None else self.RULES(**options)

    def num_players(self) -> int:
        return int(self.rules.players)

    def new_initial_state(self) -> Any:
        return self.STATE(self.rules)

    def __repr__(self) -> str:
        return f"{self.NAME}({self.rules!r})"
