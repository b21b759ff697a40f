"""Choosing a trick and carrying out its steps (rules sections 4-6): rolls, treat formulas, procedures.

A tile is a list of steps (``tricks.py``). Choosing a trick pushes one ``StepTask`` per step;
each decides what its step needs: a roll (asked first when optional), a draw, treats, or
one of the tile procedures of ``procedures.py``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .pieces import Roll, Tile, Trick
from .procedures import DOGPILE, PROCEDURES
from .tasks import OVER, Decision, Task
from .tricks import TILES, TREAT_FORMULAS, Step
from .turns import END_TURN, FAST, Draw, gain_treats, score

if TYPE_CHECKING:
    from .notation import Move
    from .state import State


def current_step(state: State, index: int) -> Step:
    assert state.work is not None
    return TILES[state.work.name].steps[index]


def roll_size(state: State, step: Step, planning: bool = False) -> int:
    """Dice the next roll of this step would have, given the supply (Chase grows, Dogpile adds one).

    ``planning``: asked before a Dogpile roll, when the extra die is not taken yet.
    """
    dice, source = step.dice, step.source
    if dice.__class__ is int and source == "supply":  # the common case, first
        grown = state.work.rolls_in_step if step.grow and state.work is not None else 0
        return min(dice + grown, state.dice_supply)
    player = state.players[state.seat]
    if source == "yard":
        return len(player.yard)
    work = state.work
    if step.dice == "sprint":
        wanted = sum(1 for d in player.dogs if not d.scored and not d.complete)
    elif step.dice == "hunt":
        wanted = 2 + state.paws(state.seat)
    else:
        wanted = int(step.dice) + (work.rolls_in_step if step.grow and work is not None else 0)
    if step.source == "dogpile":
        return DOGPILE.roll_size(state, wanted, planning)
    return min(wanted, state.dice_supply)


class StepTask(Task):
    """Begin step ``index`` of the trick in progress."""

    name, arity = "step", 1

    def run(self, state: State) -> None:
        index = self.args[0]
        work = state.work
        assert work is not None
        work.step = index
        work.rolls_in_step = 0
        step = TILES[work.name].steps[index]
        # A task pushed now would run next, so the step runs it at once.
        if step.kind == "roll":
            (offer_task(index) if step.optional else roll_task(index)).run(state)
        elif step.kind == "draw":
            Draw(1).run(state)
        elif step.kind == "treats":
            treat_step(state, step)
        else:
            PROCEDURES[step.kind].begin(state)


@lru_cache(maxsize=8)
def later_steps(count: int) -> tuple[Task, ...]:
    """What a tile with ``count`` steps leaves on the agenda after its first step: the others, then the turn's end."""
    return (END_TURN, *[StepTask(i) for i in reversed(range(1, count))])


def treat_step(state: State, step: Step) -> None:
    """A green tile's formula: take treats (capped by the supply), maybe give some back."""
    player = state.players[state.seat]
    empty = [v for d in player.dogs if not d.scored for v in d.spaces if v not in d.filled]
    down = [t for t in state.tiles if not t.face_up and t.name != "stay"]
    take, give_back = TREAT_FORMULAS[step.treats](  # type: ignore[index]
        player.treats, state.paws(state.seat), max(empty, default=0), len(down)
    )
    gain_treats(state, take)
    give_back = min(give_back, player.treats)
    player.treats -= give_back
    state.treat_supply += give_back


class OfferTask(Task):
    """An optional roll: ask ``continue`` or ``stop`` (if the roll would have any dice)."""

    name, arity = "offer", 1

    def run(self, state: State) -> None:
        index = self.args[0]
        if roll_size(state, current_step(state, index), planning=True) > 0:
            assert state.work is not None
            state.phase = "continue"
            state.work.offer = roll_task(index)


class RollTask(Task):
    """Roll the dice of step ``index`` (after Dogpile's extra die is taken)."""

    name, arity = "roll", 1

    def run(self, state: State) -> None:
        index = self.args[0]
        work = state.work
        assert work is not None
        step = TILES[work.name].steps[index]
        if step.source == "dogpile" and not work.taken and DOGPILE.has_die_to_take(state):
            state.push(self)
            state.phase = DOGPILE.phase
            return
        size = roll_size(state, step)
        work.taken = False
        if size == 0:
            return
        work.rolls_in_step += 1
        if step.repeat:
            state.agenda.append(offer_task(index))
        state.agenda.append(FAST)
        if step.source == "yard":
            player = state.players[state.seat]
            state.dice_supply += len(player.yard)
            player.yard = []
        state.dice_supply -= size
        state.roll = Roll(size, [], step.keep, None, True, step.partial_reroll, step.bonus, [])
        state.ask_roll(size, ("roll",))


@lru_cache(maxsize=8)
def offer_task(index: int) -> OfferTask:
    return OfferTask(index)


@lru_cache(maxsize=8)
def roll_task(index: int) -> RollTask:
    return RollTask(index)


class Continue(Decision):
    """Roll again (the offered roll, or Bolt's next die) or stop."""

    phase = "continue"

    def moves(self, state: State) -> list[str]:
        return CONTINUE_OR_STOP  # never changed: the state hands out copies

    def apply(self, state: State, move: Move) -> None:
        work = state.work
        assert work is not None and work.offer is not None
        offer, work.offer = work.offer, None
        if move.kind == "continue":
            offer.run(state)
        else:
            offer.declined(state)


class TurnChoice(Decision):
    """The start of a turn: do a face-up trick, or score the complete dogs."""

    phase = "turn"

    def moves(self, state: State) -> list[str]:
        moves = [TRICK_MOVES[t.name] for t in state.tiles if t.face_up]
        for d in state.players[state.seat].dogs:
            if not d.scored and len(d.filled) == len(d.spaces):
                moves.append("score")  # a complete dog
                break
        return moves

    def apply(self, state: State, move: Move) -> None:
        if move.kind == "score":
            scored = score(state)
            if state.phase != OVER:
                state.push(Draw(scored), END_TURN)
            return
        name: str = move.args[0]  # type: ignore[assignment]  # a trick's name (parse() keeps names as str)
        index = state.rules.tricks.index(name)
        tile = state.tiles[index]
        state.tiles[index] = FACE_DOWN[name]
        state.players[state.seat].treats += tile.treats
        state.work = Trick(name)
        state.agenda.extend(LATER_STEPS[name])
        FIRST_STEP.run(state)


CONTINUE_OR_STOP = ["continue", "stop"]
TRICK_MOVES = {name: "trick " + name for name in TILES}
FACE_DOWN = {name: Tile(name, False, 0) for name in TILES}  # a chosen tile: its treats go to the player
LATER_STEPS = {name: later_steps(len(tile.steps)) for name, tile in TILES.items()}


TURN, CONTINUE = TurnChoice(), Continue()
FIRST_STEP = StepTask(0)
