"""Undo that never cheats: which of the latest moves a player may take back (Board Game Arena's policy).

Why a rule of its own: taking a move back must never let a player see a die, a card or a
choice of someone else and then choose again. So a player may take back only their own
decisions, made in their current turn, since the last chance event (a roll, a reroll, a
reveal, a draw, a deal): never that event, never anything before it, never another player's
move. Everything else (which moves are chance, whose move each was, when a turn ends) the
game's engine already says, so the rule is the same for every game and needs no game's words.

It reads a game's history as ``Step``s (who chose each move, in which turn), replayed from the
record (``steps``) or kept up to date move by move (``follow``, for a live table), and answers
with a ``Takeback``. ``take_back`` gives the position without the undone moves: the history
replayed without them, so an undone move leaves the record as if it was never played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import RulesError
from .protocol import CHANCE

__all__ = ["REASONS", "Step", "Takeback", "UndoRefused", "follow", "rule", "steps", "take_back", "takeback"]

# Why no (more) move can be taken back: the reason codes a Takeback gives, with what each means.
REASONS = {
    "over": "the game is over",
    "chance": "the last roll or reveal cannot be taken back, nor anything before it",
    "other": "the move before is another player's",
    "turn": "your turn started there",
    "start": "nothing has been played yet",
    "waiting": "a chance event is about to be drawn",
}


@dataclass(frozen=True)
class Step:
    """One move of a game's history as the rule reads it."""

    seat: int  # who chose it: a seat, or CHANCE for a chance event
    turn: int  # the game's turn counter when it was chosen
    move: str


@dataclass(frozen=True)
class Takeback:
    """What may be taken back now: ``seat``'s latest ``moves`` (oldest first), and why no earlier one."""

    seat: int | None  # the player to move, who alone may take back (None: nobody, see ``why``)
    moves: tuple[str, ...]
    why: str  # a code of REASONS: what stops the undo after ``moves``

    @property
    def count(self) -> int:
        return len(self.moves)

    def allows(self, seat: int | None) -> bool:
        """May ``seat`` take back a move now?"""
        return seat is not None and seat == self.seat and bool(self.moves)


class UndoRefused(RulesError):
    """An undo the rule does not allow; ``takeback`` says what is allowed (the position is unchanged)."""

    def __init__(self, seat: int | None, takeback: Takeback) -> None:
        self.seat, self.takeback = seat, takeback
        if takeback.seat is None:
            why = REASONS[takeback.why]
        elif seat != takeback.seat:
            why = f"only seat {takeback.seat}, the player to move, may take back their own moves"
        elif takeback.moves:
            why = f"only your last {takeback.count} moves can be taken back: {REASONS[takeback.why]}"
        else:
            why = f"nothing of yours to take back: {REASONS[takeback.why]}"
        super().__init__(f"cannot undo: {why}")


def _step(before: Any, move: str, turn: Callable[[Any], int]) -> Step:
    """The step ``move`` is, played at ``before`` (a chance node's move is chance, whoever played it)."""
    return Step(CHANCE if before.is_chance_node() else before.current_player(), turn(before), move)


def follow(tail: Sequence[Step], before: Any, moves: Sequence[str], turn: Callable[[Any], int]) -> list[Step]:
    """The steps since the last chance event after ``moves`` are played at ``before`` (which is not changed).

    A live table keeps only this tail, so each move costs the rule one step, however long the game.
    """
    kept = list(tail)
    state = before.clone() if len(moves) > 1 else before  # the last move is never played here: it is not needed
    for i, move in enumerate(moves):
        step = _step(state, move, turn)
        kept = [] if step.seat == CHANCE else [*kept, step]
        if i < len(moves) - 1:
            state.apply_action(move)
    return kept


def steps(new_state: Callable[[], Any], history: Sequence[str], turn: Callable[[Any], int]) -> list[Step]:
    """The steps since the last chance event of ``history``, replayed from ``new_state()``."""
    return follow([], new_state(), history, turn)


def rule(tail: Sequence[Step], state: Any, turn: Callable[[Any], int]) -> Takeback:
    """The rule itself: the player to move may take back their own trailing decisions of this turn since the
    last chance event (``tail``: the steps since that event, as ``follow`` keeps them)."""
    if state.is_terminal():
        return Takeback(None, (), "over")
    if state.is_chance_node():
        return Takeback(None, (), "waiting")
    mover, now = state.current_player(), turn(state)
    moves: list[str] = []
    why = "chance" if len(tail) < len(state.history()) else "start"
    for step in reversed(tail):
        if step.seat != mover:
            why = "other"
            break
        if step.turn != now:
            why = "turn"
            break
        moves.append(step.move)
    return Takeback(mover, tuple(reversed(moves)), why)


def takeback(new_state: Callable[[], Any], state: Any, turn: Callable[[Any], int]) -> Takeback:
    """What may be taken back at ``state`` (its history replayed from ``new_state()``)."""
    return rule(steps(new_state, state.history(), turn), state, turn)


def take_back(new_state: Callable[[], Any], state: Any, seat: int | None, turn: Callable[[Any], int],
              count: int = 1, tail: Sequence[Step] | None = None) -> Any:
    """The position without ``seat``'s last ``count`` moves: the history replayed without them.

    Raises ``UndoRefused`` (``state`` is unchanged) when the rule does not allow that many.
    """
    offer = rule(steps(new_state, state.history(), turn) if tail is None else tail, state, turn)
    if not offer.allows(seat) or not 1 <= count <= offer.count:
        raise UndoRefused(seat, offer)
    replayed = new_state()
    for move in state.history()[:-count]:
        replayed.apply_action(move)
    return replayed
