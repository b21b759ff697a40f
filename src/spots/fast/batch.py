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
from .machine import dog_complete, pbase, scored_count
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
def draw(rng: np.ndarray, given: np.ndarray, k: int) -> float:
    """The k-th uniform of a game's chance events: ``given[k]`` when uniforms are given, else a fresh one."""
    return given[k] if given.shape[0] else uniform(rng)


# Columns of a game's ``stats`` row (P players, T tiles): decisions, chance events, lead changes,
# then per seat the turns taken, then per seat the decisions, then per seat and tile the times
# the seat chose the tile (seat-major).
ST_DECISIONS = 0
ST_CHANCE = 1
ST_LEADS = 2
ST_TURNS = 3


def stats_width(players: int, tiles: int) -> int:
    return ST_TURNS + 2 * players + players * tiles


@njit(cache=True)
def sole_leader(st: np.ndarray, players: int, leader: int) -> int:
    """The seat with the most scored dogs, or ``leader`` unchanged on a tie (the study's lead)."""
    best = -1
    now = -1
    for s in range(players):
        count = scored_count(st, s)
        if count > best:
            best, now = count, s
        elif count == best:
            now = -1
    return leader if now < 0 else now


@njit(cache=True)
def follow_lead(st: np.ndarray, players: int, leader: int, stats: np.ndarray) -> int:
    """Count a lead change when the sole leader is someone else than before; return the leader."""
    now = sole_leader(st, players, leader)
    if leader >= 0 and now != leader:
        stats[ST_LEADS] += 1
    return now


@njit(cache=True)
def play_one(st: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, moves: np.ndarray,
             rng: np.ndarray, policy: np.ndarray, risk: np.ndarray, stats: np.ndarray, max_decisions: int,
             given: np.ndarray) -> None:
    """Play one game to the end, or until ``max_decisions`` (a greedy seat can loop for ever in
    Dogpile with an empty supply), counting into ``stats`` (columns ``ST_*``). The lead is
    looked at when a turn's first decision comes and at the end, as the study's reference
    runner does (``spots.study.play``). Chance events draw one uniform per die and per reveal,
    as the engine's ``sample_chance`` does: from ``rng``, or from ``given`` when it is not
    empty (the game is cut off when they run out)."""
    faces = np.zeros(7, dtype=np.int64)
    players = cfg[L.C_PLAYERS]
    uses = ST_TURNS + 2 * players
    last_turn, leader, drawn = -1, -1, 0
    stats[:] = 0
    init(st, cfg)
    while st[L.S_PHASE] != L.PH_OVER and stats[ST_DECISIONS] < max_decisions:
        phase = st[L.S_PHASE]
        if phase == L.PH_CHANCE_ROLL or phase == L.PH_CHANCE_REVEAL:
            wanted = st[L.S_PENDING] if phase == L.PH_CHANCE_ROLL else 1
            if given.shape[0] and drawn + wanted > given.shape[0]:
                break
            if phase == L.PH_CHANCE_ROLL:
                faces[:] = 0
                for k in range(wanted):
                    faces[int(draw(rng, given, drawn + k) * 6.0) + 1] += 1
                apply_roll(st, cfg, faces)
            else:
                apply_reveal(st, cfg, st[L.S_REST + int(draw(rng, given, drawn) * st[L.S_NREST])])
            drawn += wanted
            stats[ST_CHANCE] += 1
        else:
            seat = st[L.S_SEAT]
            if st[L.S_TURN] != last_turn:
                stats[ST_TURNS + seat] += 1
                last_turn = st[L.S_TURN]
                leader = follow_lead(st, players, leader, stats)
            n = legal(st, cfg, moves)
            if policy[seat] == L.POLICY_GREEDY:
                move = greedy(st, cfg, odds, odds_off, moves, n, risk[seat])
            else:
                move = moves[int(uniform(rng) * n)]
            if move & 255 == L.M_TRICK:
                stats[uses + seat * cfg[L.C_NTRICKS] + (move >> 8 & 255)] += 1
            stats[ST_DECISIONS] += 1
            stats[ST_TURNS + players + seat] += 1
            apply(st, cfg, move)
    follow_lead(st, players, leader, stats)


@njit(cache=True)
def summarise(st: np.ndarray, cfg: np.ndarray, g: int, winner: np.ndarray, turns: np.ndarray, busts: np.ndarray,
              scored: np.ndarray) -> None:
    """Game g's result into the output arrays; winner -2 for a game cut off."""
    winner[g] = st[L.S_WINNER] if st[L.S_PHASE] == L.PH_OVER else -2
    turns[g] = st[L.S_TURN]
    for s in range(cfg[L.C_PLAYERS]):
        busts[g, s] = st[pbase(s) + L.P_BUSTS]
        scored[g, s] = scored_count(st, s)


