"""Exact odds for the player whose turn it is: busting, filling dogs, yard totals, rerolls.

Everything here enumerates the multinomial outcomes of a roll (``dice.roll_distribution``)
and resolves each outcome *well*: every die that fits an empty space of an unscored dog is
placed, the rest are buried. Because each space holds one die and a card never repeats a
number, the best resolution is simple: for each face v, as many dice as there are empty v
spaces are placed, and the others are buried. Rolls of more than ``EXACT_LIMIT`` dice
(over 6,188 outcomes) fall back to sampling with a fixed seed; results say which method
was used.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from .dice import float_distribution, roll_distribution
from .state import State
from .tricks import TILES

EXACT_LIMIT = 12
SAMPLES = 20_000


@dataclass(frozen=True)
class Position:
    """What the odds depend on: open spaces by face, the yard total, the bust limit, treats."""

    open_spaces: Counter[int]
    yard: int
    limit: int
    treats: int

    @classmethod
    def of(cls, state: State, seat: int | None = None) -> Position:
        seat = state.seat if seat is None else seat
        player = state.players[seat]
        spaces = Counter(v for dog in player.unscored() for v in dog.empty_spaces())
        return cls(spaces, player.yard_total(), state.rules.bust_limit, player.treats)

    def buried(self, faces: tuple[int, ...]) -> int:
        """Spots buried when a roll is resolved well (place what fits, bury the rest)."""
        counts = Counter(faces)
        return sum(v * max(0, n - self.open_spaces[v]) for v, n in counts.items())

    def busts(self, faces: tuple[int, ...]) -> bool:
        return self.yard + self.buried(faces) > self.limit

    def float_bust_chance(self, dice: int) -> float:
        """Chance (a float) that a plain roll of ``dice`` dice busts, resolved well; memoised for bots."""
        spaces = self.open_spaces
        return _float_bust_chance(dice, tuple(spaces[v] for v in range(1, 7)), self.limit - self.yard)


@lru_cache(maxsize=1 << 16)
def _float_bust_chance(dice: int, spaces: tuple[int, ...], headroom: int) -> float:
    """The float sum, over a roll's outcomes in ``float_distribution`` order, of those burying more than headroom."""
    total = 0.0
    for buried, p in _burials(dice, spaces):
        if buried > headroom:
            total += p
    return total


@lru_cache(maxsize=1 << 10)
def _burials(dice: int, spaces: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    """Each outcome's spots buried when resolved well, with its chance: one pass serves every yard total."""
    out = []
    for counts, p in _counted(dice):
        buried = 0
        for v, (n, room) in enumerate(zip(counts, spaces, strict=True), start=1):
            if n > room:
                buried += v * (n - room)
        out.append((buried, p))
    return tuple(out)


@lru_cache(maxsize=32)
def _counted(dice: int) -> list[tuple[tuple[int, ...], float]]:
    """Each outcome of ``dice`` dice as its count of each face 1-6, with its chance (``float_distribution`` order):
    counted once per number of dice, not once per position the bots ask about."""
    return [(tuple(faces.count(v) for v in range(1, 7)), p) for faces, p in float_distribution(dice)]


def outcomes(k: int, seed: int = 0) -> tuple[list[tuple[tuple[int, ...], Fraction | float]], str]:
    """The outcomes of k dice with probabilities, exactly or (above EXACT_LIMIT) sampled."""
    if k <= EXACT_LIMIT:
        return list(roll_distribution(k)), "exact"
    rng = random.Random(seed)
    counts = Counter(tuple(sorted(rng.randint(1, 6) for _ in range(k))) for _ in range(SAMPLES))
    return [(faces, n / SAMPLES) for faces, n in counts.items()], "sampled"


def bust_probability(state: State, dice: int, rerolls: int = 0, seat: int | None = None) -> Fraction | float:
    """Probability that rolling ``dice`` dice busts the player, resolving well.

    ``rerolls``: treats the player will spend on a roll that would bust (each reroll is a
    fresh roll of all the dice), so the chance is p ** (rerolls + 1).
    """
    pos = Position.of(state, seat)
    dist, _ = outcomes(dice)
    p = sum((prob for faces, prob in dist if pos.busts(faces)), Fraction(0))
    return p ** (rerolls + 1)


def yard_distribution(state: State, dice: int, seat: int | None = None) -> dict[int | str, Fraction | float]:
    """Distribution of the yard total after rolling ``dice`` dice resolved well; ``"bust"`` for busts."""
    pos = Position.of(state, seat)
    dist, _ = outcomes(dice)
    out: dict[int | str, Fraction | float] = {}
    for faces, prob in dist:
        total = pos.yard + pos.buried(faces)
        key: int | str = "bust" if total > pos.limit else total
        out[key] = out.get(key, 0) + prob
    return dict(sorted(out.items(), key=lambda kv: (isinstance(kv[0], str), kv[0])))


def fill_probability(state: State, dog: str, dice: int, seat: int | None = None) -> dict[str, Fraction | float]:
    """For a roll of ``dice`` dice: the chance it completes ``dog`` and the chance it fits it at all."""
    seat = state.seat if seat is None else seat
    target = next(d for d in state.players[seat].dogs if d.name == dog)
    empty = set(target.empty_spaces())
    dist, _ = outcomes(dice)
    completes = sum((p for faces, p in dist if empty and empty <= set(faces)), Fraction(0))
    fits = sum((p for faces, p in dist if empty & set(faces)), Fraction(0))
    return {"completes": completes, "fits": fits}


def trick_fill_chances(state: State, trick: str, dog: str, seat: int | None = None) -> list[dict[str, object]]:
    """Each rolling step of a trick, with the chance that its (first) roll completes or fits ``dog``."""
    rows: list[dict[str, object]] = []
    seat = state.seat if seat is None else seat
    probe = state.clone()
    probe.seat = seat
    if probe.work is not None:
        probe.work.rolls_in_step = 0
    for index, step in enumerate(TILES[trick].steps):
        if step.kind != "roll":
            continue
        dice = probe.roll_size(step, planning=True)  # the engine's own count, supply included
        if dice == 0:
            continue
        rows.append({"step": index + 1, "dice": dice, **fill_probability(state, dog, dice, seat)})
    return rows


def reroll_value(state: State) -> dict[str, Fraction | float]:
    """At a fresh roll: bust chance and expected dice placed, keeping the roll versus rerolling it."""
    roll = state.roll
    if roll is None or not roll.dice:
        raise ValueError("there is no roll in hand to reroll")
    pos = Position.of(state)

    def placed(faces: tuple[int, ...]) -> int:
        return sum(min(n, pos.open_spaces[v]) for v, n in Counter(faces).items())

    now = tuple(roll.dice)
    dist, _ = outcomes(roll.size)
    return {
        "keep_bust": Fraction(int(pos.busts(now))),
        "keep_placed": Fraction(placed(now)),
        "reroll_bust": sum((p for faces, p in dist if pos.busts(faces)), Fraction(0)),
        "reroll_placed": sum((p * placed(faces) for faces, p in dist), Fraction(0)),
    }
