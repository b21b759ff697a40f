"""Game records for every game: one ``Record`` type, its JSON document, atomic saving, checked loading, replay.

A record file is JSON: ``{"format": "<game>-record", "version": 1, "rules": {...}, "moves": [...],
"seats": [...], "bots": [...], "stand_ins": [...], "seed": N, "dice": {...}}``. The last five are optional: who sat
where (their names), which seats were bots (the bot's name, ``null`` for a person), the moves a stand-in bot played
for a person who ran out of time (``[seat, first move, last move]``, counting moves from 0), the dice seed of a
terminal game, to continue it, and a served game's committed dice (``commitment.py``: the commitment, the salts
and, once the game is over, the seed that ``spots verify`` checks). A saved state of the same game
(``State.to_json``) is also read as a record: it carries its rules and history. Why moves and not a position: replaying
checks every move, so a corrupt or tampered file is refused with its first bad move named, and
nothing half-loaded is ever used.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeGuard, TypeVar

from .bots import Bot
from .commitment import Commitment
from .document import read_json, read_text
from .errors import IllegalMoveError, ReplayError, RulesError, StateFormatError
from .files import atomic_write
from .options import whole
from .play import play_out
from .protocol import Game, GameState

S = TypeVar("S", bound=GameState)
RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT", bound=GameState)

__all__ = ["Record", "RecordFormat", "ReplayError", "play_game", "replay"]


def replay(new_initial_state: Callable[[], S], history: Iterable[str]) -> S:
    """Play ``history`` from a fresh state; raise ``ReplayError`` (naming the move) at the first bad one."""
    state = new_initial_state()
    for index, move in enumerate(history):
        try:
            state.apply_action(move)
        except IllegalMoveError as exc:
            raise ReplayError(index, exc) from None
    return state


def play_game(state: S, bots: Sequence[Bot], rng: random.Random) -> S:
    """Play a state to the end: chance from ``rng``, each seat's moves from its bot (``spots.core.play``)."""
    return play_out(state, bots, rng)


@dataclass(frozen=True)
class RecordFormat(Generic[RulesT, StateT]):
    """How one game's records are written and read: its format names and how its rules are read back.

    The states a record replays come from the game's definition (``game``, its ``protocol.Game``), the one
    place that builds them.
    """

    game: type[Game[RulesT, StateT]]  # the game's rules and states (and its title in messages)
    record: str  # the "format" of a record document
    state: str  # the "format" of a saved state, also read as a record
    rules_from_dict: Callable[[Any], RulesT]
    version: int = 1

    @property
    def title(self) -> str:
        return self.game.TITLE

    def formats(self) -> tuple[str, str]:
        return self.record, self.state

    def new_state(self, rules: RulesT) -> StateT:
        """The initial state under ``rules`` (the game's ``Game(rules).new_initial_state()``)."""
        return self.game(rules).new_initial_state()

    def of(self, state: Any, seats: Sequence[str] | None = None, seed: int | None = None,
           bots: Sequence[str | None] | None = None, stand_ins: Sequence[Sequence[int]] | None = None,
           dice: Commitment | None = None) -> Record:
        """The record of ``state``'s game so far."""
        return Record(state.rules, list(state.history()), None if seats is None else list(seats), seed,
                      None if bots is None else list(bots),
                      None if stand_ins is None else [(int(s[0]), int(s[1]), int(s[2])) for s in stand_ins],
                      dice, format=self)

    def parse(self, doc: Any, source: str = "record") -> Record[RulesT, StateT]:
        """A record (or saved state) document checked field by field; StateFormatError says what is wrong."""
        if not isinstance(doc, dict):
            raise StateFormatError(f'{source}: not a {self.title} record: expected a JSON object with '
                                   f'"format": "{self.record}", rules and moves')
        kind = doc.get("format")
        if kind not in self.formats():
            raise StateFormatError(f"{source}: not a {self.title} record: 'format' must be {self.record!r} or "
                                   f"{self.state!r}, not {kind!r}")
        if kind == self.record and doc.get("version") != self.version:
            raise StateFormatError(f"{source}: unsupported record version {doc.get('version')!r}; "
                                   f"this engine reads {self.version}")
        moves = doc.get("history" if kind == self.state else "moves")
        seats, seed, bots, stand_ins = doc.get("seats"), doc.get("seed"), doc.get("bots"), doc.get("stand_ins")
        if not _strings(moves):
            raise StateFormatError(f"{source}: the moves must be a list of strings")
        if seats is not None and not _strings(seats):
            raise StateFormatError(f"{source}: the seats must be a list of strings")
        if bots is not None and not (isinstance(bots, list) and all(b is None or isinstance(b, str) for b in bots)):
            raise StateFormatError(f"{source}: 'bots' must be a list of bot names, null for a person")
        if seats is not None and bots is not None and len(bots) != len(seats):
            raise StateFormatError(f"{source}: 'bots' names {len(bots)} seats but 'seats' {len(seats)}")
        if stand_ins is not None:
            stand_ins = _stand_ins(stand_ins, len(moves), source)
        if seed is not None:
            whole("the seed", seed, error=_corrupt(source))
        if "rules" not in doc:
            raise StateFormatError(f'{source}: bad rules in record: the record has no "rules"')
        try:
            rules = self.rules_from_dict(doc["rules"])
        except RulesError as exc:
            raise StateFormatError(f"{source}: bad rules in record: {exc}") from None
        dice = None if doc.get("dice") is None else Commitment.parse(doc["dice"], source)
        return Record(rules, list(moves), None if seats is None else list(seats), seed,
                      None if bots is None else list(bots), stand_ins, dice, format=self)

    def read(self, text: str, source: str = "record") -> Record[RulesT, StateT]:
        """``parse`` of a JSON text."""
        return self.parse(read_json(text, source), source)

    def open(self, path: str | Path) -> Record[RulesT, StateT]:
        """The record in a file, checked but not yet replayed."""
        return self.read(read_text(path), str(path))

    def load(self, path: str | Path) -> StateT:
        """The position a record file leads to; a bad move raises ReplayError naming it and the file."""
        return self.open(path).replay(source=str(path))


