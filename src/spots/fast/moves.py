"""Legal moves and their effects, in compiled code.

``legal`` writes the moves of a decision as numbers (``layout.M_*``) in exactly the order
of the engine's ``legal_actions()``, so a policy that picks the i-th move picks the same
move in both; ``apply`` plays one; ``apply_roll`` and ``apply_reveal`` play chance events.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import layout as L
from .agenda import advance
from .machine import (
    ask_roll,
    bust,
    do_turn,
    dog_at,
    dog_complete,
    new_roll,
    on_reveal,
    pbase,
    push,
    roll_dice_count,
    yard_total,
)
from .steps import gain_treats


@njit(cache=True)
def mv(kind: int, a: int, b: int, c: int, d: int) -> int:
    return kind | a << 8 | b << 16 | c << 24 | d << 32


@njit(cache=True)
def pack(counts: np.ndarray, base: int) -> int:
    """A multiset of dice (counts by face at counts[base + v]) as one number, 4 bits a face."""
    out = 0
    for v in range(1, 7):
        out |= counts[base + v] << (4 * (v - 1))
    return out


@njit(cache=True)
def packed_count(packed: int, v: int) -> int:
    return packed >> (4 * (v - 1)) & 15


@njit(cache=True)
def sub_multisets(st: np.ndarray, base: int, below: int, out: np.ndarray) -> int:
    """Every distinct sub-multiset of the dice at st[base + 1..6] with faces < ``below``, packed,
    in the engine's order (by size, then as ascending tuples); returns how many."""
    counts = np.zeros(7, dtype=np.int64)
    for v in range(1, 7):
        if v < below:
            counts[v] = st[base + v]
    keys = np.zeros(512, dtype=np.int64)
    n = 0
    pick = np.zeros(7, dtype=np.int64)
    while True:
        size = 0
        digits = 0
        packed = 0
        for v in range(1, 7):
            for _ in range(pick[v]):
                digits = digits * 7 + v
            size += pick[v]
            packed |= pick[v] << (4 * (v - 1))
        key = size * 40353607 + digits  # 7 ** 9: sizes first, then tuples of one size in order
        j = n
        while j > 0 and keys[j - 1] > key:  # insertion sort
            keys[j] = keys[j - 1]
            out[j] = out[j - 1]
            j -= 1
        keys[j] = key
        out[j] = packed
        n += 1
        v = 1  # the next pick, like an odometer
        while v <= 6 and pick[v] == counts[v]:
            pick[v] = 0
            v += 1
        if v > 6:
            return n
        pick[v] += 1


@njit(cache=True)
def packed_sum(packed: int) -> int:
    total = 0
    for v in range(1, 7):
        total += v * packed_count(packed, v)
    return total


@njit(cache=True)
def can_make_eight(st: np.ndarray, base: int) -> bool:
    """Do some of the dice add up to exactly 8 (Search)?"""
    subsets = np.zeros(512, dtype=np.int64)
    n = sub_multisets(st, base, 7, subsets)
    for i in range(n):  # noqa: SIM110 (a plain loop compiles best)
        if packed_sum(subsets[i]) == 8:
            return True
    return False


# ---------------------------------------------------------------- legal moves


@njit(cache=True)
def legal(st: np.ndarray, cfg: np.ndarray, moves: np.ndarray) -> int:
    """The legal moves of a decision, written to ``moves``; returns how many."""
    phase = st[L.S_PHASE]
    seat = st[L.S_SEAT]
    b = pbase(seat)
    n = 0
    if phase == L.PH_TURN:
        for t in range(cfg[L.C_NTRICKS]):
            if st[L.S_FACE_UP + t]:
                moves[n] = mv(L.M_TRICK, t, 0, 0, 0)
                n += 1
        for slot in range(st[b + L.P_NDOGS]):
            d = dog_at(seat, slot)
            if st[d + 2] == 0 and dog_complete(st, cfg, d):
                moves[n] = L.M_SCORE
                n += 1
                break
    elif phase == L.PH_ROLL:
        n = roll_moves(st, cfg, moves)
    elif phase == L.PH_CONTINUE:
        moves[0] = L.M_CONTINUE
        moves[1] = L.M_STOP
        n = 2
    elif phase == L.PH_TROT:
        n = trot_moves(st, cfg, moves)
    elif phase == L.PH_DIG:
        n = dig_moves(st, cfg, moves)
    elif phase == L.PH_RETRIEVE:
        mask = cfg[L.C_CARD_MASK + st[L.S_TOP]]
        for v in range(1, 7):
            if mask >> v & 1:
                moves[n] = mv(L.M_CHOOSE, v, 0, 0, 0)
                n += 1
    elif phase == L.PH_BOLT:
        for k in range(3, min(12, st[L.S_DICE]) + 1):
            moves[n] = mv(L.M_SET_ASIDE, k, 0, 0, 0)
            n += 1
    elif phase == L.PH_TAKE:
        for v in range(1, 7):
            if st[b + L.P_YARD + v] > 0:
                moves[n] = mv(L.M_TAKE_YARD, v, 0, 0, 0)
                n += 1
        for slot in range(st[b + L.P_NDOGS]):
            d = dog_at(seat, slot)
            if st[d + 2] == 0:
                for v in range(1, 7):
                    if st[d + 1] >> v & 1:
                        moves[n] = mv(L.M_TAKE_DOG, slot, v, 0, 0)
                        n += 1
    elif phase == L.PH_GUARD:
        for v in range(1, 7):
            moves[n] = mv(L.M_CHOOSE, v, 0, 0, 0)
            n += 1
    return n


