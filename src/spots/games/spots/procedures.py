"""The tile procedures that are not plain rolls: Trot, Dig, Retrieve, Bolt, Guard and Dogpile.

Each is one object: how its step begins, the moves of its decision and what a move does
(and, for Bolt and Dig, the tasks that repeat it). The step table of ``tricks.py`` names
them by their step kind; Dogpile's extra die belongs to a roll step (``source="dogpile"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .pieces import Roll
from .tasks import Decision, Task
from .turns import FAST, bust

if TYPE_CHECKING:
    from .notation import Move
    from .state import State


class Procedure(Decision):
    """A tile step that asks a decision of its own; ``begin`` starts it when the step comes up."""

    kind: ClassVar[str]

    def begin(self, state: State) -> None:
        state.phase = self.phase


class Trot(Procedure):
    """You may move 1 die from a space on one of your dogs to an empty space on any of your dogs."""

    kind = phase = "trot"

    def begin(self, state: State) -> None:
        if self.shifts(state):
            state.phase = self.phase

    def shifts(self, state: State) -> list[str]:
        dogs = state.players[state.seat].unscored()
        targets = [(d.name, v) for d in dogs for v in d.empty_spaces()]
        return [f"move {src.name} {v} {dst} {w}" for src in dogs for v in src.filled for dst, w in targets]

    def moves(self, state: State) -> list[str]:
        return [*self.shifts(state), "stop"]

    def apply(self, state: State, move: Move) -> None:
        if move.kind == "stop":
            return
        src, v, dst, w = move.args
        player = state.players[state.seat]
        player.take_from_dog(str(src), int(v))
        player.put_on_dog(str(dst), int(w))


class DigTask(Task):
    """Ask for the next adjustment while any are left."""

    name = "dig"

    def run(self, state: State) -> None:
        assert state.work is not None
        if state.work.digs_left > 0 and DIG.adjustments(state):
            state.phase = DIG.phase


class Dig(Procedure):
    """For each paw, raise or lower any player's buried die by 1 (lowering a 1 returns it)."""

    kind = phase = "dig"

    def begin(self, state: State) -> None:
        assert state.work is not None
        state.work.digs_left = state.paws(state.seat)
        state.push(DIG_TASK)

    def adjustments(self, state: State) -> list[str]:
        moves = []
        for s, p in enumerate(state.players):
            for v in sorted(set(p.yard)):
                if v < 6:
                    moves.append(f"dig {s} {v} up")
                moves.append(f"dig {s} {v} down")
        return moves

    def moves(self, state: State) -> list[str]:
        return [*self.adjustments(state), "stop"]

    def apply(self, state: State, move: Move) -> None:
        work = state.work
        assert work is not None
        if move.kind == "stop":
            work.digs_left = 0
            return
        work.digs_left -= 1
        seat, value, way = int(move.args[0]), int(move.args[1]), move.args[2]
        yard = state.players[seat].yard
        i = yard.index(value)
        if way == "up":
            yard[i] = value + 1
        elif value == 1:
            del yard[i]
            state.dice_supply += 1
        else:
            yard[i] = value - 1
        state.push(DIG_TASK)
        if sum(yard) > state.rules.bust_limit:
            bust(state, seat)


class Retrieve(Procedure):
    """Take 1 die from the supply, set it to a number on the deck's top card, place or bury it."""

    kind = phase = "retrieve"

    def begin(self, state: State) -> None:
        if state.deck_top is not None and state.dice_supply > 0:
            state.dice_supply -= 1
            state.phase = self.phase

    def moves(self, state: State) -> list[str]:
        assert state.deck_top is not None
        return [CHOOSE[v] for v in state.rules.cards[state.deck_top].spaces]

    def apply(self, state: State, move: Move) -> None:
        state.roll = Roll(1, dice=[int(move.args[0])], fresh=False)
        state.push(FAST)
        state.phase = "roll"


