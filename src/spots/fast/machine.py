"""The Spots state machine in compiled code: the table's small helpers, turns, busts, scoring.

Each function mirrors the method of the reference engine (``spots/games/spots/state.py`` and
``turns.py``) with the same name, task for task, so that the two can be read side by side:
the engine keeps an agenda of small tasks and ``advance`` (``agenda.py``) pops them until
one needs a decision or a chance event; a trick's steps are in ``steps.py``. Everything
lives in the arrays described in ``layout.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import layout as L

# ---------------------------------------------------------------- small helpers


@njit(cache=True)
def pbase(seat: int) -> int:
    return L.S_PLAYERS + seat * L.P_SIZE


@njit(cache=True)
def dog_at(seat: int, slot: int) -> int:
    """Offset of a dog: card, filled mask, scored."""
    return L.S_PLAYERS + seat * L.P_SIZE + L.P_DOGS + 3 * slot


@njit(cache=True)
def yard_total(st: np.ndarray, seat: int) -> int:
    b = pbase(seat) + L.P_YARD
    return st[b + 1] + 2 * st[b + 2] + 3 * st[b + 3] + 4 * st[b + 4] + 5 * st[b + 5] + 6 * st[b + 6]


@njit(cache=True)
def yard_count(st: np.ndarray, seat: int) -> int:
    b = pbase(seat) + L.P_YARD
    return st[b + 1] + st[b + 2] + st[b + 3] + st[b + 4] + st[b + 5] + st[b + 6]


@njit(cache=True)
def popcount(mask: int) -> int:
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


@njit(cache=True)
def dog_complete(st: np.ndarray, cfg: np.ndarray, d: int) -> bool:
    return st[d + 1] == cfg[L.C_CARD_MASK + st[d]]


@njit(cache=True)
def paws(st: np.ndarray, cfg: np.ndarray, seat: int) -> int:
    total = 0
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = dog_at(seat, slot)
        if st[d + 2] == 0:
            total += cfg[L.C_CARD_PAWS + st[d]]
    return total


@njit(cache=True)
def open_spaces(st: np.ndarray, cfg: np.ndarray, seat: int, out: np.ndarray) -> None:
    """Empty spaces of the seat's unscored dogs, counted by face into out[1..6]."""
    for v in range(7):
        out[v] = 0
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = dog_at(seat, slot)
        if st[d + 2] == 0:
            empty = cfg[L.C_CARD_MASK + st[d]] & ~st[d + 1]
            for v in range(1, 7):
                if empty >> v & 1:
                    out[v] += 1


@njit(cache=True)
def scored_count(st: np.ndarray, seat: int) -> int:
    n = 0
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        n += st[dog_at(seat, slot) + 2]
    return n


@njit(cache=True)
def step_field(cfg: np.ndarray, tile: int, index: int, field: int) -> int:
    return cfg[L.C_STEPS + (tile * 2 + index) * L.STEP_FIELDS + field]


@njit(cache=True)
def trick_tile(st: np.ndarray, cfg: np.ndarray) -> int:
    return cfg[L.C_TRICKS + st[L.S_TRICK]]


@njit(cache=True)
def push(st: np.ndarray, task: int, arg: int) -> None:
    """Push one task; to run A then B, push B first (the engine's ``_push(A, B)``)."""
    n = st[L.S_NAGENDA]
    st[L.S_AGENDA + 2 * n] = task
    st[L.S_AGENDA + 2 * n + 1] = arg
    st[L.S_NAGENDA] = n + 1


@njit(cache=True)
def ask_roll(st: np.ndarray, dice: int, purpose: int, seat: int) -> None:
    st[L.S_PHASE] = L.PH_CHANCE_ROLL
    st[L.S_PENDING] = dice
    st[L.S_CF] = purpose
    st[L.S_CF_SEAT] = seat


@njit(cache=True)
def new_roll(st: np.ndarray, size: int, mode: int, partial: int, bonus: int) -> None:
    st[L.S_ROLL] = 1
    st[L.S_R_SIZE] = size
    st[L.S_R_MODE] = mode
    st[L.S_R_CHOOSING] = L.K_NONE
    st[L.S_R_FRESH] = 1
    st[L.S_R_PARTIAL] = partial
    st[L.S_R_BONUS] = bonus
    for v in range(7):
        st[L.S_R_DICE + v] = 0
        st[L.S_R_HELD + v] = 0


@njit(cache=True)
def roll_dice_count(st: np.ndarray) -> int:
    n = 0
    for v in range(1, 7):
        n += st[L.S_R_DICE + v]
    return n


@njit(cache=True)
def on_reveal(st: np.ndarray, cfg: np.ndarray, card: int) -> None:
    n = st[L.S_NREST]
    j = 0
    for i in range(n):
        if st[L.S_REST + i] != card:
            st[L.S_REST + j] = st[L.S_REST + i]
            j += 1
    st[L.S_NREST] = j
    if st[L.S_CF] == L.CF_DEAL:
        add_dog(st, st[L.S_CF_SEAT], card)
    else:
        st[L.S_TOP] = card
    st[L.S_CF] = L.CF_NONE
    st[L.S_CF_SEAT] = 0


@njit(cache=True)
def add_dog(st: np.ndarray, seat: int, card: int) -> None:
    b = pbase(seat)
    slot = st[b + L.P_NDOGS]
    d = dog_at(seat, slot)
    st[d] = card
    st[d + 1] = 0
    st[d + 2] = 0
    st[b + L.P_NDOGS] = slot + 1