@njit(cache=True)
def trot_moves(st: np.ndarray, cfg: np.ndarray, moves: np.ndarray) -> int:
    """Every die on an unscored dog to every empty space of an unscored dog, then ``stop``."""
    seat = st[L.S_SEAT]
    dogs = st[pbase(seat) + L.P_NDOGS]
    n = 0
    for src in range(dogs):
        ds = dog_at(seat, src)
        if st[ds + 2]:
            continue
        for v in range(1, 7):
            if not st[ds + 1] >> v & 1:
                continue
            for dst in range(dogs):
                dd = dog_at(seat, dst)
                if st[dd + 2]:
                    continue
                empty = cfg[L.C_CARD_MASK + st[dd]] & ~st[dd + 1]
                for w in range(1, 7):
                    if empty >> w & 1:
                        moves[n] = mv(L.M_MOVE, src, v, dst, w)
                        n += 1
    moves[n] = L.M_STOP
    return n + 1


@njit(cache=True)
def dig_moves(st: np.ndarray, cfg: np.ndarray, moves: np.ndarray) -> int:
    """Raise (not a 6) or lower each distinct buried die of every seat, then ``stop``."""
    n = 0
    for s in range(cfg[L.C_PLAYERS]):
        yard = pbase(s) + L.P_YARD
        for v in range(1, 7):
            if st[yard + v] > 0:
                if v < 6:
                    moves[n] = mv(L.M_DIG, s, v, 1, 0)
                    n += 1
                moves[n] = mv(L.M_DIG, s, v, 0, 0)
                n += 1
    moves[n] = L.M_STOP
    return n + 1


@njit(cache=True)
def roll_moves(st: np.ndarray, cfg: np.ndarray, moves: np.ndarray) -> int:
    seat = st[L.S_SEAT]
    b = pbase(seat)
    n = 0
    if st[L.S_R_FRESH] and st[b + L.P_TREATS] > 0:
        if st[L.S_R_PARTIAL]:
            subsets = np.zeros(512, dtype=np.int64)
            k = sub_multisets(st, L.S_R_DICE, 7, subsets)
            for i in range(1, k):  # every part but the empty one
                moves[n] = mv(L.M_REROLL, subsets[i], 0, 0, 0)
                n += 1
        else:
            moves[n] = L.M_REROLL
            n += 1
    choosing = st[L.S_R_CHOOSING]
    dice = L.S_R_DICE
    if choosing == L.K_NOTHING:
        moves[n] = L.M_STOP
        n += 1
    elif choosing == L.K_FETCH:
        for v in range(1, 7):
            if st[dice + v] > 0:
                moves[n] = mv(L.M_CHOOSE, v, 0, 0, 0)
                n += 1
    elif choosing == L.K_HUNT:
        if roll_dice_count(st) <= 2:
            moves[n] = mv(L.M_PICK, pack(st, dice), 0, 0, 0)
            n += 1
        else:
            for v in range(1, 7):
                for w in range(v, 7):
                    if st[dice + v] > 0 and st[dice + w] > (1 if v == w else 0):
                        moves[n] = mv(L.M_PICK, (1 << (4 * (v - 1))) + (1 << (4 * (w - 1))), 0, 0, 0)
                        n += 1
    elif choosing == L.K_SEARCH:
        subsets = np.zeros(512, dtype=np.int64)
        k = sub_multisets(st, dice, 7, subsets)
        for i in range(k):
            if packed_sum(subsets[i]) == 8:
                moves[n] = mv(L.M_PICK, subsets[i], 0, 0, 0)
                n += 1
    elif choosing == L.K_SCAVENGE:
        subsets = np.zeros(512, dtype=np.int64)
        k = sub_multisets(st, dice, yard_total(st, seat), subsets)
        for i in range(k):
            moves[n] = mv(L.M_DISCARD, subsets[i], 0, 0, 0)
            n += 1
    else:
        for v in range(1, 7):
            if st[dice + v] == 0:
                continue
            for slot in range(st[b + L.P_NDOGS]):
                d = dog_at(seat, slot)
                if st[d + 2] == 0 and cfg[L.C_CARD_MASK + st[d]] >> v & 1 and not st[d + 1] >> v & 1:
                    moves[n] = mv(L.M_PLACE, v, slot, 0, 0)
                    n += 1
            moves[n] = mv(L.M_BURY, v, 0, 0, 0)
            n += 1
    return n


