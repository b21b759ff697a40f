"""Rollouts from positions: each position played on to its end many times by greedy seats, its mean returns.

The seats play as the greedy bot does, except that a seat always takes a winning score at the start of its turn
(``batch.finish_greedy``): the bot may roll on holding the dog that wins, and the value of a position should not
count that slip.

Why: the value of a position under greedy play, measured instead of predicted, thousands of times a second. The
coach's reference set checks the coach against it (``benchmarks/coach_reference.py``) and the learned value can be
fitted to it (``benchmarks/train_value.py --rollouts K``): K rollouts say more about a position than the one game it
came from. Rollout r of position i draws its dice from ``seeds[i]`` and r alone, on any number of cores.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import layout as L
from .batch import GOLDEN, finish_greedy, next_u64
from .machine import scored_count


@njit(cache=True)
def add_returns(st: np.ndarray, cfg: np.ndarray, out: np.ndarray) -> None:
    """Add a finished game's returns to ``out``: 1 for the winner; at the turn limit the leaders share 1."""
    players = cfg[L.C_PLAYERS]
    winner = st[L.S_WINNER] if st[L.S_PHASE] == L.PH_OVER else -1
    if winner >= 0:
        out[winner] += 1.0
        return
    best = -1
    for s in range(players):
        best = max(best, scored_count(st, s))
    leaders = 0
    for s in range(players):
        leaders += scored_count(st, s) == best
    for s in range(players):
        if scored_count(st, s) == best:
            out[s] += 1.0 / leaders


@njit(cache=True, parallel=True)
def mean_returns(starts: np.ndarray, which: np.ndarray, cfgs: np.ndarray, odds: np.ndarray, odds_off: np.ndarray,
                 seeds: np.ndarray, rollouts: int, risk: float, max_decisions: int, out: np.ndarray) -> None:
    """``out[i]``: the mean returns of ``rollouts`` greedy play-outs of ``starts[i]`` under rules ``cfgs[which[i]]``."""
    for i in prange(starts.shape[0]):
        cfg = cfgs[which[i]]
        moves = np.zeros(L.MAX_MOVES, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        total = np.zeros(L.MAX_PLAYERS, dtype=np.float64)
        for r in range(rollouts):
            st = starts[i].copy()
            rng[0] = np.uint64(seeds[i]) * GOLDEN + np.uint64(r)
            next_u64(rng)
            finish_greedy(st, cfg, odds, odds_off, moves, rng, risk, max_decisions)
            add_returns(st, cfg, total)
        for s in range(cfg[L.C_PLAYERS]):
            out[i, s] = total[s] / rollouts
