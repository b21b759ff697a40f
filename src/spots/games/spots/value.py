"""A value function for a position, seen from one seat: how well placed that seat is.

Used at the leaves of the expectimax search (the end of the bot's turn) and to
cut MCTS rollouts short. Weights are in "points", a scored dog being 100.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .state import State

WIN = 10_000.0


@dataclass(frozen=True)
class Weights:
    scored: float = 100.0
    complete: float = 90.0  # a complete dog can be scored next turn (but scoring costs a turn)
    # An incomplete dog is worth what its empty spaces (1, 2, 3, 4+) say: dice still needed
    # matter, not the share filled (measured: 93% against greedy, versus 72% by share filled).
    by_empty: tuple[float, ...] = (55.0, 35.0, 20.0, 10.0)
    yard: float = 2.0  # per buried spot: less headroom for every future roll
    yard_square: float = 0.4  # per squared spot: a nearly full yard is much worse than a half-full one
    treat: float = 7.0  # per treat, for the first few
    treat_extra: float = 2.0
    treat_cap: int = 3
    scale: float = 120.0  # points of lead that make the win chance e times likelier than the loss


DEFAULT = Weights()  # hand-set: expectimax-v1 and mcts play with these
# Fitted to who wins, from 4,000 seeded greedy games (167,840 positions):
# ``python benchmarks/fit_value.py --games 4000 --seed 5``; the procedure is in docs/bots.md. They predict
# the winner better than DEFAULT (log-loss 0.640 against 0.652), and expectimax plays better with them
# (head to head, docs/bots.md): expectimax's default; ``weights="default"`` gives the hand-set ones.
FITTED = Weights(complete=82.5, by_empty=(32.6, 14.3, -2.8, -0.8), yard=3.32, yard_square=0.160, treat=21.4,
                 treat_extra=12.1, scale=184.5)
WEIGHT_SETS = {"default": DEFAULT, "fitted": FITTED}


def standing(state: State, seat: int, w: Weights = DEFAULT) -> float:
    """Points for one seat's table, ignoring everyone else."""
    player = state.players[seat]
    scored = 0
    value = 0.0
    for dog in player.dogs:
        if dog.scored:
            scored += 1
        elif dog.complete:
            value += w.complete
        else:
            empty = len(dog.spaces) - len(dog.filled)
            value += w.by_empty[min(empty, len(w.by_empty)) - 1]
    if scored >= state.rules.target:
        return WIN
    value += w.scored * scored
    yard = player.yard_total()
    value -= w.yard * yard + w.yard_square * yard * yard
    treats = player.treats
    value += w.treat * min(treats, w.treat_cap) + w.treat_extra * max(0, treats - w.treat_cap)
    return value


def evaluate(state: State, seat: int, w: Weights = DEFAULT) -> float:
    """The seat's chance of winning, estimated: 1 or 0 at the end, else a logistic of its lead.

    The lead is the seat's standing minus the best opponent's (in solo, the standing
    against the target). Working in win chances makes the bot careful when ahead and
    bold when behind, and keeps a long-shot win from outweighing a solid position.
    """
    if state.is_terminal():
        return state.returns()[seat]
    return win_chance(state, seat, rival(state, seat, w), w)


def rival(state: State, seat: int, w: Weights = DEFAULT) -> float | None:
    """The best opponent's standing (None in solo): what ``seat``'s lead is measured against."""
    others = [min(standing(state, s, w), WIN) for s in range(state.rules.players) if s != seat]
    return max(others) if others else None


def win_chances(state: State, standings: list[float], w: Weights = DEFAULT) -> list[float]:
    """Every seat's ``win_chance`` against its best opponent, from every seat's ``standing`` computed once (the
    same numbers as ``[win_chance(state, s, rival(state, s, w), w) ...]``, which computes them players² times)."""
    capped = [min(x, WIN) for x in standings]
    chances = []
    for seat, own in enumerate(standings):
        if own >= WIN:
            chances.append(1.0)
            continue
        others = capped[:seat] + capped[seat + 1:]
        lead = own - max(others) if others else own - w.scored * state.rules.target / 2
        chances.append(1.0 / (1.0 + math.exp(-lead / w.scale)))
    return chances


def win_chance(state: State, seat: int, best_other: float | None, w: Weights = DEFAULT) -> float:
    """``evaluate`` of an unfinished game, given the best opponent's standing (a search may cache it)."""
    own = standing(state, seat, w)
    if own >= WIN:
        return 1.0
    lead = own - best_other if best_other is not None else own - w.scored * state.rules.target / 2
    return 1.0 / (1.0 + math.exp(-lead / w.scale))
