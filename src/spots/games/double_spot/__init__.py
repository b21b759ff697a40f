"""Double Spot: the second game of the package (rules in docs/double-spot.md).

The shared interface, errors and records are in ``spots.core``; this package
holds only what is Double Spot's own: options, the deck, the state and bots.
"""

from collections.abc import Iterable
from typing import Any

from ...core.errors import DeckError, IllegalMoveError, RulesError, StateFormatError
from ...core.record import replay as core_replay
from .patterns import Card, standard_deck
from .rules import DoubleSpotRulesError, Rules
from .state import Game, State, render


def new_game(**options: Any) -> State:
    """A fresh initial state with the given options (at the first card reveal)."""
    return Game(Rules(**options)).new_initial_state()


def replay(history: Iterable[str], rules: Rules | dict[str, Any] | None = None) -> State:
    """Replay a move list from the initial state (the same signature as ``spots.replay``)."""
    if isinstance(rules, dict):
        rules = Rules.from_dict(rules)
    return core_replay(lambda: State(rules), history)


__all__ = [
    "Card",
    "DeckError",
    "DoubleSpotRulesError",
    "Game",
    "IllegalMoveError",
    "Rules",
    "RulesError",
    "State",
    "StateFormatError",
    "new_game",
    "render",
    "replay",
    "standard_deck",
]
