"""Many games at once: the compiled loop that deals, rolls, asks the policies and counts.

Games are independent and spread over the cores with ``prange``. Each game draws its dice,
its reveals and its random choices from its own generator (SplitMix64) seeded from the
match seed and the game's number, so a batch gives the same games on any number of cores.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import layout as L
from .agenda import init
from .moves import apply, apply_reveal, apply_roll, legal
from .policy import greedy

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True)
def next_u64(rng: np.ndarray) -> int:
    """SplitMix64: one 64-bit number from the generator's state ``rng[0]``."""
    rng[0] += GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def uniform(rng: np.ndarray) -> float:
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def play_one(st: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, moves: np.ndarray,
             rng: np.ndarray, policy: np.ndarray, risk: np.ndarray, stats: np.ndarray, max_decisions: int) -> None:
    """Play one game to the end, or until ``max_decisions`` (a greedy seat can loop for ever in
    Dogpile with an empty supply). ``stats``: decisions, chance events, then per seat the turns
    taken, then per seat the decisions, then per tile the times it was chosen."""
    faces = np.zeros(7, dtype=np.int64)
    players = cfg[L.C_PLAYERS]
    last_turn = -1
    stats[:] = 0
    init(st, cfg)
    while st[L.S_PHASE] != L.PH_OVER and stats[0] < max_decisions:
        phase = st[L.S_PHASE]
        if phase == L.PH_CHANCE_ROLL:
            faces[:] = 0
            for _ in range(st[L.S_PENDING]):
                faces[int(uniform(rng) * 6.0) + 1] += 1
            apply_roll(st, cfg, faces)
            stats[1] += 1
        elif phase == L.PH_CHANCE_REVEAL:
            apply_reveal(st, cfg, st[L.S_REST + int(uniform(rng) * st[L.S_NREST])])
            stats[1] += 1
        else:
            seat = st[L.S_SEAT]
            if st[L.S_TURN] != last_turn:
                stats[2 + seat] += 1
                last_turn = st[L.S_TURN]
            n = legal(st, cfg, moves)
            if policy[seat] == L.POLICY_GREEDY:
                move = greedy(st, cfg, odds, odds_off, moves, n, risk[seat])
            else:
                move = moves[int(uniform(rng) * n)]
            if move & 255 == L.M_TRICK:
                stats[2 + 2 * players + (move >> 8 & 255)] += 1
            stats[0] += 1
            stats[2 + players + seat] += 1
            apply(st, cfg, move)


@njit(cache=True, parallel=True)
def play_batch(cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, policies: np.ndarray, risks: np.ndarray,
               seed: int, max_decisions: int, winner: np.ndarray, turns: np.ndarray, busts: np.ndarray,
               scored: np.ndarray, stats: np.ndarray) -> None:
    """Play ``len(winner)`` games; game g seats ``policies[g]`` and draws from seed and g."""
    games = winner.shape[0]
    players = cfg[L.C_PLAYERS]
    for g in prange(games):
        st = np.zeros(L.STATE_SIZE, dtype=np.int64)
        moves = np.zeros(L.MAX_MOVES, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        rng[0] = np.uint64(seed) * GOLDEN + np.uint64(g)
        next_u64(rng)
        play_one(st, cfg, odds, odds_off, moves, rng, policies[g], risks[g], stats[g], max_decisions)
        winner[g] = st[L.S_WINNER] if st[L.S_PHASE] == L.PH_OVER else -2  # -2: cut off
        turns[g] = st[L.S_TURN]
        for s in range(players):
            base = L.S_PLAYERS + s * L.P_SIZE
            busts[g, s] = st[base + L.P_BUSTS]
            count = 0
            for slot in range(st[base + L.P_NDOGS]):
                count += st[base + L.P_DOGS + 3 * slot + 2]
            scored[g, s] = count
