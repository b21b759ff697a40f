"""The Spots engine's exceptions: the shared ones (``spots.core.errors``) and the deck's own."""

from __future__ import annotations

from ..core.errors import IllegalMoveError, ReplayError, RulesError, StateFormatError, describe_legal

__all__ = ["DeckError", "IllegalMoveError", "ReplayError", "RulesError", "StateFormatError", "describe_legal"]


class DeckError(RulesError):
    """A dog deck (the shipped one or a custom file) is malformed."""
