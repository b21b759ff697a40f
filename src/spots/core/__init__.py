"""What every game in this package shares: the game registry, the state interface, errors, options,
records, advice, the random bot and the one MCTS.

Game-specific code lives in ``spots.games.spots`` (Spots) and ``spots.games.double_spot``;
anything here must work for both. ``spots.core.games.get(name)`` gives a game's spec.
"""

from .advice import Advice
from .bots import Bot, RandomBot, make_bot
from .errors import DeckError, IllegalMoveError, MalformedMoveError, ReplayError, RulesError, StateFormatError
from .files import atomic_write
from .games import GameSpec, get, new_state, registry
from .mcts import Mcts, random_policy
from .options import Option, validate_options, whole
from .protocol import CHANCE, TERMINAL, GameState
from .record import Record, RecordFormat, play_game, replay

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Advice",
    "Bot",
    "DeckError",
    "GameSpec",
    "GameState",
    "IllegalMoveError",
    "MalformedMoveError",
    "Mcts",
    "Option",
    "RandomBot",
    "Record",
    "RecordFormat",
    "ReplayError",
    "RulesError",
    "StateFormatError",
    "atomic_write",
    "get",
    "make_bot",
    "new_state",
    "play_game",
    "random_policy",
    "registry",
    "replay",
    "validate_options",
    "whole",
]
