"""Double Spot game records: ``spots.core.record`` with Double Spot's formats.

A record file is JSON: ``{"format": "double-spot-record", "version": 1, "rules": {...},
"moves": ["reveal p07", ...], "seats": ["me", "greedy"], "seed": 12}`` (``seats`` and
``seed`` are optional: who sat where and the terminal's dice seed, to continue a game).
A saved state (``State.to_json``) is also accepted: it carries its rules and history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.record import Record, RecordFormat
from .rules import Rules
from .state import STATE_FORMAT, Game, State

__all__ = ["FORMAT", "RECORD_FORMAT", "RECORD_VERSION", "Record", "load_record", "open_record", "parse_record",
           "read_record", "record_dict", "save_record"]

RECORD_FORMAT = "double-spot-record"
RECORD_VERSION = 1

FORMAT: RecordFormat[Rules, State] = RecordFormat(Game, RECORD_FORMAT, STATE_FORMAT, Rules.from_saved, RECORD_VERSION)


def record_dict(state: State, seats: list[str] | None = None, seed: int | None = None,
                bots: list[str | None] | None = None) -> dict[str, Any]:
    """The record of ``state``'s game as plain data (``seats``, ``seed`` and ``bots`` only when given)."""
    return FORMAT.of(state, seats, seed, bots).to_dict()


def save_record(state: State, path: str | Path, seats: list[str] | None = None, seed: int | None = None,
                bots: list[str | None] | None = None) -> None:
    """Write the record atomically (a crash never leaves half a file)."""
    FORMAT.of(state, seats, seed, bots).save(path)


def parse_record(doc: Any, source: str = "record") -> Record:
    """A record (or saved state) document checked field by field; StateFormatError says what is wrong."""
    return FORMAT.parse(doc, source)


def read_record(text: str, source: str = "record") -> Record:
    """``parse_record`` of a JSON text."""
    return FORMAT.read(text, source)


def open_record(path: str | Path) -> Record:
    """A record file, checked but not yet replayed."""
    return FORMAT.open(path)


def load_record(path: str | Path) -> State:
    """Read a record file and replay it; a bad move raises ReplayError naming it and the file."""
    return FORMAT.load(path)
