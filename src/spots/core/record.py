"""Game-independent records: replaying a move list and playing a game out with bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from .errors import IllegalMoveError, ReplayError
from .protocol import GameState

S = TypeVar("S", bound=GameState)

__all__ = ["ReplayError", "play_game", "replay"]


def replay(new_initial_state: Callable[[], S], history: Iterable[str]) -> S:
    """Play ``history`` from a fresh state; raise ``ReplayError`` (naming the move) at the first bad one."""
    state = new_initial_state()
    for index, move in enumerate(history):
        try:
            state.apply_action(move)
        except IllegalMoveError as exc:
            raise ReplayError(index, exc) from None
    return state


class Chooser(Protocol):
    """Anything that picks a move for a state: every bot of every game."""

    def choose(self, state: Any) -> str: ...


def play_game(state: S, bots: Sequence[Chooser], rng: random.Random) -> S:
    """Play a state to the end: chance from ``rng``, each seat's moves from its bot."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state
