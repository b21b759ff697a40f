"""The one game loop: bots play a state to its end, chance drawn from a seeded generator.

Why one: the arena, the study runner, ``spots selfplay`` and ``play_game`` all play games the same
way, and a game played by one of them must be the game another plays from the same seeds. What
each wants to know on the way (the decisions' times, who started a turn, the log) it hears through
a ``Watch``; the loop itself knows no game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .bots import Bot
from .protocol import GameState

S = TypeVar("S", bound=GameState)

__all__ = ["Watch", "parse_bot", "play_out", "seating"]


def seating(names: Sequence[str], players: int, game: int) -> list[str]:
    """The names in seat order for game ``game`` of a match: padded with the last name, rotated by the game,
    so every name plays every seat equally often."""
    padded = (list(names) + [names[-1]] * players)[:players]
    shift = game % players
    return padded[-shift:] + padded[:-shift] if shift else padded


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``name`` or ``name:key=value,key=value`` -> (name, budget); values are numbers where they look like one."""
    name, _, params = spec.partition(":")
    budget: dict[str, Any] = {}
    for part in filter(None, params.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise ValueError(f"bot {spec!r}: options are written name:key=value,key=value")
        budget[key.strip()] = _number(value.strip())
    return name, budget


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


class Watch:
    """What a caller of ``play_out`` hears: override the hooks it needs (each does nothing here)."""

    def turn(self, state: GameState, seat: int) -> None:
        """``seat`` is about to take its first decision of a new turn (``state``: the position before it)."""

    def move(self, state: GameState, seat: int, move: str, seconds: float) -> None:
        """``seat`` chose ``move`` in ``seconds`` and it was played (``state``: the position after it)."""

    def chance(self, state: GameState, outcome: str) -> None:
        """A chance event was drawn and played."""


def play_out(state: S, bots: Sequence[Bot], rng: random.Random, watch: Watch | None = None,
             turn: Callable[[S], int] | None = None) -> S:
    """Play ``state`` to the end: chance from ``rng``, each seat's moves from its bot; returns ``state``.

    ``turn`` (the game's turn counter) tells the watch when a seat starts a new turn.
    """
    last_turn = -1
    while not state.is_terminal():
        if state.is_chance_node():
            outcome = state.sample_chance(rng)
            if watch is not None:
                watch.chance(state, outcome)
            continue
        seat = state.current_player()
        if watch is None:
            state.apply_action(bots[seat].choose(state))
            continue
        if turn is not None and turn(state) != last_turn:
            last_turn = turn(state)
            watch.turn(state, seat)
        start = time.perf_counter()
        move = bots[seat].choose(state)
        seconds = time.perf_counter() - start
        state.apply_action(move)
        watch.move(state, seat, move, seconds)
    return state
