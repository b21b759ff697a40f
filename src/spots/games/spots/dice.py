"""Exact distributions of dice rolls: a roll of k dice as sorted faces."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod


@lru_cache(maxsize=64)
def roll_distribution(k: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted outcome of k six-sided dice with its exact probability.

    The multinomial: an outcome with face counts c1..c6 has k!/(c1!...c6!) / 6^k.
    """
    total = 6**k
    out = []
    for faces in combinations_with_replacement(range(1, 7), k):
        ways = factorial(k) // prod(factorial(faces.count(v)) for v in set(faces))
        out.append((faces, Fraction(ways, total)))
    return tuple(out)


@lru_cache(maxsize=64)
def float_distribution(k: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """``roll_distribution`` with float probabilities, for bots that need speed over exactness."""
    return tuple((faces, float(p)) for faces, p in roll_distribution(k))


@lru_cache(maxsize=64)
def roll_outcomes(k: int) -> tuple[tuple[str, float], ...]:
    """The chance outcomes of a roll in notation, with float probabilities."""
    return tuple(("roll " + " ".join(map(str, faces)), float(p)) for faces, p in roll_distribution(k))


def faces_text(faces: list[int] | list[str] | tuple[int, ...]) -> str:
    return " ".join(map(str, faces))


@lru_cache(maxsize=8192)
def roll_text(faces: tuple[int, ...]) -> str:
    """The notation of a roll's sorted faces (``roll 1 3 3``), made once per outcome."""
    return "roll " + " ".join(map(str, faces))
