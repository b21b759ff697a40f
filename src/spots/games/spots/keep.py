"""The blue tiles' keep rules: which dice of a roll the roller keeps, each rule one object.

A keep rule says what happens when its roll lands (Guard returns the dice above the named
number at once), which choices the roller has (``choose 5``, ``pick 2 6``, ``discard 1``)
and which dice each choice keeps, and, for the odds, whether a roll busts the roller
however well the choice is made. The engine (``rolling.py``), the advisor, the greedy bot
and the RL encoding all read the rules from ``KEEP_RULES``.
"""

from __future__ import annotations

from itertools import combinations
from typing import ClassVar, Protocol

from .dice import faces_text
from .pieces import Roll, remove_dice, sub_multisets

NOTHING = "nothing"
"""``Roll.choosing`` when nothing can be kept: only ``reroll`` (a treat) or ``stop`` remain."""


class Odds(Protocol):
    """What a keep rule needs to price a roll: the roller's yard total and whether dice bust it."""

    @property
    def yard(self) -> int: ...

    def busts(self, faces: tuple[int, ...]) -> bool: ...


CHOOSE = {v: f"choose {v}" for v in range(1, 7)}
Choice = tuple[str, tuple[int, ...]]
"""A keep choice: its move in the notation and the dice it keeps."""


class KeepRule:
    """A blue tile's rule for keeping dice. ``name`` is the word in the tile table and saved states."""

    name: ClassVar[str]
    chooses: ClassVar[bool] = True  # the roller makes a choice after the roll lands

    def land(self, roll: Roll, guard: int, yard_total: int) -> int:
        """Set ``roll.choosing`` for dice that just landed; return how many dice go back to the supply."""
        roll.choosing = self.name
        return 0

    def choices(self, dice: list[int], yard_total: int) -> list[Choice]:
        """Every legal keep choice for these dice, in the order the engine lists moves."""
        raise NotImplementedError

    def moves(self, dice: list[int], yard_total: int) -> list[str]:
        """The choices' moves alone (the engine's legal moves need no kept dice)."""
        return [text for text, _ in self.choices(dice, yard_total)]

    def kept(self, dice: list[int], values: tuple[int, ...]) -> list[int]:
        """The dice a choice with these values keeps (the move was checked legal)."""
        return list(values)

    def busts(self, odds: Odds, faces: tuple[int, ...]) -> bool:
        """Whether a roll showing ``faces`` busts the roller whichever legal choice it makes."""
        return all(odds.busts(kept) for _, kept in self.choices(list(faces), odds.yard))


class Fetch(KeepRule):
    """Choose one number that was rolled; keep every die showing it."""

    name = "fetch"

    def choices(self, dice: list[int], yard_total: int) -> list[Choice]:
        return [(f"choose {v}", (v,) * dice.count(v)) for v in sorted(set(dice))]

    def moves(self, dice: list[int], yard_total: int) -> list[str]:
        return [CHOOSE[v] for v in sorted(set(dice))]  # the same order as choices(), text made once

    def kept(self, dice: list[int], values: tuple[int, ...]) -> list[int]:
        return [v for v in dice if v == values[0]]


class Guard(KeepRule):
    """Dice above the number named before the roll return to the supply as they land; keep the rest."""

    name = "guard"
    chooses = False

    def land(self, roll: Roll, guard: int, yard_total: int) -> int:
        kept = self.kept(roll.dice, (guard,))
        returned = len(roll.dice) - len(kept)
        roll.dice = kept
        roll.choosing = None if kept else NOTHING
        return returned

    def choices(self, dice: list[int], yard_total: int) -> list[Choice]:
        return []

    def kept(self, dice: list[int], values: tuple[int, ...]) -> list[int]:
        return [v for v in dice if v <= values[0]]

    def busts_named(self, odds: Odds, faces: tuple[int, ...], number: int) -> bool:
        """Whether a roll busts the roller once ``number`` has been named (every kept die must be played)."""
        return odds.busts(tuple(self.kept(list(faces), (number,))))


class Hunt(KeepRule):
    """Choose 2 of the dice (all of them if 2 or fewer were rolled)."""

    name = "hunt"

    def choices(self, dice: list[int], yard_total: int) -> list[Choice]:
        picks = [tuple(dice)] if len(dice) <= 2 else sorted(set(combinations(dice, 2)))
        return [("pick " + faces_text(p), p) for p in picks]


class Scavenge(KeepRule):
    """Return any dice whose number is lower than the yard total; keep the others."""

    name = "scavenge"

    def land(self, roll: Roll, guard: int, yard_total: int) -> int:
        roll.choosing = self.name if any(v < yard_total for v in roll.dice) else None
        return 0

    def choices(self, dice: list[int], yard_total: int) -> list[Choice]:
        out = []
        for s in sub_multisets([v for v in dice if v < yard_total]):
            out.append((("discard " + faces_text(s)) if s else "discard", tuple(remove_dice(dice, s))))
        return out

    def kept(self, dice: list[int], values: tuple[int, ...]) -> list[int]:
        return remove_dice(dice, values)


class Search(KeepRule):
    """Choose a set of dice adding up to exactly 8; with none, every die returns."""

    name = "search"

    def land(self, roll: Roll, guard: int, yard_total: int) -> int:
        roll.choosing = self.name if any(sum(s) == 8 for s in sub_multisets(roll.dice)) else NOTHING
        return 0

    def choices(self, dice: list[int], yard_total: int) -> list[Choice]:
        return [("pick " + faces_text(s), s) for s in sub_multisets(dice) if sum(s) == 8]

    def busts(self, odds: Odds, faces: tuple[int, ...]) -> bool:
        sets = self.choices(list(faces), odds.yard)
        return bool(sets) and all(odds.busts(kept) for _, kept in sets)


GUARD = Guard()
KEEP_RULES: dict[str, KeepRule] = {rule.name: rule for rule in (Fetch(), GUARD, Hunt(), Scavenge(), Search())}
"""Every keep rule by name, in the order the RL encoding lists them."""
