"""Resolving a roll (rules sections 3 and 5): keep choices, placing and burying dice, rerolls for a treat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .dice import faces_text
from .keep import KEEP_RULES, NOTHING
from .pieces import remove_dice, sub_multisets
from .tasks import Decision
from .turns import bust, gain_treats

if TYPE_CHECKING:
    from .notation import Move
    from .state import State


def on_roll(state: State, faces: list[int]) -> None:
    """The dice of the roll in hand land: apply the keep rule, then ask how to resolve them."""
    roll = state.roll
    assert roll is not None
    if roll.held:
        roll.dice = sorted(roll.held + faces)
        roll.held = []
    else:
        roll.dice = faces
    roll.fresh = True
    if roll.mode is None:
        roll.choosing = None
    else:
        guard = state.work.guard if state.work is not None else None
        yard_total = sum(state.players[state.seat].yard)
        state.dice_supply += KEEP_RULES[roll.mode].land(roll, guard or 0, yard_total)
    if roll.choosing == NOTHING and state.players[state.seat].treats == 0:
        end_roll(state)
        return
    state.phase = ROLL.phase


def end_roll(state: State) -> None:
    """The roll is over: dice not placed or buried go back to the supply."""
    if state.roll is not None:
        state.dice_supply += len(state.roll.dice)
    state.roll = None


class RollDecision(Decision):
    """The dice in hand: reroll them for a treat, make the keep choice, or place and bury them one by one."""

    phase = "roll"

    def moves(self, state: State) -> list[str]:
        roll = state.roll
        assert roll is not None
        player = state.players[state.seat]
        moves = []
        dice = roll.dice
        if roll.fresh and player.treats > 0:
            if roll.partial:
                moves += ["reroll " + faces_text(s) for s in sub_multisets(dice) if s]
            else:
                moves.append("reroll")
        choosing = roll.choosing
        if choosing is None:
            dogs = player.dogs
            for v in (dice if len(dice) == 1 else sorted(set(dice))):
                place = PLACE[v]
                for d in dogs:  # a plain loop: the commonest move list, built once per roll
                    if v in d.spaces and v not in d.filled and not d.scored:
                        moves.append(place + d.name)
                moves.append(BURY[v])
        elif choosing == NOTHING:
            moves.append("stop")
        else:
            moves += KEEP_RULES[choosing].moves(dice, player.yard_total())
        return moves

    def apply(self, state: State, move: Move) -> None:
        roll = state.roll
        assert roll is not None
        kind = move.kind
        if kind == "reroll":
            self.reroll(state, move)
            return
        if kind == "place" or kind == "bury":
            value: int = move.args[0]  # type: ignore[assignment]  # parse() gives dice as ints, names as str
            roll.dice.remove(value)
            roll.fresh = False
            player = state.players[state.seat]
            if kind == "place":
                player.put_on_dog(move.args[1], value)  # type: ignore[arg-type]
            else:
                player.yard.append(value)
                if sum(player.yard) > state.rules.bust_limit:
                    bust(state, state.seat)
                    return
                if roll.bonus == "play-dead":
                    gain_treats(state, value)
        else:  # a keep choice: choose, pick, discard, or stop when nothing can be kept
            values = tuple(int(v) for v in move.args)
            kept = [] if kind == "stop" else KEEP_RULES[roll.choosing].kept(roll.dice, values)  # type: ignore[index]
            state.dice_supply += len(roll.dice) - len(kept)
            roll.dice = kept
            roll.choosing = None
            roll.fresh = False
        if not roll.dice:
            end_roll(state)
        else:
            state.phase = self.phase

    def reroll(self, state: State, move: Move) -> None:
        """Spend a treat to roll the dice again (Track: only the dice named)."""
        roll = state.roll
        assert roll is not None
        player = state.players[state.seat]
        player.treats -= 1
        state.treat_supply += 1
        again = [int(v) for v in move.args] or list(roll.dice)
        if roll.partial:
            roll.held = remove_dice(roll.dice, again)
            size = len(again)
        else:
            size = roll.size
        # The rerolled dice go back to the supply and are rolled again from it.
        state.dice_supply += len(again) if roll.partial else len(roll.dice)
        state.dice_supply -= size
        roll.dice = []
        state.ask_roll(size, ("roll",))


ROLL = RollDecision()
PLACE = {v: f"place {v} " for v in range(1, 7)}
BURY = {v: f"bury {v}" for v in range(1, 7)}
