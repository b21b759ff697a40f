"""Spots game records: ``spots.core.record`` with Spots' formats, and ``replay``.

A record file is JSON: ``{"format": "spots-record", "version": 1, "rules": {...},
"moves": ["reveal wilbur", ...]}`` with optional ``"seats"`` and ``"seed"`` (the
terminal's). A saved state (``State.to_json``) is also accepted as a record: it
carries its rules and history. Records written before ``Record`` existed load as they did.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from ...core.document import read_text
from ...core.record import Record, RecordFormat
from ...core.record import replay as replay_moves
from .errors import ReplayError
from .rules import Rules
from .state import Game, State

__all__ = ["FORMAT", "RECORD_FORMAT", "Record", "ReplayError", "load_record", "open_record", "parse_record",
           "read_text", "record_dict", "replay", "save_record"]

RECORD_FORMAT = "spots-record"
RECORD_VERSION = 1


def _rules(rules: Any) -> Rules:
    return rules if isinstance(rules, Rules) else Rules.from_dict(rules)


def replay(history: Iterable[str], rules: Rules | Mapping[str, Any] | None = None) -> State:
    """Play a record's moves from the initial state under ``rules`` (default rules when None).

    A bad move raises ReplayError naming it.
    """
    game = Game(Rules() if rules is None else _rules(rules))
    return replay_moves(game.new_initial_state, history)


FORMAT: RecordFormat[Rules, State] = RecordFormat(Game, RECORD_FORMAT, State.FORMAT, _rules, RECORD_VERSION)


def record_dict(state: State, seats: list[str] | None = None, seed: int | None = None,
                bots: list[str | None] | None = None) -> dict[str, Any]:
    """The record of ``state``'s game as plain data (``seats``, ``seed`` and ``bots`` only when given)."""
    return FORMAT.of(state, seats, seed, bots).to_dict()


def save_record(state: State, path: str | Path, seats: list[str] | None = None, seed: int | None = None,
                bots: list[str | None] | None = None) -> None:
    """Write the state's record atomically (a crash never leaves half a file)."""
    FORMAT.of(state, seats, seed, bots).save(path)


def parse_record(text: str, source: str = "record") -> tuple[Rules, list[str]]:
    """The rules and moves of a record's JSON text, checked but not replayed (``FORMAT.read`` gives the Record)."""
    record = FORMAT.read(text, source)
    return record.rules, record.moves


def open_record(path: str | Path) -> Record:
    """A record (or saved state) file, checked field by field but not yet replayed."""
    return FORMAT.open(path)


def load_record(path: str | Path) -> State:
    """Read a record (or saved state) file and replay it; a bad move raises ReplayError naming it and the file."""
    return FORMAT.load(path)
