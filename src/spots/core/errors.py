"""The exceptions every game shares: each is a ``ValueError`` that says what was wrong."""

from __future__ import annotations

from collections.abc import Sequence


class RulesError(ValueError):
    """A rules option has a value the game cannot be played with."""


class DeckError(RulesError):
    """A deck (Spots' dog cards, Double Spot's pattern cards; shipped or a custom file) is malformed."""


class StateFormatError(ValueError):
    """A saved state or game record cannot be read back."""


class IllegalMoveError(ValueError):
    """A move that is malformed, not legal here, or sent for the wrong seat.

    The state it was offered to is left unchanged.
    """

    def __init__(self, move: str, reason: str, legal: Sequence[str] = (), label: str = "Legal here") -> None:
        self.move = move
        self.reason = reason
        self.legal = list(legal)
        super().__init__(f"{reason}: {move!r}. {describe_legal(self.legal, label)}")


class MalformedMoveError(IllegalMoveError):
    """A move not written in the game's notation at all (``"jump"``, ``"drop x blue"``), as python-chess tells an
    invalid move from an illegal one. Any other IllegalMoveError is well formed but not legal in the position.

    It is an IllegalMoveError, so code that refuses both alike keeps catching it.
    """


def describe_legal(legal: Sequence[str], label: str = "Legal here", limit: int = 24) -> str:
    if not legal:
        return "No move is legal here (the game is over)."
    shown = ", ".join(legal[:limit])
    more = f" and {len(legal) - limit} more" if len(legal) > limit else ""
    return f"{label}: {shown}{more}."


class ReplayError(IllegalMoveError):
    """A record's move that cannot be played; ``index`` is its 0-based position."""

    def __init__(self, index: int, error: IllegalMoveError, source: str = "") -> None:
        self.index = index
        self.error: IllegalMoveError = error.error if isinstance(error, ReplayError) else error
        where = f" {source}" if source else ""
        ValueError.__init__(self, f"move {index + 1} of the record{where}: {self.error}")
        self.move, self.reason, self.legal = error.move, error.reason, error.legal
