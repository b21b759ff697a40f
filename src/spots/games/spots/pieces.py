"""The pieces a Spots position is made of: dogs, players' tables, tiles, the roll in hand, a trick's working values.

Each piece knows how to copy itself and how to write itself as plain data (the JSON of
``docs/state.md``); the state (``state.py``) is a list of these pieces, declared once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any, NamedTuple

from ...core.document import whole
from .errors import StateFormatError

if TYPE_CHECKING:
    from .rules import Rules
    from .tasks import Task


_tuple_new: Any = tuple.__new__  # builds a NamedTuple without its Python-level __new__


class Dog(NamedTuple):
    """A dog in a player's pack: the card's spaces, the faces with a die on them."""

    name: str
    spaces: tuple[int, ...]
    filled: tuple[int, ...] = ()
    scored: bool = False

    @property
    def complete(self) -> bool:
        return len(self.filled) == len(self.spaces)

    def empty_spaces(self) -> tuple[int, ...]:
        return tuple(v for v in self.spaces if v not in self.filled)

    def refilled(self, filled: tuple[int, ...], scored: bool | None = None) -> Dog:
        """The same dog with other dice on it (and scored or not); cheaper than ``_replace``."""
        return _tuple_new(Dog, (self.name, self.spaces, filled, self.scored if scored is None else scored))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "filled": list(self.filled), "scored": self.scored}

    @classmethod
    def from_dict(cls, doc: dict[str, Any], rules: Rules) -> Dog:
        card = rules.cards[doc["name"]]
        filled = tuple(sorted(int(v) for v in doc["filled"]))
        if not set(filled) <= set(card.spaces) or len(set(filled)) != len(filled):
            raise StateFormatError(f"dog {doc['name']} has dice {list(filled)} on spaces it lacks")
        return cls(card.name, card.spaces, filled, bool(doc["scored"]))


@dataclass(slots=True)
class Player:
    """One seat's table: its pack of dogs, its yard of buried dice, its treats."""

    dogs: list[Dog] = field(default_factory=list)
    yard: list[int] = field(default_factory=list)
    treats: int = 0

    def copy(self) -> Player:
        return Player(list(self.dogs), list(self.yard), self.treats)

    def unscored(self) -> list[Dog]:
        return [d for d in self.dogs if not d.scored]

    def scored_count(self) -> int:
        return sum(1 for d in self.dogs if d.scored)

    def yard_total(self) -> int:
        return sum(self.yard)

    def dice_on_dogs(self) -> int:
        return sum([len(d.filled) for d in self.dogs])

    def open_spaces(self) -> Counter[int]:
        """Empty spaces of unscored dogs, by face: where dice fit."""
        return Counter(v for dog in self.dogs if not dog.scored for v in dog.spaces if v not in dog.filled)

    def dog_index(self, name: str) -> int:
        for i, d in enumerate(self.dogs):
            if d.name == name:
                return i
        raise AssertionError(f"no dog {name}")  # moves are checked before they get here

    def take_from_dog(self, name: str, value: int) -> None:
        i = self.dog_index(name)
        dog = self.dogs[i]
        self.dogs[i] = dog.refilled(tuple(f for f in dog.filled if f != value))

    def put_on_dog(self, name: str, value: int) -> None:
        dogs = self.dogs
        for i, dog in enumerate(dogs):  # dog_index and refilled, inlined: a die is placed at most rolls
            if dog.name == name:
                dogs[i] = _tuple_new(Dog, (name, dog.spaces, tuple(sorted((*dog.filled, value))), dog.scored))
                return
        raise AssertionError(f"no dog {name}")  # moves are checked before they get here

    def key(self) -> tuple[Any, ...]:
        return tuple(self.dogs), tuple(sorted(self.yard)), self.treats

    def to_dict(self) -> dict[str, Any]:
        return {"dogs": [d.to_dict() for d in self.dogs], "yard": list(self.yard), "treats": self.treats}

    @classmethod
    def from_dict(cls, doc: dict[str, Any], rules: Rules) -> Player:
        dogs = [Dog.from_dict(d, rules) for d in doc["dogs"]]
        yard = [int(v) for v in doc["yard"]]
        if any(not 1 <= v <= 6 for v in yard):
            raise StateFormatError(f"a yard holds a die that is not 1-6: {yard}")
        return cls(dogs, yard, whole(doc["treats"], "treats"))


class Tile(NamedTuple):
    """A trick tile on the table: face up or not, and the treats lying on it."""

    name: str
    face_up: bool = True
    treats: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "face_up": self.face_up, "treats": self.treats}

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> Tile:
        return cls(doc["name"], bool(doc["face_up"]), whole(doc["treats"], "tile treats"))


