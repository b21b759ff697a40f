"""The second expectimax bot, frozen as ``expectimax-v2`` so the arena can measure its successors against it.

Kept exactly as ``expectimax`` played when the learned value arrived (issue 28): the anytime
within-turn search with a node budget, scored at the turn's end by the linear value with the
``FITTED`` weights. Do not change it; change ``expectimax.py``. What follows is that bot's own
description.

The expectimax bot: plans the rest of its own turn over the dice, as deep as its budget allows.

Inside a turn every decision is the bot's own (only chance intervenes), so the
rest of the turn is a single-agent expectimax tree: decision nodes take the best
child, chance nodes the probability-weighted mean. The turn's end is scored by
the value function (``value.py``, with the weights fitted to who wins: ``FITTED``);
where the search stops early (its depth is spent), the greedy bot plays the turn out
along one sampled line.

**Anytime, with a budget.** The search deepens one chance level at a time
(iterative deepening: depth 1, 2, 3, ...) and stops when its budget is spent,
answering with the ranking of the deepest pass it finished. Every position the
search creates, in the tree or in a play-out, is one unit of ``nodes``; ``time_ms``
(optional) also stops it after that many milliseconds. A node budget alone makes
a seeded bot play the same moves on any machine; a time budget depends on the
machine and its load (the arena and the tests use node budgets). The first pass
(every move, then one play-out each) always finishes, so there is always an answer.

**Why today's bot (``expectimax-v1``) sometimes took a second**, and what fixes it:

- its ``nodes`` cap counted tree nodes only, not the greedy play-outs at the
  leaves: a wide tile (Bolt's set-aside, Dig's adjustments, Trot's moves, Hunt's
  and Search's picks) met thousands of leaves each playing a turn out. Here the
  play-outs are counted too, so the budget bounds the work.
- dice of one roll can be resolved in any order and reach the same position: the
  search placed them in every order (``k!`` lines for ``k`` dice before the memo
  caught the repeats). Here a roll's dice are resolved one face at a time (every
  choice for the lowest face first), which loses nothing (the dice's order never
  changes what can be done with them) and removes the orders.
- a chance node with more than ``exact`` outcomes (3+ dice: 56 and up) is
  estimated from ``width`` sampled rolls, as before.

**Sampling** (``sampling="stratified"``, the default): the ``width`` rolls of a big
chance node are one from each equal slice of probability, and every sampled node at
one depth of one decision uses the same slices, so two moves whose rolls have the
same dice are compared on the same rolls (common random numbers). The play-outs
roll their dice afresh: one shared dice stream for every play-out of a decision
made every leaf of a move lucky or unlucky together (a Run valued 0.70 by one seed,
0.60 by others, in a position where it busted). ``sampling="random"``
draws each sample afresh, as the search did before.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect_right
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from itertools import accumulate
from typing import Any

from ...core.bots import deadline, time_budget
from .dice import roll_outcomes
from .greedy import GreedyBot
from .state import CHANCE_ROLL, State
from .value import FITTED, WEIGHT_SETS, Weights, rival, win_chance

DEFAULT_NODES = 8000  # at most about 0.25 s of CPU on the project's machine (docs/bots.md): no one waits at a table
SAMPLING = ("stratified", "random")
GOLDEN = 0.6180339887498949  # shifts the strata from one chance level to the next


@lru_cache(maxsize=64)
def _cumulative(dice: int) -> tuple[float, ...]:
    """The running total of a roll's outcome probabilities, in ``roll_outcomes`` order (for stratified samples)."""
    return tuple(accumulate(p for _, p in roll_outcomes(dice)))


class OutOfBudget(Exception):
    """Raised inside the search when the budget is spent; the last finished pass answers."""


