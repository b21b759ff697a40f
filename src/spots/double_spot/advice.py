"""Hints for the player to move: the legal drops ranked by the mcts bot, each with what it does at once.

Why both: the search's win estimate says which drop is best, and the facts (cards
taken, the opponent's chance to finish a card on their next roll) say why, in
terms a player can check on the board. Deterministic under ``seed``.
"""

from __future__ import annotations

from ..core.advice import Advice
from .bots import finish_chance, finishing_drops, mcts
from .state import State

__all__ = ["HINT_ITERATIONS", "Advice", "advise", "facts"]

HINT_ITERATIONS = 1500


def facts(state: State, move: str) -> tuple[tuple[str, ...], float | None, float | None]:
    """What ``move`` does at once: cards taken, the end result if it ends the game, the opponent's finish chance."""
    seat = state.seat
    after = state.clone()
    after.apply_trusted(move)
    takes = tuple(after.won[seat][len(state.won[seat]):])
    if after.is_terminal():
        return takes, after.returns()[seat], None
    if takes:
        return takes, None, None  # the replacement cards are not known yet
    return takes, None, finish_chance(after.supply, after.seat, finishing_drops(after))


def advise(state: State, seed: int = 0, iterations: int = HINT_ITERATIONS) -> list[Advice]:
    """The legal drops, best first; empty when no player is to move.

    ``value`` is the search's win estimate for the mover (a draw counts one half); ``takes`` the cards the
    drop takes at once; ``result`` the mover's result when the drop ends the game; ``risk`` the opponent's
    chance to finish a card on their next roll (None when new cards come).
    """
    if state.is_terminal() or state.is_chance_node():
        return []
    ranked = mcts(seed=seed, iterations=iterations).analyse(state.clone())
    out = []
    for move, _visits, value in ranked:
        takes, result, risk = facts(state, move)
        out.append(Advice(move, result if result is not None else value, takes=takes, result=result, risk=risk))
    return out
