"""The watch for assistance: whose rated play is closer to the advisor's than an honest player's should be.

Why agreement: a player who copies the advisor's moves (``spots hint`` on a copied position, beside the game)
plays the coach's first choice at almost every decision, and the coach's report of each game already says, per
person, how many of their decisions were not forced (``PlayerSummary.decisions``), how many of those were the
advisor's first choice (``agreed``) and the equity they lost (``lost``). The watch pools an account's recent rated
games and asks one question: is its agreement with the advisor, less its statistical doubt, above the agreement
of the strongest honest play we have measured (``CEILING``)? Games are the units of the doubt (decisions in one
game are not independent), so an account's interval widens when its games disagree with each other.

``CEILING`` and ``Z`` are chosen, and their error rates measured, by ``benchmarks/assistance_watch.py``:
docs/fairplay.md has the method and the figures. Listing is evidence for the host to read, never a verdict.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["CEILING", "MIN_GAMES", "RECENT", "Evidence", "Play", "Z", "pooled", "weigh"]

CEILING = 0.70  # the agreement of the strongest honest play measured (plain mcts), docs/fairplay.md
Z = 3.09  # one-sided: an honest account at the ceiling is listed about once in a thousand looks
MIN_GAMES = 5  # fewer rated games than this are never listed, whatever they show
RECENT = 50  # the rated games weighed: an account's latest


@dataclass(frozen=True)
class Play:
    """One person's play in one analysed game: their unforced decisions, the advisor's first choices among them
    and the equity they lost."""

    decisions: int
    agreed: int
    lost: float
    table: str = ""
    at: float = 0.0


@dataclass(frozen=True)
class Evidence:
    """An account's recent play as the watch weighs it (bounds one-sided, at ``Z``)."""

    games: int
    decisions: int
    agreement: float
    agreement_low: float  # the agreement less its doubt: listed when above the ceiling
    mean_lost: float  # equity lost per unforced decision
    lost_high: float  # ... and its upper bound
    listed: bool
    ceiling: float = CEILING


def pooled(plays: Sequence[Play], part: str) -> tuple[float, float]:
    """The pooled mean ``sum(part) / sum(decisions)`` and its standard error, with games as the units (the ratio
    estimator's variance over clusters): a game's decisions are not independent of each other.

    For a count of decisions (``agreed``) the error is never less than the binomial one over the decisions: from a
    handful of games the spread between games can come out smaller than chance alone allows (a pure ``mcts``
    account was listed that way in the benchmark, docs/fairplay.md)."""
    total = sum(p.decisions for p in plays)
    if total == 0:
        return 0.0, 0.0
    values = [float(getattr(p, part)) for p in plays]
    mean = sum(values) / total
    n = len(plays)
    if n < 2:
        return mean, math.inf
    spread = sum((v - mean * p.decisions) ** 2 for v, p in zip(values, plays, strict=True))
    error = math.sqrt(n / (n - 1) * spread) / total
    if part == "agreed":
        error = max(error, math.sqrt(mean * (1 - mean) / total))
    return mean, error


def weigh(plays: Sequence[Play], ceiling: float = CEILING, z: float = Z, min_games: int = MIN_GAMES,
          recent: int = RECENT) -> Evidence:
    """The evidence of an account's latest ``recent`` games (``plays`` oldest first); games without an unforced
    decision say nothing and are left out."""
    kept = [p for p in plays if p.decisions > 0][-recent:]
    agreement, agreement_se = pooled(kept, "agreed")
    mean_lost, lost_se = pooled(kept, "lost")
    low = agreement - z * agreement_se
    return Evidence(len(kept), sum(p.decisions for p in kept), agreement, low, mean_lost, mean_lost + z * lost_se,
                    len(kept) >= min_games and low > ceiling, ceiling)
