"""Loading a saved Double Spot state: one reader per field (named in ``state.py``), then whole-position checks.

As for Spots (``spots.games.spots.load``): every reader gets the raw value and the state being loaded
(whose rules are read first) and refuses a value of the wrong type instead of coercing it (``"seat": true``
and ``"turn": 2.9`` are errors, not seat 1 and turn 2); ``check`` then refuses positions the game can
never reach, which would break it later.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.document import whole
from ...core.errors import StateFormatError
from .patterns import COLOURS, Board, on_board
from .rules import Rules

if TYPE_CHECKING:
    from .state import State

PHASES = ("roll", "reveal", "claim", "drop", "over")
FACES = ("blue", "green", "pink", "yellow", "blue-green", "pink-yellow")
ENDS = ("target", "full-board")


def rules(raw: Any, state: State) -> Rules:
    return Rules.from_saved(raw)


def _list(raw: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(raw, list) or (length is not None and len(raw) != length):
        count = "a list" if length is None else f"a list of {length}"
        raise StateFormatError(f"{what} must be {count}, not {raw!r}")
    return raw


def _text(raw: Any, what: str) -> str:
    if not isinstance(raw, str):
        raise StateFormatError(f"{what} must be a text, not {raw!r}")
    return raw


def one_of(what: str, allowed: tuple[str, ...], optional: bool = False) -> Callable[[Any, State], str | None]:
    """A reader of one of ``allowed`` texts (or null when ``optional``)."""
    def read(raw: Any, state: State) -> str | None:
        if raw is None and optional:
            return None
        if raw not in allowed:
            raise StateFormatError(f"{what} must be one of {', '.join(allowed)}{' or null' if optional else ''}, "
                                   f"not {raw!r}")
        return str(raw)
    return read


def _seat(raw: Any, what: str, optional: bool = False) -> int:
    value = whole(raw, what)
    if value not in (0, 1):
        raise StateFormatError(f"{what} must be 0 or 1{' or null' if optional else ''}, not {value}")
    return value


def seat_at(what: str, optional: bool = False) -> Callable[[Any, State], int | None]:
    """A reader of a seat (or holder) number, 0 or 1 (or null when ``optional``); a boolean is not one."""
    def read(raw: Any, state: State) -> int | None:
        return None if raw is None and optional else _seat(raw, what, optional)
    return read


def turn(raw: Any, state: State) -> int:
    value = whole(raw, "turn")
    if value < 0:
        raise StateFormatError(f"turn must be at least 0, not {value}")
    return value


def board(raw: Any, state: State) -> Board:
    columns, rows = state.rules.columns, state.rules.rows
    cols = _list(raw, "the board", columns)
    if any(not isinstance(col, list) or len(col) > rows for col in cols):
        raise StateFormatError(f"the board must have {columns} columns of at most {rows} discs")
    if any(c not in COLOURS for col in cols for c in col):
        raise StateFormatError(f"the board holds an unknown colour (the colours are {', '.join(COLOURS)})")
    return [list(col) for col in cols]


def holders(raw: Any, state: State) -> list[str | None]:
    return [None if h is None else _text(h, "a card holder") for h in _list(raw, "holders", 2)]


def deck(raw: Any, state: State) -> list[str]:
    return [_text(c, "a card of the deck") for c in _list(raw, "deck")]


def won(raw: Any, state: State) -> list[list[str]]:
    return [[_text(c, "a won card") for c in _list(w, "a player's cards")] for w in _list(raw, "won", 2)]


def refill(raw: Any, state: State) -> list[int]:
    holders_ = [_seat(h, "a holder to refill") for h in _list(raw, "refill")]
    if len(set(holders_)) != len(holders_):
        raise StateFormatError(f"refill names a holder twice: {raw!r}")
    return holders_


def flag(what: str) -> Callable[[Any, State], bool]:
    def read(raw: Any, state: State) -> bool:
        if not isinstance(raw, bool):
            raise StateFormatError(f"{what} must be true or false, not {raw!r}")
        return raw
    return read


def lifted(raw: Any, state: State) -> int:
    value = whole(raw, "lifted")
    if not 0 <= value <= state.rules.lifts:
        raise StateFormatError(f"lifted must be from 0 to the rules' lifts ({state.rules.lifts}), not {value}")
    return value


def history(raw: Any, state: State) -> list[str]:
    return [_text(m, "a move of the history") for m in _list(raw, "history")]


def check(state: State) -> None:
    """Refuse a loaded position the game cannot reach: cards not the deck each once, more discs than the game
    has, a pending die without a drop, a match left unclaimed, a target reached or a full frame while play goes on."""
    every = [h for h in state.holders if h is not None] + state.deck + state.won[0] + state.won[1]
    if sorted(every) != sorted(state.cards):
        raise StateFormatError("the cards in holders, deck and hands are not the deck, each once")
    if any(n < 0 for n in state.supply.values()):
        raise StateFormatError("the board holds more discs of a kind than the game has")
    if (state.phase == "drop") != (state.die is not None):
        raise StateFormatError("a die face is pending exactly when a drop is")
    if (state.phase == "claim") != (state.claiming is not None):
        raise StateFormatError("a card is being claimed exactly in the claim phase")
    for holder, card in enumerate(state.holders):
        if card is not None and holder != state.claiming and on_board(state.board, state.cards[card]):
            raise StateFormatError(f"card {card} is face up and on the board, yet nobody took or claims it")
    _check_end(state)


def _check_end(state: State) -> None:
    over = state.phase == "over"
    if over != (state.end_reason is not None):
        raise StateFormatError("a game has an end reason exactly when it is over")
    target = state.rules.target
    reached = [seat for seat in (0, 1) if len(state.won[seat]) >= target]
    if reached and not over:
        raise StateFormatError(f"seat {reached[0]} holds {len(state.won[reached[0]])} cards (the target is "
                               f"{target}), yet play goes on")
    if state.end_reason == "target" and state.winner not in reached:
        raise StateFormatError("the game ended on the target, but the winner does not hold that many cards")
    if state.full() and state.phase in ("roll", "drop"):
        raise StateFormatError("the frame is full, yet play goes on (a full frame is lifted or ends the game)")
    if state.end_reason == "full-board":
        if not state.full():
            raise StateFormatError("the game ended on a full frame, but the frame is not full")
        a, b = state.scores()
        if state.winner != (None if a == b else 0 if a > b else 1):
            raise StateFormatError("on a full frame more cards win and equal counts draw; the winner says otherwise")
