"""The coach's evaluator for Spots: every seat's chance to win, by a search of the rest of the turn.

The expectimax bot's idea at a fixed budget, seen from every seat at once: inside a turn every
decision is the mover's and the rest is dice, so the rest of the turn is a tree of decisions (the
mover takes the move best for them) and rolls (the mean over the dice). The turn's end is scored by
the fitted value function (``value.py``), each seat's logistic chance scaled so the seats' chances
sum to 1. The budget is fixed and has no clock: rolls of up to ``EXACT`` outcomes are expanded
exactly, bigger ones by ``WIDTH`` rolls, one from each equal slice of probability; after ``DEPTH``
rolls the greedy bot plays the turn out ``PLAYOUTS`` times, with dice seeded by the position. So
the same position always gets the same value, and a record the same report.

``evaluator("learned")`` scores the turn's end by the learned win-chance model instead
(``learned_value.py``; it needs numpy, and solo games keep the linear value). The game's spec
hands the coach the linear one, which needs nothing beyond the standard library.
"""

from __future__ import annotations

import random
import zlib
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from ...analysis.evaluator import normalised, terminal_values
from ...i18n import N_
from .advice import bust_chance
from .expectimax import ExpectimaxBot
from .greedy import GreedyBot
from .state import State
from .value import FITTED, Weights, standing, win_chances

if TYPE_CHECKING:
    from .learned_value import LearnedValue

__all__ = ["DEPTH", "EXACT", "PLAYOUTS", "WIDTH", "TurnSearch", "evaluator"]

DEPTH = 1  # rolls searched before the play-outs
EXACT = 21  # rolls with at most this many outcomes (one or two dice) are expanded exactly
WIDTH = 6  # rolls drawn from bigger rolls, one per equal slice of probability
PLAYOUTS = 2  # greedy play-outs of the rest of the turn beyond the depth
MEMO_LIMIT = 400_000