# ---------------------------------------------------------------- applying moves


@njit(cache=True)
def apply(st: np.ndarray, cfg: np.ndarray, move: int) -> None:
    """Play one legal move of the player to move, then run the agenda to the next question."""
    phase = st[L.S_PHASE]
    st[L.S_PHASE] = L.PH_NONE
    kind = move & 255
    a = move >> 8 & 255
    if kind == L.M_REROLL or kind == L.M_PICK or kind == L.M_DISCARD:
        a = move >> 8
    b = move >> 16 & 255
    c = move >> 24 & 255
    d = move >> 32 & 255
    seat = st[L.S_SEAT]
    if phase == L.PH_TURN:
        do_turn(st, cfg, kind, a)
    elif phase == L.PH_ROLL:
        do_roll(st, cfg, kind, a, b)
    elif phase == L.PH_CONTINUE:
        if kind == L.M_CONTINUE:
            push(st, L.T_ROLL if st[L.S_OFFER] == L.OF_ROLL else L.T_BOLT_ROLL, st[L.S_OFFER_ARG])
        elif st[L.S_OFFER] == L.OF_BOLT:
            st[L.S_DICE] += st[L.S_SET_ASIDE]
            st[L.S_SET_ASIDE] = 0
        st[L.S_OFFER] = L.OF_NONE
        st[L.S_OFFER_ARG] = 0
    elif phase == L.PH_TROT:
        if kind == L.M_MOVE:
            st[dog_at(seat, a) + 1] &= ~(1 << b)
            st[dog_at(seat, c) + 1] |= 1 << d
    elif phase == L.PH_DIG:
        do_dig(st, cfg, kind, a, b, c)
    elif phase == L.PH_RETRIEVE:
        new_roll(st, 1, L.K_NONE, 0, 0)
        st[L.S_R_DICE + a] = 1
        st[L.S_R_FRESH] = 0
        push(st, L.T_FAST, 0)
        st[L.S_PHASE] = L.PH_ROLL
    elif phase == L.PH_BOLT:
        st[L.S_SET_ASIDE] = a
        st[L.S_DICE] -= a
        push(st, L.T_BOLT_ROLL, 0)
    elif phase == L.PH_TAKE:
        if kind == L.M_TAKE_YARD:
            st[pbase(seat) + L.P_YARD + a] -= 1
        else:
            st[dog_at(seat, a) + 1] &= ~(1 << b)
        st[L.S_DICE] += 1
        st[L.S_TAKEN] = 1
    elif phase == L.PH_GUARD:
        st[L.S_GUARD] = a
    advance(st, cfg)


@njit(cache=True)
def do_dig(st: np.ndarray, cfg: np.ndarray, kind: int, target: int, v: int, up: int) -> None:
    if kind == L.M_STOP:
        st[L.S_DIGS] = 0
        return
    st[L.S_DIGS] -= 1
    yard = pbase(target) + L.P_YARD
    st[yard + v] -= 1
    if up:
        st[yard + v + 1] += 1
    elif v == 1:
        st[L.S_DICE] += 1
    else:
        st[yard + v - 1] += 1
    push(st, L.T_DIG, 0)
    if yard_total(st, target) > cfg[L.C_BUST]:
        bust(st, cfg, target)


