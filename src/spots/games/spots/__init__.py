"""The Spots rules engine: standard library only (its terminal screen, ``terminal.py``, needs rich)."""

from .cards import DogCard, load_deck, slug
from .errors import DeckError, IllegalMoveError, RulesError, StateFormatError
from .notation import Move, canonical, parse
from .record import load_record, replay, save_record
from .rules import Rules
from .state import CHANCE, TERMINAL, Game, State
from .tricks import SUGGESTED_SETS, TILES
from .words import describe_move, describe_phase, render

__all__ = [
    "CHANCE",
    "SUGGESTED_SETS",
    "TERMINAL",
    "TILES",
    "DeckError",
    "DogCard",
    "Game",
    "IllegalMoveError",
    "Move",
    "Rules",
    "RulesError",
    "State",
    "StateFormatError",
    "canonical",
    "describe_move", "describe_phase",
    "load_deck",
    "load_record",
    "parse",
    "render",
    "replay",
    "save_record",
    "slug",
]