class TurnSearch:
    """Every seat's chance to win from a position, after the rest of the mover's turn played as well as it can."""

    def __init__(self, depth: int = DEPTH, exact: int = EXACT, width: int = WIDTH, playouts: int = PLAYOUTS,
                 weights: Weights = FITTED, learned: LearnedValue | None = None) -> None:
        self.depth, self.exact, self.width, self.playouts, self.weights = depth, exact, width, playouts, weights
        self.learned = learned
        leaf = "the learned win-chance model" if learned is not None else "the fitted value function"
        self.name = (f"Spots turn search: {depth} roll(s) deep, exact up to {exact} outcomes, {width} stratified "
                     f"rolls above, then {playouts} greedy play-outs; {leaf} at the turn's end")
        self.greedy = GreedyBot(seed=0, risk=0.0)
        self._memo: dict[tuple[Any, ...], tuple[float, ...]] = {}  # this search's turn's (``values``)
        self._memos: dict[int, dict[tuple[Any, ...], tuple[float, ...]]] = {}  # by the turn searched
        self._standings: dict[tuple[Any, ...], float] = {}  # a table's standing, by what it depends on

    def values(self, state: State) -> list[float]:
        # The memo is a pure function of its keys, and every key holds the turn searched: a search from an
        # earlier turn is never met again once the game is two turns on, so those are dropped (clearing
        # changes no value; it keeps the memory of a long game, or of a game analysed while played, small).
        for old in [t for t in self._memos if t < state.turn - 1]:
            del self._memos[old]
        self._memo = self._memos.setdefault(state.turn, {})
        if len(self._memo) > MEMO_LIMIT:
            self._memo.clear()
            self._standings.clear()
        return list(self._value(state, self.depth, state.turn))

    def reasons(self, state: State, played: str, best: str) -> list[tuple[str, dict[str, str]]]:
        """The exact bust chance of the move played and of the better move, when they differ (``odds.py``)."""
        risk_played, risk_best = bust_chance(state, played), bust_chance(state, best)
        if risk_played == risk_best:
            return []
        facts = []
        if risk_played:
            facts.append((N_("{move} could bust you at once: a {chance} chance."),
                          {"move": played, "chance": f"{float(risk_played):.0%}"}))
        if risk_best is not None:
            facts.append((N_("{move} had a {chance} chance to bust you at once."),
                          {"move": best, "chance": f"{float(risk_best):.0%}"}))
        return facts

    # ---------------------------------------------------------------- the search

    def _value(self, state: State, depth: int, turn: int) -> tuple[float, ...]:
        if state.is_terminal():
            return tuple(normalised(terminal_values(state)))
        if state.turn != turn:
            return self._leaf(state)
        key = (state.key(), depth, turn)
        found = self._memo.get(key)
        if found is not None:
            return found
        if not state.is_chance_node():
            seat = state.current_player()
            children = [self._after(state, move, depth, turn) for move in ExpectimaxBot.candidates(state)]
            value = max(children, key=lambda v: v[seat])
        elif depth <= 0:
            value = self._play_outs(state, key)
        else:
            value = self._chance(state, depth, turn)
        self._memo[key] = value
        return value

    def _after(self, state: State, move: str, depth: int, turn: int) -> tuple[float, ...]:
        child = state.clone()
        child.apply_trusted(move)
        return self._value(child, depth, turn)

    def _chance(self, state: State, depth: int, turn: int) -> tuple[float, ...]:
        outcomes = state.chance_outcomes()
        if len(outcomes) <= self.exact:
            weighted = [(p, self._after(state, o, depth - 1, turn)) for o, p in outcomes]
        else:  # one outcome from each equal slice of probability, the same slices every time
            cumulative = list(accumulate(p for _, p in outcomes))
            picks = [(j + 0.5) / self.width * cumulative[-1] for j in range(self.width)]
            chosen = [next(i for i, c in enumerate(cumulative) if c >= x) for x in picks]
            weighted = [(1.0 / self.width, self._after(state, outcomes[i][0], depth - 1, turn)) for i in chosen]
        return _mean(weighted)

    def _play_outs(self, state: State, key: tuple[Any, ...]) -> tuple[float, ...]:
        """The greedy bot finishes the turn ``playouts`` times, its dice seeded by the position."""
        rng = random.Random(zlib.crc32(repr(key).encode()))
        runs = []
        for _ in range(self.playouts):
            line = state.clone()
            turn = line.turn
            while not line.is_terminal() and line.turn == turn:
                if line.is_chance_node():
                    line.sample_chance(rng)
                else:
                    line.apply_trusted(self.greedy.choose(line))
            runs.append((1.0 / self.playouts, self._leaf(line)))
        return _mean(runs)

    def _leaf(self, state: State) -> tuple[float, ...]:
        """Every seat's chance by the value function, scaled to sum to 1.

        Each seat's standing is computed once per table (a table's dogs, yard total and treats: all it depends on),
        not once for each seat measuring its lead against it: during a turn only the mover's table changes, so
        the others' come from the cache. The same numbers as the plain formula (``tests/test_analysis.py``), for
        much less work with four players."""
        if state.is_terminal():
            return tuple(normalised(terminal_values(state)))
        if self.learned is not None and state.rules.players > 1:
            return tuple(self.learned.chances(state))
        w = self.weights
        standings = []
        for seat, player in enumerate(state.players):
            key = (tuple(player.dogs), player.yard_total(), player.treats)
            found = self._standings.get(key)
            if found is None:
                found = self._standings[key] = standing(state, seat, w)
            standings.append(found)
        return tuple(normalised(win_chances(state, standings, w)))


def _mean(weighted: list[tuple[float, tuple[float, ...]]]) -> tuple[float, ...]:
    total = sum(p for p, _ in weighted)
    seats = len(weighted[0][1])
    return tuple(sum(p * v[s] for p, v in weighted) / total for s in range(seats))


def evaluator(value: str = "linear", model: str | None = None) -> TurnSearch:
    """The coach's evaluator at its documented budget (``GameSpec.coach``); ``value="learned"`` scores the turn's
    end by the learned model (the shipped one, or the ``.npz`` at ``model``)."""
    if value == "linear":
        return TurnSearch()
    if value != "learned":
        raise ValueError(f"unknown value {value!r}; allowed: linear, learned")
    from .learned_value import shipped

    return TurnSearch(learned=shipped(model))
