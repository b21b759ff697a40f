"""Rollouts for the MCTS bot in compiled code: greedy plays every seat on to the end of the game.

``spots.bots.make("mcts", rollout="fast")`` uses this instead of its usual rollout (the
reference greedy bot to the end of the turn, then the value estimate): the position is
copied into the simulator's arrays (``view.arrays_from_dict``) and ``playouts`` games are
played on from it by the compiled greedy policy (the very choices of ``make("greedy")``),
with dice from the search's own generator; the seats' mean returns are the rollout's value.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from . import layout as L
from .api import DEFAULT_RISK, odds
from .batch import playouts
from .tiles import build_cfg, card_names
from .view import arrays_from_dict

MAX_DECISIONS = 5000  # a greedy seat can loop for ever in Dogpile with an empty supply: the leaders share


class FastGreedyRollout:
    """``rollout(state, rng) -> each seat's value``: the mean return of ``count`` compiled greedy playouts."""

    def __init__(self, count: int = 1, risk: float = DEFAULT_RISK) -> None:
        if count < 1:
            raise ValueError(f"playouts must be at least 1, not {count}")
        self.count = count
        self.risk = risk
        self._rules: Any = None

    def _prepare(self, rules: Any) -> None:
        """The rules' arrays, made once per table (a search's states all share one ``Rules``)."""
        self._rules = rules
        self.cfg = build_cfg(rules)
        self.names = card_names(rules)
        self.policy = np.full(rules.players, L.POLICY_GREEDY, dtype=np.int64)
        self.risks = np.full(rules.players, float(self.risk))

    def __call__(self, state: Any, rng: random.Random) -> list[float]:
        if state.is_terminal():
            return list(state.returns())
        if state.rules is not self._rules:
            self._prepare(state.rules)
        start = arrays_from_dict(state.to_dict(), state.rules, self.names)
        out = np.zeros(state.rules.players)
        table, offsets = odds()
        playouts(start, self.cfg, table, offsets, self.policy, self.risks, rng.getrandbits(63), self.count,
                 MAX_DECISIONS, out)
        return [float(v) for v in out]
