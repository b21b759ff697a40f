"""Who may ask the advisor (Hint) at a table, said in one place for the socket, the pages and the lobby.

Why: at a rated table a hint is the strongest bot's move, so a rating earned with it means nothing (no
assistance is offered in ranked play on other game sites either). The advisor is off there for every seat
until the game is over. At an unrated table the creator chooses hints on or off for everyone; the coach's
report after the game is the same either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...i18n import N_
from ..store import TableRow

RATED = N_("no hints at a rated table: the advisor is off for every player until the game is over")
OFF = N_("hints are off at this table: its creator turned them off for every player")


@dataclass(frozen=True)
class Refusal:
    """Why the advisor does not answer: an error code and its message id (translated where shown)."""

    code: str
    message: str


def advisor_refusal(row: TableRow) -> Refusal | None:
    """Why a table's advisor does not answer during the game, or None when it does."""
    if row.rated:
        return Refusal("no-hints-rated", RATED)
    if not row.hints:
        return Refusal("hints-off", OFF)
    return None


def check_hints(body: dict[str, Any], rated: bool) -> bool:
    """Whether a create-table request turns the advisor on (the default), and may: ValueError says why not."""
    hints = body.get("hints", not rated)
    if not isinstance(hints, bool):
        raise ValueError("'hints' must be true (the advisor answers every player on their turn) or false (it "
                         "answers nobody)")
    if hints and rated:
        raise ValueError("a rated table has no hints: the advisor is off for every player until the game is over;"
                         " leave 'hints' out or make the table unrated")
    return hints


def hints_word(row: TableRow) -> str:
    """The table's hint setting for the pages and the lobby: ``rated`` (no hints), ``off`` or ``on``."""
    return "rated" if row.rated else ("on" if row.hints else "off")