def _plain(rules: object) -> Any:
    """Rules as plain data (every game's rules have ``to_dict``)."""
    return getattr(rules, "to_dict")()  # noqa: B009  (RulesT is any game's rules class)


def _strings(value: Any) -> TypeGuard[list[str]]:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _stand_ins(value: Any, moves: int, source: str) -> list[tuple[int, int, int]]:
    """``stand_ins`` checked: ``[seat, first, last]`` rows of whole numbers, ``first <= last`` inside the moves."""
    rows = []
    if not isinstance(value, list):
        raise StateFormatError(f"{source}: 'stand_ins' must be a list of [seat, first move, last move]")
    for row in value:
        if (not isinstance(row, list) or len(row) != 3
                or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in row)):
            raise StateFormatError(f"{source}: each of 'stand_ins' must be [seat, first move, last move], whole "
                                   f"numbers from 0, not {row!r}")
        if not row[1] <= row[2] < moves:
            raise StateFormatError(f"{source}: a stand-in's moves {row[1]}-{row[2]} are not moves of this record "
                                   f"(0 to {moves - 1})")
        rows.append((row[0], row[1], row[2]))
    return rows


def _corrupt(source: str) -> Callable[[str], StateFormatError]:
    return lambda message: StateFormatError(f"{source}: {message}")


@dataclass(frozen=True)
class Record(Generic[RulesT, StateT]):
    """A game's rules and moves from its initial state, with who sat where (their names, which were bots, the moves
    stand-ins played) and the dice seed, when known."""

    rules: RulesT
    moves: list[str] = field(default_factory=list)
    seats: list[str] | None = None
    seed: int | None = None
    bots: list[str | None] | None = None  # per seat: the bot's name, None for a person
    stand_ins: list[tuple[int, int, int]] | None = None  # (seat, first move, last move) a stand-in played
    dice: Commitment | None = None  # a served game's committed dice (its seed only once the game is over)
    format: RecordFormat[RulesT, StateT] = field(kw_only=True, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The record document (``seats``, ``bots``, ``stand_ins`` and ``seed`` only when known)."""
        doc: dict[str, Any] = {"format": self.format.record, "version": self.format.version,
                               "rules": _plain(self.rules), "moves": list(self.moves)}
        if self.seats is not None:
            doc["seats"] = list(self.seats)
        if self.bots is not None:
            doc["bots"] = list(self.bots)
        if self.stand_ins:
            doc["stand_ins"] = [list(row) for row in self.stand_ins]
        if self.seed is not None:
            doc["seed"] = self.seed
        if self.dice is not None:
            doc["dice"] = self.dice.to_dict(reveal=True)  # the seed is in it only when the maker put it there
        return doc

    def stood_in(self, seat: int, move: int) -> bool:
        """Was move number ``move`` (from 0) played by a stand-in for ``seat``?"""
        return any(s == seat and first <= move <= last for s, first, last in self.stand_ins or ())

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1) + "\n"

    def save(self, path: str | Path) -> None:
        """Write the record atomically (a crash never leaves half a file)."""
        atomic_write(path, self.to_json())

    def replay(self, source: str = "") -> StateT:
        """The position the moves lead to; a bad move raises ReplayError naming it (and ``source``)."""
        try:
            return replay(lambda: self.format.new_state(self.rules), self.moves)
        except ReplayError as exc:
            raise ReplayError(exc.index, exc, source) from None