@njit(cache=True)
def do_roll(st: np.ndarray, cfg: np.ndarray, kind: int, a: int, slot: int) -> None:
    """Resolve part of the roll in hand: reroll, keep some dice, place or bury one."""
    seat = st[L.S_SEAT]
    pb = pbase(seat)
    dice = L.S_R_DICE
    if kind == L.M_REROLL:
        st[pb + L.P_TREATS] -= 1
        st[L.S_TREATS] += 1
        if st[L.S_R_PARTIAL]:
            size = 0
            for v in range(1, 7):
                again = packed_count(a, v)
                st[L.S_R_HELD + v] = st[dice + v] - again
                size += again
            st[L.S_DICE] += size
        else:
            size = st[L.S_R_SIZE]
            st[L.S_DICE] += roll_dice_count(st)
        st[L.S_DICE] -= size
        for v in range(7):
            st[dice + v] = 0
        ask_roll(st, size, L.CF_ROLL, 0)
        return
    if kind == L.M_CHOOSE or kind == L.M_PICK or kind == L.M_DISCARD or kind == L.M_STOP:
        before = roll_dice_count(st)
        for v in range(1, 7):
            if kind == L.M_CHOOSE:
                kept = st[dice + v] if v == a else 0
            elif kind == L.M_PICK:
                kept = packed_count(a, v)
            elif kind == L.M_DISCARD:
                kept = st[dice + v] - packed_count(a, v)
            else:
                kept = 0
            st[dice + v] = kept
        st[L.S_DICE] += before - roll_dice_count(st)
        st[L.S_R_CHOOSING] = L.K_NONE
        st[L.S_R_FRESH] = 0
    else:
        st[dice + a] -= 1
        st[L.S_R_FRESH] = 0
        if kind == L.M_PLACE:
            st[dog_at(seat, slot) + 1] |= 1 << a
        else:
            st[pb + L.P_YARD + a] += 1
            if yard_total(st, seat) > cfg[L.C_BUST]:
                bust(st, cfg, seat)
                return
            if st[L.S_R_BONUS]:
                gain_treats(st, a)
    if roll_dice_count(st) == 0:
        st[L.S_ROLL] = 0
    else:
        st[L.S_PHASE] = L.PH_ROLL


# ---------------------------------------------------------------- chance events


@njit(cache=True)
def apply_roll(st: np.ndarray, cfg: np.ndarray, faces: np.ndarray) -> None:
    """A roll's faces (counts by face, faces[1..6]) arrive (the engine's ``_on_roll``)."""
    st[L.S_PHASE] = L.PH_NONE
    if st[L.S_CF] == L.CF_FIRST_DIE:
        yard = pbase(st[L.S_CF_SEAT]) + L.P_YARD
        empty = True
        for v in range(1, 7):
            if st[yard + v] > 0:
                empty = False
            st[yard + v] = faces[v]
        if empty:
            st[L.S_DICE] -= 1
    else:
        on_roll(st, cfg, faces)
    st[L.S_PENDING] = 0
    st[L.S_CF] = L.CF_NONE
    st[L.S_CF_SEAT] = 0
    advance(st, cfg)


@njit(cache=True)
def on_roll(st: np.ndarray, cfg: np.ndarray, faces: np.ndarray) -> None:
    seat = st[L.S_SEAT]
    dice = L.S_R_DICE
    for v in range(1, 7):
        st[dice + v] = st[L.S_R_HELD + v] + faces[v]
        st[L.S_R_HELD + v] = 0
    st[L.S_R_FRESH] = 1
    mode = st[L.S_R_MODE]
    choosing = mode
    if mode == L.K_GUARD:
        before = roll_dice_count(st)
        for v in range(st[L.S_GUARD] + 1, 7):
            st[dice + v] = 0
        kept = roll_dice_count(st)
        st[L.S_DICE] += before - kept
        choosing = L.K_NONE if kept else L.K_NOTHING
    elif mode == L.K_SEARCH:
        if not can_make_eight(st, dice):
            choosing = L.K_NOTHING
    elif mode == L.K_SCAVENGE:
        total = yard_total(st, seat)
        below = False
        for v in range(1, 7):
            if st[dice + v] > 0 and v < total:
                below = True
        if not below:
            choosing = L.K_NONE
    st[L.S_R_CHOOSING] = choosing
    if choosing == L.K_NOTHING and st[pbase(seat) + L.P_TREATS] == 0:
        st[L.S_DICE] += roll_dice_count(st)
        st[L.S_ROLL] = 0
        return
    st[L.S_PHASE] = L.PH_ROLL


@njit(cache=True)
def apply_reveal(st: np.ndarray, cfg: np.ndarray, card: int) -> None:
    st[L.S_PHASE] = L.PH_NONE
    on_reveal(st, cfg, card)
    advance(st, cfg)
