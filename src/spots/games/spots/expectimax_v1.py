"""The first expectimax bot, frozen as ``expectimax-v1`` so the arena can measure its successor against it.

Kept exactly as it played (no time budget; its ``nodes`` cap does not count the
greedy play-outs at the leaves, which is why some positions take a second).
The bot it describes plans the rest of its own turn over the dice.

Inside a turn every decision is the bot's own (only chance intervenes), so the
rest of the turn is a single-agent expectimax tree: decision nodes take the best
child, chance nodes the probability-weighted mean. The turn's end is scored by
the value function (``value.py``). To stay fast:

- positions are memoised by ``State.key()`` (placing dice in another order
  reaches the same position);
- a chance node with at most ``exact`` outcomes is enumerated exactly, a larger
  one (Fetch's 8 dice: 1,287 outcomes) is estimated from ``width`` samples;
- each chance node spends one unit of ``depth``; past it, and past ``nodes``
  searched positions, the greedy bot plays the turn out (stopping where it may)
  along a single sampled line.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from .greedy import GreedyBot
from .state import State
from .value import DEFAULT, Weights, evaluate


class ExpectimaxV1Bot:
    name = "expectimax-v1"

    def __init__(
        self,
        seed: int = 0,
        depth: int = 2,
        exact: int = 21,
        width: int = 8,
        nodes: int = 2000,
        weights: Weights | dict[str, Any] = DEFAULT,
    ) -> None:
        if isinstance(weights, dict):
            weights = replace(DEFAULT, **weights)
        self.rng = random.Random(seed)
        self.depth = depth
        self.exact = exact
        self.width = width
        self.max_nodes = nodes
        self.weights = weights
        self.greedy = GreedyBot(seed=seed, risk=0.0)
        self._memo: dict[tuple[object, ...], float] = {}
        self._nodes = 0
        self._me = 0
        self._turn = 0

    def choose(self, state: State) -> str:
        return max(self.rank(state), key=lambda mv: mv[1])[0]

    def rank(self, state: State) -> list[tuple[str, float]]:
        """Every legal move with its expected value at the end of the turn, best first."""
        moves = state.legal_actions()
        if len(moves) == 1:
            return [(moves[0], 0.0)]
        self._memo = {}
        self._nodes = 0
        self._me = state.seat
        self._turn = state.turn
        scored = [(move, self._after(state, move, self.depth)) for move in moves]
        scored.sort(key=lambda mv: -mv[1])
        return scored

    def _after(self, state: State, move: str, depth: int) -> float:
        child = state.clone()
        child.apply_trusted(move)
        return self._value(child, depth)

    def _value(self, state: State, depth: int) -> float:
        if state.is_terminal() or state.turn != self._turn:
            return evaluate(state, self._me, self.weights)
        if depth <= 0 or self._nodes >= self.max_nodes:
            return self._play_out(state)
        key = (state.key(), depth)
        cached = self._memo.get(key)
        if cached is not None:
            return cached
        self._nodes += 1
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if len(outcomes) <= self.exact:
                value = sum(p * self._after(state, o, depth - 1) for o, p in outcomes)
            else:
                total = 0.0
                for _ in range(self.width):
                    child = state.clone()
                    child.sample_chance(self.rng)
                    total += self._value(child, depth - 1)
                value = total / self.width
        else:
            value = max(self._after(state, move, depth) for move in state.legal_actions())
        self._memo[key] = value
        return value

    def _play_out(self, state: State) -> float:
        """The greedy bot finishes the turn, stopping where it may, on one sampled line."""
        state = state.clone()
        while not state.is_terminal() and state.turn == self._turn:
            if state.is_chance_node():
                state.sample_chance(self.rng)
            else:
                state.apply_trusted(self.greedy.choose(state))
        return evaluate(state, self._me, self.weights)
