"""Spots, the push-your-luck dice game about dogs: rules engine, bots and front ends.

>>> import spots
>>> state = spots.Game(spots.Rules(players=2)).new_initial_state()
"""

from .games.spots import (
    CHANCE,
    TERMINAL,
    TILES,
    DeckError,
    Game,
    IllegalMoveError,
    Move,
    Rules,
    RulesError,
    State,
    StateFormatError,
    load_record,
    parse,
    render,
    replay,
    save_record,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE", "TERMINAL", "TILES", "DeckError", "Game", "IllegalMoveError", "Move", "Rules", "RulesError",
    "State", "StateFormatError", "load_record", "parse", "render", "replay", "save_record",
]
