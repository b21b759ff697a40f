"""The statistics the reports quote: proportions, means and differences with 95% intervals, and a
Bradley-Terry rating scale fitted to pairwise results (intervals by bootstrap over games)."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964


@dataclass(frozen=True)
class Estimate:
    """A number with its 95% interval and the sample size behind it."""

    value: float
    low: float
    high: float
    n: int

    def excludes(self, x: float) -> bool:
        return not self.low <= x <= self.high

    def pct(self, digits: int = 1) -> str:
        return f"{100 * self.value:.{digits}f}% [{100 * self.low:.{digits}f}, {100 * self.high:.{digits}f}]"

    def num(self, digits: int = 2) -> str:
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def proportion(successes: float, n: int) -> Estimate:
    """A share with its Wilson score interval (sound near 0 and 1, unlike the normal one)."""
    if n == 0:
        return Estimate(float("nan"), 0.0, 1.0, 0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def mean(values: Sequence[float]) -> Estimate:
    """A mean with its normal-approximation interval (the samples here are thousands of games)."""
    n = len(values)
    if n == 0:
        return Estimate(float("nan"), float("nan"), float("nan"), 0)
    m = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(n) if n > 1 else float("inf")
    return Estimate(m, m - half, m + half, n)


def difference(a: Sequence[float], b: Sequence[float]) -> Estimate:
    """mean(a) - mean(b) with a Welch (unequal variances) normal interval."""
    if len(a) < 2 or len(b) < 2:
        return Estimate(float("nan"), float("nan"), float("nan"), len(a) + len(b))
    d = statistics.fmean(a) - statistics.fmean(b)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return Estimate(d, d - Z95 * se, d + Z95 * se, len(a) + len(b))


Result = tuple[int, int, float]  # (player i, player j, i's score: 1 win, 0.5 draw, 0 loss)


def bradley_terry(results: Sequence[Result], players: int, prior: float = 0.5,
                  iterations: int = 500) -> list[float]:
    """Bradley-Terry strengths by Hunter's MM algorithm, as Elo-scale ratings averaging 0.

    ``prior`` adds that many drawn games between every pair that met: it keeps a bot
    that won (or lost) every game at a finite rating.
    """
    wins = [0.0] * players
    games: dict[tuple[int, int], float] = {}
    for i, j, score in results:
        wins[i] += score
        wins[j] += 1 - score
        key = (min(i, j), max(i, j))
        games[key] = games.get(key, 0.0) + 1
    for key in games:
        games[key] += 2 * prior
        wins[key[0]] += prior
        wins[key[1]] += prior
    strength = [1.0] * players
    for _ in range(iterations):
        new = []
        for i in range(players):
            denom = sum(n / (strength[i] + strength[j if i == a else a])
                        for (a, j), n in games.items() if i in (a, j))
            new.append(wins[i] / denom if denom else strength[i])
        scale = math.exp(statistics.fmean(math.log(s) for s in new))
        strength = [s / scale for s in new]
    return [400 * math.log10(s) for s in strength]


def rating_intervals(results: Sequence[Result], players: int, resamples: int = 200,
                     seed: int = 0) -> list[Estimate]:
    """Bradley-Terry ratings with 95% percentile-bootstrap intervals (games resampled within each pair)."""
    point = bradley_terry(results, players)
    by_pair: dict[tuple[int, int], list[Result]] = {}
    for r in results:
        by_pair.setdefault((r[0], r[1]), []).append(r)
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(players)]
    for _ in range(resamples):
        resampled = [rng.choice(group) for group in by_pair.values() for _ in group]
        for i, rating in enumerate(bradley_terry(resampled, players, iterations=150)):
            samples[i].append(rating)
    out = []
    for i in range(players):
        s = sorted(samples[i])
        low, high = s[int(0.025 * (len(s) - 1))], s[int(0.975 * (len(s) - 1))]
        out.append(Estimate(point[i], min(low, point[i]), max(high, point[i]), len(results)))
    return out
