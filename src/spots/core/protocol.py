"""The state-machine interface every game in this package offers (Spots and Double Spot).

Front ends, records, the arena and the generic bots are written against
``GameState`` only, so a second game plugs in without touching them.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, runtime_checkable

from .errors import RulesError

CHANCE = -1  # current_player() at a chance node (OpenSpiel's value)
TERMINAL = -4  # current_player() once the game is over

__all__ = ["CHANCE", "TERMINAL", "Game", "GameState"]

RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT")


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


class Game(Generic[RulesT, StateT]):
    """A game definition, as in OpenSpiel: the rules, and a factory of initial states.

    Each game subclasses it once, naming its ``RULES`` and ``STATE`` classes and its ``TITLE``
    (``class Game(protocol.Game[Rules, State])``); ``Game(rules)`` or ``Game(**options)`` (the rules check
    the options). It is the one place that says how a game's states are built: its records
    (``RecordFormat.game``) and its ``GameSpec`` (``rules``, ``new_state``) read it.
    """

    RULES: ClassVar[type[Any]]
    STATE: ClassVar[type[Any]]
    TITLE: ClassVar[str] = "a game"  # the game's name in messages ("not a Double Spot record")
    NAME: ClassVar[str] = "Game"

    def __init__(self, rules: RulesT | None = None, **options: Any) -> None:
        if rules is not None and options:
            raise RulesError("give either a Rules object or keyword options, not both")
        self.rules: RulesT = rules if rules is not None else self.RULES(**options)

    def num_players(self) -> int:
        """The seats (OpenSpiel's name); a game whose rules have no ``players`` says so through its GameSpec."""
        return int(getattr(self.rules, "players"))  # noqa: B009  (RulesT is any game's rules class)

    def new_initial_state(self) -> StateT:
        state: StateT = self.STATE(self.rules)
        return state

    def __repr__(self) -> str:
        return f"{self.NAME}({self.rules!r})"
