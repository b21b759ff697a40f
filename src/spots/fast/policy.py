"""The greedy bot, ported move for move from ``spots/bots/greedy.py``.

One function per phase, named after the bot's handler and written in the same order, so a
change to the bot is followed here line by line. Where the bot takes ``max`` (or ``min``)
of its candidates, the first best in the order of the legal moves wins, as with Python's
``max``. Bust chances sum the same float probabilities in the same order as the bot
(``odds`` is built from the same multinomial), so equal positions give bit-equal figures.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import layout as L
from .machine import (
    dog_at,
    dog_complete,
    open_spaces,
    pbase,
    popcount,
    yard_count,
    yard_total,
)
from .moves import mv, packed_count
from .steps import has_die_to_take, roll_size, unfinished_dogs

TREAT_TILE_MASK = (1 << 12) | (1 << 13) | (1 << 14) | (1 << 15) | (1 << 16)  # beg chew gobble play-dead stay


@njit(cache=True)
def bust_chance(st: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, spaces: np.ndarray,
                dice: int) -> float:
    """Chance that a plain roll of ``dice`` dice busts the player to move (the bot's ``bust_chance``)."""
    if dice <= 0:
        return 0.0
    k = min(dice, 8)
    room = cfg[L.C_BUST] - yard_total(st, st[L.S_SEAT])
    total = 0.0
    for row in range(odds_off[k], odds_off[k + 1]):
        spots = 0
        for v in range(1, 7):
            extra = int(odds[row, v - 1]) - spaces[v]
            if extra > 0:
                spots += v * extra
        if spots > room:
            total += odds[row, 6]
    return total


@njit(cache=True)
def buried(spaces: np.ndarray, counts: np.ndarray) -> int:
    """Spots buried when dice given as counts by face are resolved well (``odds.Position.buried``)."""
    total = 0
    for v in range(1, 7):
        total += v * max(0, counts[v] - spaces[v])
    return total


@njit(cache=True)
def quality(spaces: np.ndarray, counts: np.ndarray) -> tuple[int, int]:
    """(dice that fit, minus spots buried) of some dice given as counts by face, as one comparable pair."""
    fits = 0
    buried = 0
    for v in range(1, 7):
        n = counts[v]
        fits += min(n, spaces[v])
        buried += v * max(0, n - spaces[v])
    return fits, -buried


@njit(cache=True)
def greedy(st: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, moves: np.ndarray, n: int,
           risk: float) -> int:
    """The greedy bot's move among ``moves[:n]`` (the bot's ``choose``)."""
    if n == 1:
        return moves[0]
    spaces = np.zeros(7, dtype=np.int64)
    open_spaces(st, cfg, st[L.S_SEAT], spaces)
    phase = st[L.S_PHASE]
    if phase == L.PH_TURN:
        move = g_turn(st, cfg, odds, odds_off, moves, n, spaces)
    elif phase == L.PH_ROLL:
        move = g_roll(st, cfg, moves, n, spaces)
    elif phase == L.PH_CONTINUE:
        move = g_continue(st, cfg, odds, odds_off, spaces, risk)
    elif phase == L.PH_TROT:
        move = g_trot(st, cfg, moves, n)
    elif phase == L.PH_DIG:
        move = g_dig(st, cfg, moves, n)
    elif phase == L.PH_RETRIEVE:
        move = g_retrieve(moves, n, spaces)
    elif phase == L.PH_TAKE:
        move = g_take(moves, n)
    elif phase == L.PH_GUARD:
        move = g_guard(st, cfg, spaces)
    else:  # Bolt: the fewest dice
        move = moves[0]
    for i in range(n):
        if moves[i] == move:
            return move
    return moves[0]


@njit(cache=True)
def g_turn(st: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, moves: np.ndarray, n: int,
           spaces: np.ndarray) -> int:
    seat = st[L.S_SEAT]
    complete = 0
    unscored = 0
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = dog_at(seat, slot)
        if st[d + 2] == 0:
            unscored += 1
            complete += dog_complete(st, cfg, d)
    if moves[n - 1] == L.M_SCORE and (complete >= 2 or yard_total(st, seat) >= 4 or complete == unscored):
        return L.M_SCORE
    best = moves[0]
    best_worth = -np.inf
    for i in range(n):
        if moves[i] & 255 == L.M_TRICK:
            worth = trick_worth(st, cfg, odds, odds_off, spaces, moves[i] >> 8 & 255)
            if worth > best_worth:
                best, best_worth = moves[i], worth
    return best


@njit(cache=True)
def planned_roll_size(st: np.ndarray, cfg: np.ndarray, base: int, seat: int) -> int:
    """A tile's first roll as the engine's ``roll_size(step, planning=True)`` counts it, before the trick starts."""
    if cfg[base + L.F_SOURCE] == L.SRC_YARD:
        return yard_count(st, seat)
    wanted = cfg[base + L.F_DICE]
    if wanted == L.D_SPRINT:
        wanted = unfinished_dogs(st, cfg, seat)
    size = min(wanted, st[L.S_DICE])
    if cfg[base + L.F_SOURCE] == L.SRC_DOGPILE:
        size += int(has_die_to_take(st, cfg, seat))
    return size


@njit(cache=True)
def trick_worth(st: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, spaces: np.ndarray,
                t: int) -> float:
    seat = st[L.S_SEAT]
    treats = st[pbase(seat) + L.P_TREATS]
    tile = cfg[L.C_TRICKS + t]
    worth = 0.5 * st[L.S_TILE_TREATS + t]
    if TREAT_TILE_MASK >> tile & 1:
        return worth + (2.0 if treats == 0 else 0.5 if treats < 3 else -1.0)
    first = -1
    for i in range(2):
        if first < 0 and cfg[L.C_STEPS + (tile * 2 + i) * L.STEP_FIELDS + L.F_KIND] == L.SK_ROLL:
            first = i
    if first < 0:
        return worth + 1.0  # Bolt
    base = L.C_STEPS + (tile * 2 + first) * L.STEP_FIELDS
    if cfg[base + L.F_KEEP] != L.K_NONE:
        return worth + 1.0  # Dig, Trot, Retrieve, Bolt and the blue tiles: moderate, controlled
    dice = planned_roll_size(st, cfg, base, seat)  # the engine's count: supply, Dogpile's extra die
    total_spaces = 0
    for v in range(1, 7):
        total_spaces += spaces[v]
    expected_fits = min(dice, total_spaces) * 0.4
    return worth + expected_fits - 4 * bust_chance(st, cfg, odds, odds_off, spaces, dice) * (
        1 if treats == 0 else 0.5)


@njit(cache=True)
def g_roll(st: np.ndarray, cfg: np.ndarray, moves: np.ndarray, n: int, spaces: np.ndarray) -> int:
    """Resolving a roll: reroll a bad one, keep the best dice, place where a dog is closest to done."""
    seat = st[L.S_SEAT]
    dice = L.S_R_DICE
    choosing = st[L.S_R_CHOOSING]
    rerolls = 0
    while rerolls < n and moves[rerolls] & 255 == L.M_REROLL:
        rerolls += 1
    if rerolls > 0 and st[L.S_R_FRESH]:
        bad = False
        if choosing == L.K_NONE:
            bad = yard_total(st, seat) + buried(spaces, st[dice:dice + 7]) > cfg[L.C_BUST]
        if choosing == L.K_NOTHING:
            return L.M_REROLL
        if bad:
            if st[L.S_R_PARTIAL]:  # Track: reroll the dice that do not fit
                misfits = 0
                for v in range(1, 7):
                    extra = st[dice + v] - spaces[v]
                    if extra > 0:
                        misfits |= extra << (4 * (v - 1))
                return mv(L.M_REROLL, misfits, 0, 0, 0) if misfits else moves[rerolls - 1]
            return L.M_REROLL
    if choosing != L.K_NONE:
        best = -1
        best_q = (0, 0)
        counts = np.zeros(7, dtype=np.int64)
        for i in range(rerolls, n):
            if choosing == L.K_NOTHING:
                return L.M_STOP
            a = moves[i] >> 8
            for v in range(1, 7):
                if choosing == L.K_FETCH:
                    counts[v] = st[dice + v] if v == (a & 255) else 0
                elif choosing == L.K_SCAVENGE:
                    counts[v] = st[dice + v] - packed_count(a, v)
                else:  # Hunt, Search: the dice picked
                    counts[v] = packed_count(a, v)
            q = quality(spaces, counts)
            if best < 0 or q > best_q:
                best, best_q = i, q
        return moves[best] if best >= 0 else L.M_STOP
    best = -1
    best_close = (0, 0)
    for i in range(n):  # place on the dog closest to completion (then the bigger dog)
        if moves[i] & 255 == L.M_PLACE:
            d = dog_at(seat, moves[i] >> 16 & 255)
            mask = cfg[L.C_CARD_MASK + st[d]]
            close = (-popcount(mask & ~st[d + 1]), -popcount(mask))
            if best < 0 or close > best_close:
                best, best_close = i, close
    if best >= 0:
        return moves[best]
    for i in range(n):  # else bury the lowest die
        if moves[i] & 255 == L.M_BURY:
            return moves[i]
    return moves[0]


@njit(cache=True)
def g_continue(st: np.ndarray, cfg: np.ndarray, odds: np.ndarray, odds_off: np.ndarray, spaces: np.ndarray,
               risk: float) -> int:
    dice = 1 if st[L.S_OFFER] == L.OF_BOLT else roll_size(st, cfg, st[L.S_OFFER_ARG], True)
    if spaces[1:].sum() == 0:
        return L.M_STOP
    return L.M_CONTINUE if bust_chance(st, cfg, odds, odds_off, spaces, dice) < risk else L.M_STOP


@njit(cache=True)
def g_trot(st: np.ndarray, cfg: np.ndarray, moves: np.ndarray, n: int) -> int:
    """Move a die onto a dog it would complete, from a dog that is not complete."""
    seat = st[L.S_SEAT]
    for i in range(n):
        m = moves[i]
        if m == L.M_STOP:
            continue
        src = m >> 8 & 255
        dst = m >> 24 & 255
        ds = dog_at(seat, src)
        dd = dog_at(seat, dst)
        target_empty = popcount(cfg[L.C_CARD_MASK + st[dd]] & ~st[dd + 1])
        source_empty = popcount(cfg[L.C_CARD_MASK + st[ds]] & ~st[ds + 1])
        if target_empty == 1 and src != dst and source_empty > 0:
            return m
    return L.M_STOP


@njit(cache=True)
def g_dig(st: np.ndarray, cfg: np.ndarray, moves: np.ndarray, n: int) -> int:
    """Bust an opponent if a raise does it, else lower your own highest buried die."""
    seat = st[L.S_SEAT]
    for i in range(n):
        m = moves[i]
        if m & 255 == L.M_DIG and m >> 24 & 255 == 1:
            target = m >> 8 & 255
            if target != seat and yard_total(st, target) + 1 > cfg[L.C_BUST]:
                return m
    best = L.M_STOP
    best_face = -1
    for i in range(n):
        m = moves[i]
        if m & 255 == L.M_DIG and m >> 24 & 255 == 0 and m >> 8 & 255 == seat and (m >> 16 & 255) > best_face:
            best, best_face = m, m >> 16 & 255
    return best


@njit(cache=True)
def g_retrieve(moves: np.ndarray, n: int, spaces: np.ndarray) -> int:
    for i in range(n):
        if spaces[moves[i] >> 8 & 255] > 0:
            return moves[i]
    return moves[0]  # the lowest number


@njit(cache=True)
def g_take(moves: np.ndarray, n: int) -> int:
    best = -1
    for i in range(n):
        if moves[i] & 255 == L.M_TAKE_YARD and (best < 0 or (moves[i] >> 8 & 255) > (moves[best] >> 8 & 255)):
            best = i
    return moves[best] if best >= 0 else moves[0]


@njit(cache=True)
def g_guard(st: np.ndarray, cfg: np.ndarray, spaces: np.ndarray) -> int:
    headroom = cfg[L.C_BUST] - yard_total(st, st[L.S_SEAT])
    best = 1
    found = False
    for v in range(1, 7):
        if spaces[v] > 0 and (v <= max(headroom, 1) or spaces[v]):
            best = v
            found = True
    return mv(L.M_CHOOSE, best if found else 1, 0, 0, 0)
