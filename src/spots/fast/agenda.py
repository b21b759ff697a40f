"""The simulator's agenda: a new game's setup tasks and the loop that runs tasks (``advance``).

As in the engine (``State._advance``), the state keeps a stack of small tasks; ``advance``
pops them until one needs a decision or a chance event. The tasks themselves are in
``machine.py`` (turns) and ``steps.py`` (a trick's steps).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import layout as L
from .machine import ask_roll, new_roll, paws, pbase, push, start_turn, task_draw, task_endturn, yard_count
from .steps import roll_size, task_fast, task_roll, task_step


@njit(cache=True)
def init(st: np.ndarray, cfg: np.ndarray) -> None:
    """A new game, advanced to its first chance event (the engine's ``State.__init__``)."""
    st[:] = 0
    n = cfg[L.C_PLAYERS]
    for s in range(n):
        st[pbase(s) + L.P_TREATS] = cfg[L.C_START_TREATS]
    st[L.S_DICE] = cfg[L.C_DICE]
    st[L.S_TREATS] = cfg[L.C_TREATS] - cfg[L.C_START_TREATS] * n
    for t in range(cfg[L.C_NTRICKS]):
        st[L.S_FACE_UP + t] = 1
    st[L.S_TOP] = -1
    st[L.S_NREST] = cfg[L.C_NCARDS]
    for c in range(cfg[L.C_NCARDS]):
        st[L.S_REST + c] = c
    st[L.S_FIRST] = -1
    st[L.S_TRICK] = -1
    st[L.S_WINNER] = -1
    st[L.S_NTIED] = n
    for s in range(n):
        st[L.S_TIED + s] = s
    # the setup tasks, last first: deal, top, first dice, tie
    push(st, L.T_TIE, 0)
    for s in range(n - 1, -1, -1):
        push(st, L.T_FIRST_DIE, s)
    push(st, L.T_TOP, 0)
    for s in range(n - 1, -1, -1):
        for _ in range(cfg[L.C_START_DOGS]):
            push(st, L.T_DEAL, s)
    advance(st, cfg)


@njit(cache=True)
def task_tie(st: np.ndarray, cfg: np.ndarray) -> None:
    best = 0
    faces = np.zeros(4, dtype=np.int64)
    for i in range(st[L.S_NTIED]):
        s = st[L.S_TIED + i]
        b = pbase(s) + L.P_YARD
        for v in range(1, 7):
            if st[b + v] > 0:
                faces[i] = v
        best = max(best, faces[i])
    kept = 0
    for i in range(st[L.S_NTIED]):
        if faces[i] == best:
            st[L.S_TIED + kept] = st[L.S_TIED + i]
            kept += 1
    st[L.S_NTIED] = kept
    if kept > 1:
        push(st, L.T_TIE, 0)
        for i in range(kept - 1, -1, -1):
            push(st, L.T_FIRST_DIE, st[L.S_TIED + i])
        return
    st[L.S_FIRST] = st[L.S_TIED]
    st[L.S_SEAT] = st[L.S_TIED]
    st[L.S_TURN] = 1
    start_turn(st, cfg)


@njit(cache=True)
def advance(st: np.ndarray, cfg: np.ndarray) -> None:
    """Run tasks until one needs a decision or a chance event (the engine's ``_advance``)."""
    while st[L.S_PHASE] == L.PH_NONE:
        n = st[L.S_NAGENDA] - 1
        task = st[L.S_AGENDA + 2 * n]
        arg = st[L.S_AGENDA + 2 * n + 1]
        st[L.S_NAGENDA] = n
        if task == L.T_DEAL:
            st[L.S_PHASE] = L.PH_CHANCE_REVEAL
            st[L.S_CF] = L.CF_DEAL
            st[L.S_CF_SEAT] = arg
        elif task == L.T_TOP:
            if st[L.S_NREST] > 0:
                st[L.S_PHASE] = L.PH_CHANCE_REVEAL
                st[L.S_CF] = L.CF_TOP
        elif task == L.T_FIRST_DIE:
            ask_roll(st, 1, L.CF_FIRST_DIE, arg)
        elif task == L.T_TIE:
            task_tie(st, cfg)
        elif task == L.T_ENDTURN:
            task_endturn(st, cfg)
        elif task == L.T_DRAW:
            task_draw(st, cfg, arg)
        elif task == L.T_STEP:
            task_step(st, cfg, arg)
        elif task == L.T_OFFER:
            if roll_size(st, cfg, arg, True) > 0:
                st[L.S_PHASE] = L.PH_CONTINUE
                st[L.S_OFFER] = L.OF_ROLL
                st[L.S_OFFER_ARG] = arg
        elif task == L.T_ROLL:
            task_roll(st, cfg, arg)
        elif task == L.T_FAST:
            task_fast(st, cfg)
        elif task == L.T_BOLT_ROLL:
            st[L.S_SET_ASIDE] -= 1
            push(st, L.T_BOLT_NEXT, 0)
            push(st, L.T_FAST, 0)
            new_roll(st, 1, L.K_NONE, 0, 0)
            ask_roll(st, 1, L.CF_ROLL, 0)
        elif task == L.T_BOLT_NEXT:
            if st[L.S_SET_ASIDE] > 0:
                if paws(st, cfg, st[L.S_SEAT]) >= st[L.S_SET_ASIDE]:
                    st[L.S_PHASE] = L.PH_CONTINUE
                    st[L.S_OFFER] = L.OF_BOLT
                else:
                    push(st, L.T_BOLT_ROLL, 0)
        elif task == L.T_DIG and st[L.S_DIGS] > 0 and any_yard_dice(st, cfg):
            st[L.S_PHASE] = L.PH_DIG


@njit(cache=True)
def any_yard_dice(st: np.ndarray, cfg: np.ndarray) -> bool:
    for s in range(cfg[L.C_PLAYERS]):  # noqa: SIM110 (a plain loop compiles best)
        if yard_count(st, s) > 0:
            return True
    return False
