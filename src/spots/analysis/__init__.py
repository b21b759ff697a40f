"""The coach: after a game, how much was luck and how much was play, and each player's biggest mistakes.

``analyse(record)`` values every step of a finished game with the game's evaluator (``GameSpec.coach``);
``spots analyse RECORD`` prints it (``docs/analysis.md`` has the arithmetic, the bands and the figures).
"""

from .engine import Analyser, Mistake, PlayerSummary, Report, Step, analyse, evaluator_of
from .evaluator import Evaluator, Reason

__all__ = ["Analyser", "Evaluator", "Mistake", "PlayerSummary", "Reason", "Report", "Step", "analyse", "evaluator_of"]
