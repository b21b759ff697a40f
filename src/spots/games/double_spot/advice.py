"""Hints for the player to move: every legal drop ranked by the expectimax bot's two-ply judgement, with its chances.

Why these figures: both players build the same two patterns, so a drop is good
or bad by what it hands over. For each drop the hint says what a player can
check on the board: the cards it takes now, the opponent's chance to finish a
card on their roll, and the mover's chance to finish one on the roll after
(the opponent replying as carefully as they can). The ranking is the bot's
(``spots.games.double_spot.expectimax``): exact over the die, no sampling, so drops
of equal value get the same rank and the same score, and a hint is the same
every time it is asked for.
"""

from __future__ import annotations

from ...core.advice import Advice
from .expectimax import WIN, ExpectimaxBot
from .state import State

__all__ = ["Advice", "advise", "score"]


def score(swing: float, result: float | None) -> float:
    """The swing as a score in [0, 1]: 0.5 is even, a sure card for the mover is 1 (an end scores its result)."""
    if result is not None:
        return result
    if swing >= WIN / 2:
        return 1.0
    if swing <= -WIN / 2:
        return 0.0
    return min(1.0, max(0.0, 0.5 + swing / 2))


def advise(state: State, seed: int = 0) -> list[Advice]:
    """The legal drops, best first (ties in the engine's move order); empty when no player is to move.

    ``seed`` is accepted for the callers of the earlier sampling advisor; the figures are exact and need none.
    """
    if state.is_terminal() or state.is_chance_node():
        return []
    seat = state.seat
    judged = ExpectimaxBot(seed).judge(state)
    order = sorted(range(len(judged)), key=lambda i: -judged[i].value)
    out: list[Advice] = []
    rank, best = 0, None
    for place, i in enumerate(order, 1):
        j = judged[i]
        if best is None or j.value < best - 1e-9:
            rank, best = place, j.value
        takes: tuple[str, ...] = ()
        if j.takes:
            after = state.clone()
            after.apply_trusted(j.move)
            takes = tuple(after.won[seat][len(state.won[seat]):len(state.won[seat]) + j.takes])
        ends = j.ends is not None
        settled = ends or bool(j.takes)  # the game is over, or new cards come: no chances to give
        out.append(Advice(
            j.move, score(j.value, j.ends), takes=takes, result=j.ends, risk=None if settled else j.gives,
            rank=rank, next=None if settled else j.next, swing=j.value,
        ))
    return out
