"""The Spots engine's exceptions: the ones every game shares (``spots.core.errors``), one DeckError included."""

from __future__ import annotations

from ...core.errors import (
    DeckError,
    IllegalMoveError,
    MalformedMoveError,
    ReplayError,
    RulesError,
    StateFormatError,
    describe_legal,
)

__all__ = ["DeckError", "IllegalMoveError", "MalformedMoveError", "ReplayError", "RulesError", "StateFormatError",
           "describe_legal"]