@njit(cache=True, parallel=True)
def play_batch(cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, policies: np.ndarray, risks: np.ndarray,
               seed: int, max_decisions: int, winner: np.ndarray, turns: np.ndarray, busts: np.ndarray,
               scored: np.ndarray, stats: np.ndarray) -> None:
    """Play ``len(winner)`` games; game g seats ``policies[g]`` and draws from seed and g."""
    no_dice = np.zeros(0, dtype=np.float64)
    for g in prange(winner.shape[0]):
        st = np.zeros(L.STATE_SIZE, dtype=np.int64)
        moves = np.zeros(L.MAX_MOVES, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        rng[0] = np.uint64(seed) * GOLDEN + np.uint64(g)
        next_u64(rng)
        play_one(st, cfg, odds, odds_off, moves, rng, policies[g], risks[g], stats[g], max_decisions, no_dice)
        summarise(st, cfg, g, winner, turns, busts, scored)


@njit(cache=True, parallel=True)
def play_seeded(cfgs: np.ndarray, which: np.ndarray, seeds: np.ndarray, given: np.ndarray, odds: np.ndarray,
                odds_off: np.ndarray, policies: np.ndarray, risks: np.ndarray, max_decisions: int, winner: np.ndarray,
                turns: np.ndarray, busts: np.ndarray, scored: np.ndarray, first: np.ndarray, stats: np.ndarray) -> None:
    """Play ``len(seeds)`` games, game g with rules ``cfgs[which[g]]`` and dice from ``seeds[g]`` alone
    (a study's games: each has its own seed and may have its own trick set), or from ``given[g]``
    when ``given`` has columns."""
    for g in prange(seeds.shape[0]):
        st = np.zeros(L.STATE_SIZE, dtype=np.int64)
        moves = np.zeros(L.MAX_MOVES, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        rng[0] = seeds[g]
        next_u64(rng)
        cfg = cfgs[which[g]]
        play_one(st, cfg, odds, odds_off, moves, rng, policies[g], risks[g], stats[g], max_decisions, given[g])
        summarise(st, cfg, g, winner, turns, busts, scored)
        first[g] = st[L.S_FIRST]


@njit(cache=True)
def winning_score(st: np.ndarray, cfg: np.ndarray, moves: np.ndarray, n: int) -> bool:
    """At the start of a turn: may the seat score, and would scoring reach the target (win the game)?"""
    if st[L.S_PHASE] != L.PH_TURN or moves[n - 1] != L.M_SCORE:
        return False
    seat = st[L.S_SEAT]
    total = 0
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = L.S_PLAYERS + seat * L.P_SIZE + L.P_DOGS + 3 * slot
        if st[d + 2] == 1 or dog_complete(st, cfg, d):
            total += 1
    return total >= cfg[L.C_TARGET]


@njit(cache=True)
def draw_chance(st: np.ndarray, cfg: np.ndarray, faces: np.ndarray, rng: np.ndarray) -> bool:
    """Draw the chance event ``st`` stands at (a roll's dice, or a card revealed) from ``rng``, and apply it; False
    where ``st`` waits for a decision instead. ``faces`` is scratch space of 7 counts."""
    phase = st[L.S_PHASE]
    if phase == L.PH_CHANCE_ROLL:
        faces[:] = 0
        for _ in range(st[L.S_PENDING]):
            faces[int(uniform(rng) * 6.0) + 1] += 1
        apply_roll(st, cfg, faces)
        return True
    if phase == L.PH_CHANCE_REVEAL:
        apply_reveal(st, cfg, st[L.S_REST + int(uniform(rng) * st[L.S_NREST])])
        return True
    return False


@njit(cache=True)
def finish_greedy(st: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, moves: np.ndarray,
                  rng: np.ndarray, risk: float, max_decisions: int) -> None:
    """Play a game on from wherever ``st`` stands to its end, every seat greedy, dice from ``rng``. Unlike the greedy
    bot, a seat whose score at the start of its turn would win the game always scores (the bot may roll on when it
    holds one complete dog, and bust it): a play-out measures the position, not that slip."""
    faces = np.zeros(7, dtype=np.int64)
    decisions = 0
    while st[L.S_PHASE] != L.PH_OVER and decisions < max_decisions:
        if not draw_chance(st, cfg, faces, rng):
            n = legal(st, cfg, moves)
            move = L.M_SCORE if winning_score(st, cfg, moves, n) else greedy(st, cfg, odds, odds_off, moves, n, risk)
            apply(st, cfg, move)
            decisions += 1


@njit(cache=True, parallel=True)
def play_from(starts: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, seeds: np.ndarray,
              risk: float, max_decisions: int, winner: np.ndarray, scored: np.ndarray) -> None:
    """Play game g on from ``starts[g]`` (a position's array) with greedy seats and dice from ``seeds[g]`` alone."""
    for g in prange(starts.shape[0]):
        st = starts[g].copy()
        moves = np.zeros(L.MAX_MOVES, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        rng[0] = seeds[g]
        next_u64(rng)
        finish_greedy(st, cfg, odds, odds_off, moves, rng, risk, max_decisions)
        winner[g] = st[L.S_WINNER] if st[L.S_PHASE] == L.PH_OVER else -2
        for s in range(cfg[L.C_PLAYERS]):
            scored[g, s] = scored_count(st, s)