@dataclass(slots=True)
class Roll:
    """The dice of the most recent roll that are still in the roller's hand.

    size: how many dice the roll had (a reroll rolls them all again).
    mode: the tile's keep rule (``fetch``, ``guard``, ...; see ``keep.py``), or None.
    choosing: the keep rule still to apply now (``nothing`` when nothing can be
        kept and only ``reroll``/``stop`` remain), or None once dice are chosen.
    fresh: no die of the roll has been placed, buried or chosen yet.
    partial: a treat may reroll only some of the dice (Track).
    bonus: ``play-dead``: burying the die without busting pays its spots.
    held: dice kept aside while Track rerolls the others.
    """

    size: int
    dice: list[int] = field(default_factory=list)
    mode: str | None = None
    choosing: str | None = None
    fresh: bool = True
    partial: bool = False
    bonus: str | None = None
    held: list[int] = field(default_factory=list)

    def copy(self) -> Roll:
        return Roll(self.size, list(self.dice), self.mode, self.choosing, self.fresh,
                    self.partial, self.bonus, list(self.held))

    def key(self) -> tuple[Any, ...]:
        return tuple(self.dice), self.size, self.mode, self.choosing, self.fresh, tuple(self.held)

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size, "dice": list(self.dice), "mode": self.mode, "choosing": self.choosing,
                "fresh": self.fresh, "partial": self.partial, "bonus": self.bonus, "held": list(self.held)}

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> Roll:
        return cls(int(doc["size"]), [int(v) for v in doc["dice"]], doc["mode"], doc["choosing"],
                   bool(doc["fresh"]), bool(doc["partial"]), doc["bonus"], [int(v) for v in doc["held"]])


@dataclass(slots=True)
class Trick:
    """The working values of the trick in progress. The end of a turn drops the whole object.

    step: index of the tile's current step; rolls_in_step: rolls made in it (Chase grows).
    set_aside: Bolt's dice not yet rolled; taken: Dogpile's extra die waits in the supply.
    guard: Guard's named number; digs_left: Dig's adjustments left.
    offer: the task ``continue`` runs (a tile's roll or Bolt's next die), or None.
    """

    name: str
    step: int = 0
    rolls_in_step: int = 0
    set_aside: int = 0
    taken: bool = False
    guard: int | None = None
    digs_left: int = 0
    offer: Task | None = None

    def copy(self) -> Trick:
        return Trick(self.name, self.step, self.rolls_in_step, self.set_aside, self.taken, self.guard,
                     self.digs_left, self.offer)

    def key(self) -> tuple[Any, ...]:
        return (self.name, self.step, self.rolls_in_step, self.set_aside, self.taken, self.guard,
                self.digs_left, self.offer)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "step": self.step, "rolls_in_step": self.rolls_in_step,
                "set_aside": self.set_aside, "taken": self.taken, "guard": self.guard,
                "digs_left": self.digs_left, "offer": [] if self.offer is None else self.offer.to_list()}

    @classmethod
    def from_dict(cls, doc: dict[str, Any], rules: Rules) -> Trick:
        from .tasks import Task  # the tasks module imports this one

        name = doc.get("name")
        if name not in rules.tricks:
            raise StateFormatError(f"the trick in progress {name!r} is not in play")
        offer = doc.get("offer", [])
        return cls(str(name), whole(doc.get("step", 0), "trick.step"),
                   whole(doc.get("rolls_in_step", 0), "trick.rolls_in_step"),
                   whole(doc.get("set_aside", 0), "trick.set_aside"), bool(doc.get("taken", False)),
                   doc.get("guard"), whole(doc.get("digs_left", 0), "trick.digs_left"),
                   Task.from_list(offer) if offer else None)


@lru_cache(maxsize=4096)
def _sub_multisets(dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    counts = sorted(Counter(dice).items())
    out = []
    for picks in product(*(range(c + 1) for _, c in counts)):
        out.append(tuple(v for (v, _), n in zip(counts, picks, strict=True) for _ in range(n)))
    out.sort(key=lambda s: (len(s), s))
    return tuple(out)


def sub_multisets(dice: list[int] | tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset of some dice, as ascending tuples, smallest first."""
    return list(_sub_multisets(tuple(sorted(dice))))


def remove_dice(dice: list[int], taken: tuple[int, ...] | list[int]) -> list[int]:
    """The dice left when ``taken`` (a sub-multiset) is removed."""
    rest = list(dice)
    for v in taken:
        rest.remove(v)
    return rest