class BoltRoll(Task):
    """Roll the next set-aside die."""

    name = "bolt-roll"

    def run(self, state: State) -> None:
        assert state.work is not None
        state.work.set_aside -= 1
        state.push(FAST, BOLT_NEXT)
        state.roll = Roll(1)
        state.ask_roll(1, ("roll",))

    def declined(self, state: State) -> None:
        """Stopping early returns the dice still set aside."""
        assert state.work is not None
        state.dice_supply += state.work.set_aside
        state.work.set_aside = 0


class BoltNext(Task):
    """After a die: stop only while paws are at least the dice not yet rolled; else roll on."""

    name = "bolt-next"

    def run(self, state: State) -> None:
        work = state.work
        assert work is not None
        if work.set_aside == 0:
            return
        if state.paws(state.seat) >= work.set_aside:
            state.phase = "continue"
            work.offer = BOLT_ROLL
        else:
            state.push(BOLT_ROLL)


class Bolt(Procedure):
    """Set aside 3 to 12 dice and roll them one at a time."""

    kind = phase = "bolt"

    def begin(self, state: State) -> None:
        work = state.work
        assert work is not None
        if state.dice_supply >= 3:
            state.phase = self.phase
        else:
            work.set_aside, state.dice_supply = state.dice_supply, 0
            if work.set_aside:
                state.push(BOLT_ROLL)

    def moves(self, state: State) -> list[str]:
        return [f"set-aside {n}" for n in range(3, min(12, state.dice_supply) + 1)]

    def apply(self, state: State, move: Move) -> None:
        assert state.work is not None
        state.work.set_aside = int(move.args[0])
        state.dice_supply -= state.work.set_aside
        state.push(BOLT_ROLL)


class GuardNumber(Procedure):
    """Name a number from 1 to 6 before Guard's roll (the keep rule ``keep.Guard`` applies it)."""

    kind = phase = "guard"

    def moves(self, state: State) -> list[str]:
        return [CHOOSE[v] for v in range(1, 7)]

    def apply(self, state: State, move: Move) -> None:
        assert state.work is not None
        state.work.guard = int(move.args[0])


class Dogpile(Decision):
    """Before each Dogpile roll, take 1 die from your yard or one of your dogs to roll with 2 from the supply."""

    phase = "take"

    def has_die_to_take(self, state: State) -> bool:
        player = state.players[state.seat]
        return bool(player.yard) or any(d.filled for d in player.unscored())

    def roll_size(self, state: State, wanted: int, planning: bool) -> int:
        """The roll's dice: ``wanted`` from the supply (as far as it goes) plus the taken die."""
        work = state.work
        taken = work is not None and work.taken
        extra = self.has_die_to_take(state) if planning else taken
        return min(wanted, state.dice_supply - (0 if planning else int(taken))) + int(extra)

    def moves(self, state: State) -> list[str]:
        player = state.players[state.seat]
        moves = [f"take yard {v}" for v in sorted(set(player.yard))]
        moves += [f"take {d.name} {v}" for d in player.unscored() for v in d.filled]
        return moves

    def apply(self, state: State, move: Move) -> None:
        where, value = str(move.args[0]), int(move.args[1])
        player = state.players[state.seat]
        if where == "yard":
            player.yard.remove(value)
        else:
            player.take_from_dog(where, value)
        state.dice_supply += 1
        assert state.work is not None
        state.work.taken = True


CHOOSE = {v: f"choose {v}" for v in range(1, 7)}
DIG_TASK, BOLT_ROLL, BOLT_NEXT = DigTask(), BoltRoll(), BoltNext()
TROT, DIG, RETRIEVE, BOLT, GUARD, DOGPILE = Trot(), Dig(), Retrieve(), Bolt(), GuardNumber(), Dogpile()
PROCEDURES: dict[str, Procedure] = {p.kind: p for p in (TROT, DIG, RETRIEVE, BOLT, GUARD)}
"""The procedure of each non-roll step kind in the tile table."""