class ExpectimaxV2Bot:
    """``spots.bots.make("expectimax-v2", nodes=8000, time_ms=None, depth=5, weights="fitted",
    sampling="stratified")``."""

    name = "expectimax-v2"

    def __init__(
        self,
        seed: int = 0,
        nodes: int = DEFAULT_NODES,
        time_ms: float | None = None,
        depth: int = 5,
        exact: int = 21,
        width: int = 6,
        weights: Weights | dict[str, Any] | str = FITTED,
        sampling: str = "stratified",
    ) -> None:
        if sampling not in SAMPLING:
            raise ValueError(f"unknown sampling {sampling!r}; allowed: {', '.join(SAMPLING)}")
        if nodes < 1 or depth < 1 or exact < 1 or width < 1:
            raise ValueError("nodes, depth, exact and width must be at least 1 "
                             f"(got nodes={nodes}, depth={depth}, exact={exact}, width={width})")
        if isinstance(weights, str):
            if weights not in WEIGHT_SETS:
                raise ValueError(f"unknown weights {weights!r}; the named sets are: {', '.join(WEIGHT_SETS)}")
            weights = WEIGHT_SETS[weights]
        elif isinstance(weights, dict):
            weights = replace(FITTED, **weights)
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.time_ms = time_budget(time_ms)
        self.depth = depth
        self.exact = exact
        self.width = width
        self.weights = weights
        self.sampling = sampling
        self._offset = 0.0  # stratified sampling: where this decision's strata start
        self.greedy = GreedyBot(seed=seed, risk=0.0)
        self.reached = 0  # the depth of the last finished pass (for benchmarks and hints)
        self._memo: dict[tuple[object, ...], float] = {}
        self.used = 0  # positions created by the last search (its cost in nodes)
        self._limit = math.inf
        self._deadline = math.inf
        self._cut = False
        self._rivals: dict[tuple[object, ...], float | None] = {}
        self._me = 0
        self._turn = 0

    def choose(self, state: State) -> str:
        return self.rank(state)[0][0]

    def rank(self, state: State) -> list[tuple[str, float]]:
        """Every legal move with its expected value at the end of the turn, best first."""
        moves = state.legal_actions()
        if len(moves) == 1:
            return [(moves[0], 0.0)]
        self._memo = {}
        self._rivals = {}
        self._me, self._turn = state.seat, state.turn
        self.used = 0
        self._deadline = deadline(self.time_ms)
        self._limit = math.inf
        if self.sampling == "stratified":
            self._offset = self.rng.random()
        best = self._pass(state, moves, 0)  # one play-out a move: always finished
        self.reached = 0
        self._limit = self.nodes
        for depth in range(1, self.depth + 1):
            self._cut = False
            try:
                best = self._pass(state, [m for m, _ in best], depth)
            except OutOfBudget:
                break
            self.reached = depth
            if not self._cut:  # the whole turn was searched exactly: deeper changes nothing
                break
        return best

    def _pass(self, state: State, moves: list[str], depth: int) -> list[tuple[str, float]]:
        scored = [(move, self._after(state, move, depth)) for move in moves]
        scored.sort(key=lambda mv: -mv[1])
        return scored

    def _tick(self, count: int = 1) -> None:
        used = self.used = self.used + count
        if used > self._limit:
            raise OutOfBudget
        if used & 127 < count and time.perf_counter() > self._deadline and self._limit != math.inf:
            raise OutOfBudget

    def _after(self, state: State, move: str, depth: int) -> float:
        self._tick()
        child = state.clone()
        child.apply_trusted(move)
        return self._value(child, depth)

    def _value(self, state: State, depth: int) -> float:
        if state.is_terminal() or state.turn != self._turn:
            return self._evaluate(state)
        if depth <= 0:
            self._cut = True
            return self._play_out(state)
        key = (state.key(), depth)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        if state.is_chance_node():
            value = self._chance(state, depth)
        else:
            value = max(self._after(state, move, depth) for move in self.candidates(state))
        self._memo[key] = value
        return value

    def _chance(self, state: State, depth: int) -> float:
        outcomes = state.chance_outcomes()
        if len(outcomes) <= self.exact:
            return sum(p * self._after(state, o, depth - 1) for o, p in outcomes)
        self._cut = True
        if self.sampling == "stratified":
            picks = self._strata(state, outcomes, depth)
            return sum(n * self._after(state, outcomes[i][0], depth - 1) for i, n in picks.items()) / self.width
        total = 0.0
        for _ in range(self.width):
            self._tick()
            child = state.clone()
            child.sample_chance(self.rng)
            total += self._value(child, depth - 1)
        return total / self.width

    def _strata(self, state: State, outcomes: list[tuple[str, float]], depth: int) -> dict[int, int]:
        """``width`` outcomes, one from each equal slice of probability (index: times picked).

        Every chance node at one depth of one decision uses the same offset, so moves whose rolls have
        the same dice are compared on the same outcomes (common random numbers): a move's rank then
        depends on the move, less on which rolls it happened to be sampled with.
        """
        offset = (self._offset + depth * GOLDEN) % 1.0
        points = [(offset + j) / self.width for j in range(self.width)]
        if state.phase == CHANCE_ROLL:
            cumulative = _cumulative(state.pending_dice)
            last = len(cumulative) - 1
            indices = [min(bisect_right(cumulative, x), last) for x in points]
        else:  # a dog revealed from the deck: every card equally likely
            indices = [int(x * len(outcomes)) for x in points]
        return Counter(indices)

    @staticmethod
    def candidates(state: State) -> list[str]:
        """The moves worth searching: all of them, except that a roll's dice are resolved lowest face first."""
        moves = state.legal_actions()
        if state.phase != "roll":
            return moves
        faces = [int(m.split()[1]) for m in moves if m.startswith(("place ", "bury "))]
        if not faces:
            return moves
        low = str(min(faces))
        return [m for m in moves if not m.startswith(("place ", "bury ")) or m.split()[1] == low]

    def _play_out(self, state: State) -> float:
        """The greedy bot finishes the turn, stopping where it may, on one sampled line."""
        state = state.clone()
        while not state.is_terminal() and state.turn == self._turn:
            self._tick()
            if state.is_chance_node():
                state.sample_chance(self.rng)
            else:
                state.apply_trusted(self.greedy.choose(state))
        return self._evaluate(state)

    def _evaluate(self, state: State) -> float:
        """``value.evaluate`` at the end of the turn; the opponents' standing is computed once per yard they hold
        (only Dig or a bust changes an opponent's table during the bot's turn, and both change the yard)."""
        if state.is_terminal():
            return state.returns()[self._me]
        me = self._me
        key = tuple(tuple(p.yard) for s, p in enumerate(state.players) if s != me)
        if key not in self._rivals:
            self._rivals[key] = rival(state, me, self.weights)
        return win_chance(state, me, self._rivals[key], self.weights)
