"""Positions for learning a value: games played in the simulator, a few turn starts of each kept with the result.

``record_positions`` plays greedy seats (each with its own risk, and a small chance of a random move
so the positions are varied) on a trick set of each game's own, and keeps up to ``keep`` turn starts
per game, drawn uniformly from all of its turns (reservoir sampling), with the game's returns. The
positions come back as the learned value's ``TurnStart`` (engine ``Player`` tables, the tiles, the
deck's top card), so the features are computed by the same code the bots use
(``spots.games.spots.learned_value``). The same arguments give the same positions.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit, prange

from ..games.spots import Rules
from ..games.spots.learned_value import TurnStart
from ..games.spots.pieces import Dog, Player, Tile
from . import layout as L
from .agenda import init
from .api import game_returns, odds
from .batch import GOLDEN, draw_chance, next_u64, uniform
from .machine import pbase, scored_count
from .moves import apply, legal
from .policy import greedy
from .rollouts import mean_returns
from .tiles import build_cfg, card_names


@njit(cache=True)
def play_keeping(st: np.ndarray, cfg: np.ndarray, odds_table: np.ndarray, odds_off: np.ndarray, moves: np.ndarray,
                 rng: np.ndarray, risk: np.ndarray, explore: np.ndarray, max_decisions: int, snaps: np.ndarray) -> int:
    """Play one game of greedy seats (seat s plays a random move with chance ``explore[s]``), copying a uniform
    sample of up to ``len(snaps)`` turn starts into ``snaps``; return how many were kept (-1: cut off)."""
    faces = np.zeros(7, dtype=np.int64)
    keep = snaps.shape[0]
    last_turn, seen, decisions = -1, 0, 0
    init(st, cfg)
    while st[L.S_PHASE] != L.PH_OVER:
        if decisions >= max_decisions:
            return -1
        if draw_chance(st, cfg, faces, rng):
            continue
        seat = st[L.S_SEAT]
        if st[L.S_TURN] != last_turn and st[L.S_FIRST] >= 0:
            last_turn = st[L.S_TURN]
            slot = seen if seen < keep else int(uniform(rng) * (seen + 1))
            if slot < keep:
                snaps[slot, :] = st
            seen += 1
        n = legal(st, cfg, moves)
        if uniform(rng) < explore[seat]:
            move = moves[int(uniform(rng) * n)]
        else:
            move = greedy(st, cfg, odds_table, odds_off, moves, n, risk[seat])
        decisions += 1
        apply(st, cfg, move)
    return min(seen, keep)


@njit(cache=True, parallel=True)
def record_batch(cfgs: np.ndarray, seeds: np.ndarray, odds_table: np.ndarray, odds_off: np.ndarray,
                 risks: np.ndarray, explore: np.ndarray, max_decisions: int, snaps: np.ndarray, kept: np.ndarray,
                 winner: np.ndarray, scored: np.ndarray) -> None:
    """Play game g with rules ``cfgs[g]`` from ``seeds[g]``, keeping its turn starts in ``snaps[g]``."""
    for g in prange(seeds.shape[0]):
        st = np.zeros(L.STATE_SIZE, dtype=np.int64)
        moves = np.zeros(L.MAX_MOVES, dtype=np.int64)
        rng = np.zeros(1, dtype=np.uint64)
        rng[0] = np.uint64(seeds[g]) * GOLDEN
        next_u64(rng)
        kept[g] = play_keeping(st, cfgs[g], odds_table, odds_off, moves, rng, risks[g], explore[g], max_decisions,
                               snaps[g])
        winner[g] = st[L.S_WINNER]
        for s in range(cfgs[g][L.C_PLAYERS]):
            scored[g, s] = scored_count(st, s)


def tables(st: np.ndarray, rules: Rules, names: list[str]) -> list[Player]:
    """The seats' tables of a simulator position as engine ``Player`` objects."""
    out = []
    for seat in range(rules.players):
        base = pbase(seat)
        dogs = []
        for slot in range(int(st[base + L.P_NDOGS])):
            card, filled, scored = (int(x) for x in st[base + L.P_DOGS + 3 * slot: base + L.P_DOGS + 3 * slot + 3])
            spaces = rules.cards[names[card]].spaces
            dogs.append(Dog(names[card], spaces, tuple(v for v in range(1, 7) if filled >> v & 1), bool(scored)))
        yard = [face for face in range(1, 7) for _ in range(int(st[base + L.P_YARD + face]))]
        out.append(Player(dogs, yard, int(st[base + L.P_TREATS])))
    return out


def turn_start(st: np.ndarray, rules: Rules, names: list[str]) -> TurnStart:
    """A simulator position as the learned value reads it."""
    tiles = tuple(Tile(name, bool(st[L.S_FACE_UP + i]), int(st[L.S_TILE_TREATS + i]))
                  for i, name in enumerate(rules.tricks))
    top = int(st[L.S_TOP])
    return TurnStart(rules, tables(st, rules, names), int(st[L.S_SEAT]), int(st[L.S_TURN]), int(st[L.S_DICE]),
                     int(st[L.S_TREATS]), int(st[L.S_NREST]) + (top >= 0), tiles, names[top] if top >= 0 else None)


def record_positions(rules_per_game: Sequence[Rules], seeds: Sequence[int], risks: np.ndarray, explore: np.ndarray,
                     keep: int = 6, max_decisions: int = 20_000, rollouts: int = 0,
                     risk: float = 0.25) -> tuple[list[TurnStart], list[list[float]], int]:
    """Play one game per rules (all with the same player count), keep up to ``keep`` turn starts of each; return
    the positions, each one's result, and the number of games cut off (their positions are dropped). The result is
    the game's returns, or with ``rollouts`` the mean returns of that many greedy play-outs (``risk``) of the
    position (``rollouts.mean_returns``): what greedy play makes of it, measured."""
    n = len(seeds)
    players = rules_per_game[0].players
    if any(r.players != players for r in rules_per_game):
        raise ValueError("every game of one batch must have the same number of players")
    cfgs = np.stack([build_cfg(r) for r in rules_per_game])
    snaps = np.zeros((n, keep, L.STATE_SIZE), dtype=np.int64)
    kept, winner = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    scored = np.zeros((n, players), dtype=np.int64)
    table, offsets = odds()
    record_batch(cfgs, np.asarray(seeds, dtype=np.int64), table, offsets, np.asarray(risks, dtype=np.float64),
                 np.asarray(explore, dtype=np.float64), max_decisions, snaps, kept, winner, scored)
    finished = kept >= 0
    returns = game_returns(np.where(winner >= 0, winner, -1), scored)
    games = [int(g) for g in np.nonzero(finished)[0] for _ in range(kept[g])]
    starts = np.stack([snaps[g, k] for g in np.nonzero(finished)[0] for k in range(kept[g])]) if games else snaps[:0, 0]
    if rollouts and games:
        measured = np.zeros((len(games), L.MAX_PLAYERS))
        mean_returns(starts, np.asarray(games, dtype=np.int64), cfgs, table, offsets,
                     np.asarray([seeds[g] for g in games], dtype=np.uint64) * np.uint64(31) + np.arange(len(games),
                                                                                                     dtype=np.uint64),
                     rollouts, float(risk), max_decisions, measured)
    positions: list[TurnStart] = []
    results: list[list[float]] = []
    for i, (g, st) in enumerate(zip(games, starts, strict=True)):
        rules = rules_per_game[g]
        positions.append(turn_start(st, rules, card_names(rules)))
        results.append([float(r) for r in (measured[i, :players] if rollouts else returns[g])])
    return positions, results, int((~finished).sum())
