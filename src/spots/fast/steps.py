"""The steps of a trick in compiled code: rolls, treats, Trot, Dig, Retrieve, Bolt, Guard.

Each function mirrors the engine's step task of the same name (``spots/games/spots/steps.py`` and
``spots/games/spots/tricks.py``); the table changes they share (score, bust, ...) are in
``machine.py``, the agenda that runs them in ``agenda.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import layout as L
from .machine import (
    ask_roll,
    dog_at,
    dog_complete,
    new_roll,
    open_spaces,
    paws,
    pbase,
    push,
    score,
    step_field,
    trick_tile,
    yard_count,
)

TILE_STAY = 16  # tiles.TILE_IDS["stay"]

@njit(cache=True)
def task_step(st: np.ndarray, cfg: np.ndarray, index: int) -> None:
    st[L.S_STEP] = index
    st[L.S_RIS] = 0
    tile = trick_tile(st, cfg)
    kind = step_field(cfg, tile, index, L.F_KIND)
    seat = st[L.S_SEAT]
    if kind == L.SK_ROLL:
        push(st, L.T_OFFER if step_field(cfg, tile, index, L.F_OPTIONAL) else L.T_ROLL, index)
    elif kind == L.SK_DRAW:
        push(st, L.T_DRAW, 1)
    elif kind == L.SK_TREATS:
        do_treats(st, cfg, step_field(cfg, tile, index, L.F_TREATS))
    elif kind == L.SK_TROT:
        if has_trot_move(st, cfg, seat):
            st[L.S_PHASE] = L.PH_TROT
    elif kind == L.SK_DIG:
        st[L.S_DIGS] = paws(st, cfg, seat)
        push(st, L.T_DIG, 0)
    elif kind == L.SK_RETRIEVE:
        if st[L.S_TOP] >= 0 and st[L.S_DICE] > 0:
            st[L.S_DICE] -= 1
            st[L.S_PHASE] = L.PH_RETRIEVE
    elif kind == L.SK_BOLT:
        if st[L.S_DICE] >= 3:
            st[L.S_PHASE] = L.PH_BOLT
        else:
            st[L.S_SET_ASIDE] = st[L.S_DICE]
            st[L.S_DICE] = 0
            if st[L.S_SET_ASIDE] > 0:
                push(st, L.T_BOLT_ROLL, 0)
    elif kind == L.SK_GUARD:
        st[L.S_PHASE] = L.PH_GUARD


@njit(cache=True)
def do_treats(st: np.ndarray, cfg: np.ndarray, formula: int) -> None:
    """Beg, Chew, Gobble, Stay: take treats (and Gobble gives some back)."""
    seat = st[L.S_SEAT]
    b = pbase(seat)
    held = st[b + L.P_TREATS]
    take = 0
    give_back = 0
    if formula == L.TF_BEG:
        take = 1 + paws(st, cfg, seat)
    elif formula == L.TF_CHEW:
        take = held + 1
    elif formula == L.TF_GOBBLE:
        take = 7
        spaces = np.zeros(7, dtype=np.int64)
        open_spaces(st, cfg, seat, spaces)
        for v in range(1, 7):
            if spaces[v] > 0:
                give_back = v
    else:  # Stay
        for t in range(cfg[L.C_NTRICKS]):
            if st[L.S_FACE_UP + t] == 0 and cfg[L.C_TRICKS + t] != TILE_STAY:
                take += 1
    gain_treats(st, take)
    give_back = min(give_back, st[b + L.P_TREATS])
    st[b + L.P_TREATS] -= give_back
    st[L.S_TREATS] += give_back


@njit(cache=True)
def gain_treats(st: np.ndarray, count: int) -> None:
    count = min(count, st[L.S_TREATS])
    st[L.S_TREATS] -= count
    st[pbase(st[L.S_SEAT]) + L.P_TREATS] += count


@njit(cache=True)
def has_die_to_take(st: np.ndarray, cfg: np.ndarray, seat: int) -> bool:
    if yard_count(st, seat) > 0:
        return True
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = dog_at(seat, slot)
        if st[d + 2] == 0 and st[d + 1] != 0:
            return True
    return False


@njit(cache=True)
def has_trot_move(st: np.ndarray, cfg: np.ndarray, seat: int) -> bool:
    filled = False
    empty = False
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = dog_at(seat, slot)
        if st[d + 2] == 0:
            filled = filled or st[d + 1] != 0
            empty = empty or not dog_complete(st, cfg, d)
    return filled and empty


@njit(cache=True)
def unfinished_dogs(st: np.ndarray, cfg: np.ndarray, seat: int) -> int:
    """Sprint's dice: the seat's unscored dogs that are not complete."""
    count = 0
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = dog_at(seat, slot)
        if st[d + 2] == 0 and not dog_complete(st, cfg, d):
            count += 1
    return count


@njit(cache=True)
def roll_size(st: np.ndarray, cfg: np.ndarray, index: int, planning: bool) -> int:
    """Dice the next roll of this step would have, given the supply (the engine's ``roll_size``)."""
    tile = trick_tile(st, cfg)
    seat = st[L.S_SEAT]
    source = step_field(cfg, tile, index, L.F_SOURCE)
    dice = step_field(cfg, tile, index, L.F_DICE)
    if source == L.SRC_YARD:
        return yard_count(st, seat)
    if dice == L.D_SPRINT:
        wanted = unfinished_dogs(st, cfg, seat)
    elif dice == L.D_HUNT:
        wanted = 2 + paws(st, cfg, seat)
    else:
        wanted = dice + (st[L.S_RIS] if step_field(cfg, tile, index, L.F_GROW) else 0)
    if source == L.SRC_DOGPILE:
        if planning:
            return min(wanted, st[L.S_DICE]) + int(has_die_to_take(st, cfg, seat))
        return min(wanted, st[L.S_DICE] - st[L.S_TAKEN]) + st[L.S_TAKEN]
    return min(wanted, st[L.S_DICE])


@njit(cache=True)
def task_roll(st: np.ndarray, cfg: np.ndarray, index: int) -> None:
    tile = trick_tile(st, cfg)
    seat = st[L.S_SEAT]
    source = step_field(cfg, tile, index, L.F_SOURCE)
    if source == L.SRC_DOGPILE and st[L.S_TAKEN] == 0 and has_die_to_take(st, cfg, seat):
        push(st, L.T_ROLL, index)
        st[L.S_PHASE] = L.PH_TAKE
        return
    size = roll_size(st, cfg, index, False)
    st[L.S_TAKEN] = 0
    if size == 0:
        return
    st[L.S_RIS] += 1
    if step_field(cfg, tile, index, L.F_REPEAT):
        push(st, L.T_OFFER, index)
    push(st, L.T_FAST, 0)
    if source == L.SRC_YARD:
        b = pbase(seat) + L.P_YARD
        st[L.S_DICE] += yard_count(st, seat)
        for v in range(7):
            st[b + v] = 0
    st[L.S_DICE] -= size
    new_roll(st, size, step_field(cfg, tile, index, L.F_KEEP), step_field(cfg, tile, index, L.F_PARTIAL),
             step_field(cfg, tile, index, L.F_BONUS))
    ask_roll(st, size, L.CF_ROLL, 0)


@njit(cache=True)
def task_fast(st: np.ndarray, cfg: np.ndarray) -> None:
    """Fast and risky: every unscored dog complete after a roll scores at once."""
    seat = st[L.S_SEAT]
    unscored = 0
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = dog_at(seat, slot)
        if st[d + 2] == 0:
            unscored += 1
            if not dog_complete(st, cfg, d):
                return
    if unscored > 0:
        scored = score(st, cfg)
        if st[L.S_PHASE] != L.PH_OVER:
            push(st, L.T_DRAW, scored)
