"""Game records: the rules and the moves from the initial state, and replaying them.

A record file is JSON: ``{"format": "spots-record", "version": 1, "rules": {...},
"moves": ["reveal wilbur", ...]}``. A saved state (``State.to_json``) is also
accepted as a record: it carries its rules and history.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.document import read_json, read_text
from ..core.record import replay as replay_moves
from .errors import ReplayError, RulesError, StateFormatError
from .rules import Rules
from .state import STATE_FORMAT, Game, State

__all__ = ["ReplayError", "load_record", "parse_record", "read_text", "record_dict", "replay", "save_record"]

RECORD_FORMAT = "spots-record"
RECORD_VERSION = 1


def replay(rules: Rules | dict[str, Any], history: Iterable[str]) -> State:
    """Play a record's moves from the initial state; raise ReplayError at the first bad one."""
    if not isinstance(rules, Rules):
        rules = Rules.from_dict(rules)
    return replay_moves(Game(rules).new_initial_state, history)


def record_dict(state: State) -> dict[str, Any]:
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "rules": state.rules.to_dict(),
        "moves": state.history(),
    }


def save_record(state: State, path: str | Path) -> None:
    """Write the state's record atomically (a crash never leaves half a file)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record_dict(state), indent=1) + "\n", "utf-8")
    tmp.replace(path)


def parse_record(text: str, source: str = "record") -> tuple[Rules, list[str]]:
    doc = read_json(text, source)
    if not isinstance(doc, dict):
        raise StateFormatError(f"{source}: expected a JSON object with rules and moves")
    kind = doc.get("format")
    if kind == STATE_FORMAT:
        moves = doc.get("history")
    elif kind == RECORD_FORMAT:
        moves = doc.get("moves")
    else:
        raise StateFormatError(f"{source}: 'format' must be {RECORD_FORMAT!r} or {STATE_FORMAT!r}, not {kind!r}")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise StateFormatError(f"{source}: the moves must be a list of strings")
    try:
        rules = Rules.from_dict(doc.get("rules"))
    except RulesError as exc:
        raise StateFormatError(f"{source}: bad rules: {exc}") from None
    return rules, moves


def load_record(path: str | Path) -> State:
    """Read a record (or saved state) file and replay it."""
    rules, moves = parse_record(read_text(path), str(path))
    return replay(rules, moves)

