"""Spots' bots by name: ``random``, ``greedy``, ``expectimax`` (and its frozen versions ``expectimax-v1`` and
``expectimax-v2``), ``expectimax-learned`` (the learned value at its leaves) and ``learned-fast`` (the same at a
budget of 150 positions), ``mcts``, the trained ``ppo`` and
``optimal`` (the exact policy of the solved solitaire variants, ``solve.py``).

Every bot has ``choose(state) -> move`` and is deterministic under its seed. The
registry (``GameSpec.bots``), ``spots.bots.make`` and the front ends all get them here;
each is imported only when first asked for (``ppo`` needs numpy, the rl extra).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.bots import Bot, RandomBot

FAST_NODES = 150  # learned-fast: about 2 ms a decision (p99 under 5 ms of CPU, docs/bots.md)


def _greedy(seed: int = 0, **budget: Any) -> Bot:
    from .greedy import GreedyBot

    return GreedyBot(seed=seed, **budget)


def _expectimax(seed: int = 0, **budget: Any) -> Bot:
    from .expectimax import ExpectimaxBot

    return ExpectimaxBot(seed=seed, **budget)


def _expectimax_learned(seed: int = 0, **budget: Any) -> Bot:
    from .expectimax import ExpectimaxBot  # the learned value needs numpy: the bot says so if it is missing

    return ExpectimaxBot(seed=seed, **{"value": "learned", **budget})


def _learned_fast(seed: int = 0, **budget: Any) -> Bot:
    from .expectimax import ExpectimaxBot

    bot = ExpectimaxBot(seed=seed, **{"value": "learned", "nodes": FAST_NODES, **budget})
    bot.name = "learned-fast"
    return bot


def _expectimax_v1(seed: int = 0, **budget: Any) -> Bot:
    from .expectimax_v1 import ExpectimaxV1Bot

    return ExpectimaxV1Bot(seed=seed, **budget)


def _expectimax_v2(seed: int = 0, **budget: Any) -> Bot:
    from .expectimax_v2 import ExpectimaxV2Bot

    return ExpectimaxV2Bot(seed=seed, **budget)


def _mcts(seed: int = 0, **budget: Any) -> Bot:
    from .mcts import MctsBot

    return MctsBot(seed=seed, **budget)


def _optimal(seed: int = 0, **budget: Any) -> Bot:
    from .optimal import OptimalBot  # refuses, naming the solved variants, on any other rules

    return OptimalBot(seed=seed, **budget)


def _ppo(seed: int = 0, **budget: Any) -> Bot:
    from ...rl import ppo_bot  # the trained policy (docs/rl.md); says so if numpy (the rl extra) is missing

    return ppo_bot(seed=seed, **budget)


BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": _greedy,
    "expectimax": _expectimax,
    "expectimax-learned": _expectimax_learned,
    "learned-fast": _learned_fast,
    "expectimax-v1": _expectimax_v1,
    "expectimax-v2": _expectimax_v2,
    "mcts": _mcts,
    "ppo": _ppo,
    "optimal": _optimal,
}


__all__ = ["BOTS", "Bot", "RandomBot"]  # spots.bots.make(name) makes them
