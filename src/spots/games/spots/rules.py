"""Rules options: every component count and variant, validated once."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ...core.options import whole as _whole
from .cards import DogCard, load_deck, parse_deck, slug
from .errors import RulesError
from .tricks import COLOURS, CORE, TILES, suggested_set

STANDARD_TARGETS = (1, 3, 6, 8, 10)
KEYED_DICE = ("off", "on")  # off: seeded dice as ever; on: the duplicate-dice variant




def resolve_tricks(tricks: Any, seed: int | None) -> tuple[str, ...]:
    """A trick option (set name, ``random``, ``random:N``, ``all`` or a list) as tile names."""
    if isinstance(tricks, str):
        spec = slug(tricks)
        if spec == "all":
            return tuple(TILES)
        if spec == "random" or spec.startswith("random:"):
            rng = random.Random(seed)
            if spec == "random":
                by_colour = [[t.name for t in TILES.values() if t.colour == c] for c in COLOURS]
                return CORE + tuple(rng.choice(group) for group in by_colour)
            count = spec.removeprefix("random:")
            if not count.isdigit() or not 2 <= int(count) <= len(TILES):
                raise RulesError(f"trick set {tricks!r}: N in random:N must be from 2 to {len(TILES)}")
            return tuple(rng.sample(list(TILES), int(count)))
        if "," in spec:
            return resolve_tricks(spec.split(","), seed)
        return suggested_set(spec)
    if not isinstance(tricks, (list, tuple)):
        raise RulesError(f"tricks must be a set name or a list of tile names, not {tricks!r}")
    names = tuple(slug(str(t)) for t in tricks)
    unknown = [n for n in names if n not in TILES]
    if unknown:
        raise RulesError(f"unknown trick tile(s) {', '.join(unknown)}; the tiles are: {', '.join(TILES)}")
    if len(set(names)) != len(names):
        raise RulesError(f"trick tiles must be distinct: {', '.join(names)}")
    if not 2 <= len(names) <= len(TILES):
        raise RulesError(f"a trick set needs 2 to {len(TILES)} tiles, not {len(names)}")
    return names


@dataclass(frozen=True)
class Rules:
    """The options a game is played with. Defaults are the standard game.

    ``tricks`` may be given as a suggested set name (``beginner``, ``dog-park``, ...),
    ``random`` (Howl, Roll Over and one random tile per colour), ``random:N``
    (N distinct tiles from all 22), ``all``, or a list of tile names; random
    choices use ``tricks_seed``. After construction it always holds the tile names.
    ``keyed_dice="on"``: the duplicate-dice variant (``keyed.py``): each die from a stream keyed by the
    deal, the player's own turn, the roll within it and the die, when the table draws from a ``KeyedDice``.
    ``deck`` is None for the shipped deck, a path to a deck JSON file, or a list of
    card dicts; after construction it holds the cards.
    """

    players: int = 2
    tricks: Any = "beginner"
    target: int = 6
    dog_limit: int | None = None
    bust_limit: int = 7
    dice: int = 40
    treats: int = 20
    starting_treats: int = 1
    starting_dogs: int = 2
    turn_limit: int = 1000
    deck: Any = None
    tricks_seed: int | None = None
    keyed_dice: str = "off"
    cards: dict[str, DogCard] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        _whole("players", self.players, 1, 4)
        _whole("target", self.target, 1)
        limit = max(6, self.target) if self.dog_limit is None else self.dog_limit
        _whole("dog_limit", limit, self.target)
        set_(self, "dog_limit", limit)
        _whole("bust_limit", self.bust_limit, 0)
        _whole("dice", self.dice, self.players)
        _whole("treats", self.treats, 0)
        _whole("starting_treats", self.starting_treats, 0)
        if self.starting_treats * self.players > self.treats:
            raise RulesError(
                f"starting_treats ({self.starting_treats}) for {self.players} players needs "
                f"{self.starting_treats * self.players} treats but the supply has {self.treats}"
            )
        _whole("starting_dogs", self.starting_dogs, 0, limit)
        _whole("turn_limit", self.turn_limit, 1)
        if self.tricks_seed is not None:
            _whole("tricks_seed", self.tricks_seed, 0)
        if self.keyed_dice not in KEYED_DICE:
            raise RulesError(f"keyed_dice must be one of {', '.join(KEYED_DICE)}, not {self.keyed_dice!r}")
        set_(self, "tricks", resolve_tricks(self.tricks, self.tricks_seed))
        if self.deck is None or isinstance(self.deck, (str, Path)):
            cards = load_deck(self.deck)
        else:
            cards = parse_deck({"cards": list(self.deck)}, "deck option")
        if self.deck is not None:
            set_(self, "deck", tuple(card.to_dict() for card in cards))
        needed = self.starting_dogs * self.players
        if needed > len(cards):
            raise RulesError(
                f"dealing {self.starting_dogs} dogs to {self.players} players needs {needed} cards; "
                f"the deck has {len(cards)}"
            )
        set_(self, "cards", {card.name: card for card in cards})

    def deck_order(self) -> list[str]:
        return list(self.cards)

    def to_dict(self) -> dict[str, Any]:
        """The options as plain data (the deck only when it is not the shipped one, keyed dice only when on:
        a game of the standard rules saves the document it always did)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if not f.init or f.name == "tricks_seed":
                continue
            value = getattr(self, f.name)
            if f.name == "keyed_dice" and value == "off":
                continue
            if f.name == "deck":
                if value is None:
                    continue
                value = [dict(card) for card in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object of options, not {type(data).__name__}")
        known = {f.name for f in fields(cls) if f.init}
        if isinstance(data.get("deck"), str):
            raise RulesError("a saved deck must be the list of its cards, not a file name")
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rules option(s) {', '.join(unknown)}; options are: {', '.join(sorted(known))}")
        return cls(**data)
