"""Double Spot: the second game of the package (rules in docs/double-spot.md).

The shared interface, errors and records are in ``spots.core``; this package
holds only what is Double Spot's own: options, the deck, the state and bots.
"""

from ..core.errors import IllegalMoveError, StateFormatError
from .patterns import Card, DeckError, standard_deck
from .rules import DoubleSpotRulesError, Rules
from .state import Game, State, render


def new_game(**options: object) -> State:
    """A fresh initial state with the given options (at the first card reveal)."""
    return Game(Rules(**options)).new_initial_state()  # type: ignore[arg-type]


def replay(history: list[str], rules: Rules | None = None) -> State:
    """Replay a move list from the initial state (``spots.core.replay`` with this game's states)."""
    from ..core.record import replay as core_replay

    return core_replay(lambda: State(rules), history)


__all__ = [
    "Card",
    "DeckError",
    "DoubleSpotRulesError",
    "Game",
    "IllegalMoveError",
    "Rules",
    "State",
    "StateFormatError",
    "new_game",
    "render",
    "replay",
    "standard_deck",
]
