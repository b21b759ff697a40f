"""Double Spot game records: the rules and the moves from the initial state, checked by replaying them.

A record file is JSON: ``{"format": "double-spot-record", "version": 1, "rules": {...},
"moves": ["reveal p07", ...], "seats": ["me", "greedy"], "seed": 12}`` (``seats`` and
``seed`` are optional: who sat where and the terminal's dice seed, to continue a game).
Why moves and not a saved state: replaying checks every move, so a corrupt or tampered
file is refused with the first bad move named, and nothing half-loaded is ever used.
A saved state (``State.to_json``) is also accepted: it carries its rules and history.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.document import load_document, read_json, read_text, whole
from ..core.errors import ReplayError, StateFormatError
from .rules import Rules
from .state import STATE_FORMAT, State

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "Record", "load_record", "parse_record", "read_record",
           "record_dict", "save_record"]

RECORD_FORMAT = "double-spot-record"
RECORD_VERSION = 1
FORMATS = (RECORD_FORMAT, STATE_FORMAT)


@dataclass(frozen=True)
class Record:
    """A checked record document: rules, moves and the optional table details (not yet replayed)."""

    rules: Rules
    moves: list[str] = field(default_factory=list)
    seats: list[str] | None = None
    seed: int | None = None

    def replay(self) -> State:
        """The position the moves lead to; a bad move raises ReplayError naming it."""
        from . import replay

        return replay(list(self.moves), self.rules)


def record_dict(state: State, seats: list[str] | None = None, seed: int | None = None) -> dict[str, Any]:
    """The record of ``state``'s game as plain data (``seats`` and ``seed`` only when given)."""
    doc: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": state.rules.to_dict(),
        "moves": state.history(),
    }
    if seats is not None:
        doc["seats"] = list(seats)
    if seed is not None:
        doc["seed"] = seed
    return doc


def save_record(state: State, path: str | Path, seats: list[str] | None = None, seed: int | None = None) -> None:
    """Write the record atomically (a crash never leaves half a file)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record_dict(state, seats, seed), indent=1) + "\n", "utf-8")
    tmp.replace(path)


def _build(doc: dict[str, Any]) -> Record:
    if "rules" not in doc:
        raise StateFormatError('the record has no "rules"')
    rules = Rules.from_dict(doc["rules"])
    moves = doc.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise StateFormatError('"moves" must be a list of strings')
    seats = doc.get("seats")
    if seats is not None and (not isinstance(seats, list) or not all(isinstance(s, str) for s in seats)):
        raise StateFormatError('"seats" must be a list of strings')
    seed = doc.get("seed")
    return Record(rules, list(moves), None if seats is None else list(seats),
                  None if seed is None else whole(seed, '"seed"'))


def parse_record(doc: Any, source: str = "record") -> Record:
    """A record (or saved state) document checked field by field; StateFormatError says what is wrong."""
    try:
        if isinstance(doc, dict) and doc.get("format") == STATE_FORMAT:
            state = State.from_dict(doc)
            return Record(state.rules, state.history())
        return load_document(doc, RECORD_FORMAT, RECORD_VERSION, "Double Spot", _build, kind="record")
    except StateFormatError as exc:
        raise StateFormatError(f"{source}: {exc}") from None


def read_record(text: str, source: str = "record") -> Record:
    """``parse_record`` of a JSON text."""
    return parse_record(read_json(text, source), source)


def load_record(path: str | Path) -> tuple[Record, State]:
    """Read a record file and replay it: the record and the position it reaches."""
    record = read_record(read_text(path), str(path))
    try:
        return record, record.replay()
    except ReplayError as exc:
        exc.args = (f"{path}: {exc}",)  # say which file holds the bad move
        raise

