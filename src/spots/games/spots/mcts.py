"""The Spots MCTS: the package's one search (``spots.core.mcts``) with Spots' rollout policy and value.

A simulation plays the greedy bot (the fast rollout policy) to the end of the
turn ``horizon`` turns ahead, then scores every seat with the value function's
win chance (``value.evaluate``), so long-horizon choices (which trick, when to
score) are judged by where they lead. Every move of a node is expanded (in
random order) before UCT selects among them: a Spots turn has few moves and all
are plausible.
"""

from __future__ import annotations

import random
from operator import attrgetter

from ...core.mcts import Mcts
from .greedy import GreedyBot
from .state import State
from .value import evaluate


def win_chances(state: State) -> list[float]:
    """Every seat's estimated chance of winning (``value.evaluate``)."""
    return [evaluate(state, s) for s in range(state.rules.players)]


UNLIMITED = 1 << 62  # decisions: a Spots simulation ends with the turn, not a count of decisions


class MctsBot(Mcts):
    """``spots.bots.make("mcts", iterations=150, horizon=1, c=0.7, time_ms=None)``: ``iterations`` is the node
    budget (the same moves on any machine), ``time_ms`` an optional time limit (see ``spots.core.mcts``)."""

    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 150, horizon: int = 1, c: float = 0.7,
                 time_ms: float | None = None) -> None:
        greedy = GreedyBot(seed=seed)

        def policy(state: State, rng: random.Random) -> str:
            return greedy.choose(state)

        super().__init__(policy, win_chances, seed=seed, iterations=iterations, depth=UNLIMITED, c=c, widen=None,
                         turn=attrgetter("turn"), horizon=horizon, time_ms=time_ms)
        self.policy_bot = greedy
