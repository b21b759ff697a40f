"""What every game in this package shares: the state interface, move errors, records, generic bots.

Game-specific code lives in ``spots.engine`` (Spots) and ``spots.double_spot``;
anything here must work for both.
"""

from .errors import IllegalMoveError, RulesError, StateFormatError
from .mcts import Mcts, random_policy
from .protocol import CHANCE, TERMINAL, GameState
from .record import ReplayError, play_game, replay

__all__ = [
    "CHANCE",
    "TERMINAL",
    "GameState",
    "IllegalMoveError",
    "Mcts",
    "ReplayError",
    "RulesError",
    "StateFormatError",
    "play_game",
    "random_policy",
    "replay",
]