# ---------------------------------------------------------------- turns


@njit(cache=True)
def start_turn(st: np.ndarray, cfg: np.ndarray) -> None:
    if st[L.S_DICE] == 0:
        for s in range(cfg[L.C_PLAYERS]):
            bust(st, cfg, s)
    ntricks = cfg[L.C_NTRICKS]
    up = 0
    last = 0
    for t in range(ntricks):
        if st[L.S_FACE_UP + t]:
            up += 1
            if up == 1:
                last = t
    if up == 1:
        if st[L.S_TREATS] > 0:
            st[L.S_TILE_TREATS + last] += 1
            st[L.S_TREATS] -= 1
        for t in range(ntricks):
            st[L.S_FACE_UP + t] = 1
    st[L.S_PHASE] = L.PH_TURN


@njit(cache=True)
def task_endturn(st: np.ndarray, cfg: np.ndarray) -> None:
    st[L.S_TRICK] = -1
    st[L.S_ROLL] = 0
    st[L.S_GUARD] = 0
    st[L.S_OFFER] = L.OF_NONE
    st[L.S_OFFER_ARG] = 0
    st[L.S_STEP] = 0
    st[L.S_RIS] = 0
    st[L.S_DIGS] = 0
    st[L.S_SET_ASIDE] = 0
    st[L.S_TAKEN] = 0
    if st[L.S_TURN] >= cfg[L.C_TURN_LIMIT]:
        finish(st, -1, 2)
        return
    st[L.S_SEAT] = (st[L.S_SEAT] + 1) % cfg[L.C_PLAYERS]
    st[L.S_TURN] += 1
    start_turn(st, cfg)


@njit(cache=True)
def do_turn(st: np.ndarray, cfg: np.ndarray, kind: int, t: int) -> None:
    if kind == L.M_SCORE:
        scored = score(st, cfg)
        if st[L.S_PHASE] != L.PH_OVER:
            push(st, L.T_ENDTURN, 0)
            push(st, L.T_DRAW, scored)
        return
    st[L.S_FACE_UP + t] = 0
    b = pbase(st[L.S_SEAT])
    st[b + L.P_TREATS] += st[L.S_TILE_TREATS + t]
    st[L.S_TILE_TREATS + t] = 0
    st[L.S_TRICK] = t
    tile = cfg[L.C_TRICKS + t]
    push(st, L.T_ENDTURN, 0)
    for i in range(1, -1, -1):
        if step_field(cfg, tile, i, L.F_KIND) != L.SK_NONE:
            push(st, L.T_STEP, i)


@njit(cache=True)
def score(st: np.ndarray, cfg: np.ndarray) -> int:
    """Score every complete unscored dog of the player to move; returns how many."""
    seat = st[L.S_SEAT]
    count = 0
    for slot in range(st[pbase(seat) + L.P_NDOGS]):
        d = dog_at(seat, slot)
        if st[d + 2] == 0 and dog_complete(st, cfg, d):
            st[L.S_DICE] += popcount(st[d + 1])
            st[d + 1] = 0
            st[d + 2] = 1
            count += 1
    if scored_count(st, seat) >= cfg[L.C_TARGET]:
        finish(st, seat, 1)
    return count


@njit(cache=True)
def task_draw(st: np.ndarray, cfg: np.ndarray, count: int) -> None:
    seat = st[L.S_SEAT]
    if count <= 0 or st[pbase(seat) + L.P_NDOGS] >= cfg[L.C_DOG_LIMIT] or st[L.S_TOP] < 0:
        return
    add_dog(st, seat, st[L.S_TOP])
    st[L.S_TOP] = -1
    push(st, L.T_DRAW, count - 1)
    if st[L.S_NREST] > 0:
        st[L.S_PHASE] = L.PH_CHANCE_REVEAL
        st[L.S_CF] = L.CF_TOP


@njit(cache=True)
def bust(st: np.ndarray, cfg: np.ndarray, seat: int) -> None:
    """Every die on the seat's unscored dogs and in its yard goes back to the supply."""
    b = pbase(seat)
    st[b + L.P_BUSTS] += 1
    back = yard_count(st, seat)
    for slot in range(st[b + L.P_NDOGS]):
        d = dog_at(seat, slot)
        back += popcount(st[d + 1])
        st[d + 1] = 0
    for v in range(7):
        st[b + L.P_YARD + v] = 0
    st[L.S_DICE] += back
    if seat == st[L.S_SEAT] and st[L.S_TRICK] >= 0:
        return_hand(st)
        st[L.S_NAGENDA] = 0
        push(st, L.T_ENDTURN, 0)
        st[L.S_PHASE] = L.PH_NONE


@njit(cache=True)
def return_hand(st: np.ndarray) -> None:
    if st[L.S_ROLL]:
        held = 0
        for v in range(1, 7):
            held += st[L.S_R_HELD + v]
        st[L.S_DICE] += roll_dice_count(st) + held
        st[L.S_ROLL] = 0
    st[L.S_DICE] += st[L.S_SET_ASIDE]
    st[L.S_SET_ASIDE] = 0
    st[L.S_TAKEN] = 0


@njit(cache=True)
def finish(st: np.ndarray, winner: int, reason: int) -> None:
    return_hand(st)
    st[L.S_WINNER] = winner
    st[L.S_REASON] = reason
    st[L.S_NAGENDA] = 0
    st[L.S_PHASE] = L.PH_OVER
