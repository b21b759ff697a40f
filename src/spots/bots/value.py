"""A value function for a position, seen from one seat: how well placed that seat is.

Used at the leaves of the expectimax search (the end of the bot's turn) and to
cut MCTS rollouts short. Weights are in "points", a scored dog being 100.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.state import State

WIN = 10_000.0


@dataclass(frozen=True)
class Weights:
    scored: float = 100.0
    complete: float = 80.0  # a complete dog can be scored next turn, but scoring costs a turn
    progress: float = 55.0  # times (filled / spaces) squared, for an incomplete dog
    yard: float = 4.0  # per buried spot: less headroom for every future roll
    yard_square: float = 0.0  # per squared spot: a nearly full yard is much worse than a half-full one
    at_risk: float = 0.0  # share of unscored progress lost per unit of next-roll bust chance
    treat: float = 7.0  # per treat, for the first few
    treat_extra: float = 2.0
    treat_cap: int = 3
    open_dog: float = 3.0  # an incomplete unscored dog is a place for dice
    opponents: float = 0.3  # weight of the best opponent's standing


DEFAULT = Weights()


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
            value += w.progress * (len(dog.filled) / len(dog.spaces)) ** 2 + w.open_dog
    if scored >= state.rules.target:
        return WIN
    if w.at_risk:
        value *= 1.0 - w.at_risk * next_roll_bust(state, seat)
    value += w.scored * scored
    yard = player.yard_total()
    value -= w.yard * yard + w.yard_square * yard * yard
    treats = player.treats
    value += w.treat * min(treats, w.treat_cap) + w.treat_extra * max(0, treats - w.treat_cap)
    return value


def next_roll_bust(state: State, seat: int, dice: int = 2) -> float:
    """Chance that a plain roll of two dice would bust the seat now (exact)."""
    from ..engine.dice import roll_distribution
    from ..odds import Position

    pos = Position.of(state, seat)
    return float(sum(p for faces, p in roll_distribution(dice) if pos.busts(faces)))


def evaluate(state: State, seat: int, w: Weights = DEFAULT) -> float:
    """The seat's standing minus a share of its best opponent's (terminal: win/loss)."""
    if state.is_terminal():
        returns = state.returns()
        return WIN * (2 * returns[seat] - 1)
    own = standing(state, seat, w)
    others = [standing(state, s, w) for s in range(state.rules.players) if s != seat]
    return own - w.opponents * max(others, default=0.0)
