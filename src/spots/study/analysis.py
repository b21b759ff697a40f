"""The numbers of each kind of study, computed from the game rows (plain dicts, one per game)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from .stats import Estimate, proportion, rating_intervals

Row = dict[str, Any]


def by_config(rows: Sequence[Row]) -> dict[int, list[Row]]:
    groups: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        groups[row["config"]].append(row)
    return dict(sorted(groups.items()))


def position_wins(rows: Sequence[Row], players: int) -> list[Estimate]:
    """Win rate by turn order: position 0 is the player who went first (draws count as shares)."""
    wins = [0.0] * players
    for row in rows:
        first = row["first_player"]
        for seat, share in enumerate(row["returns"]):
            wins[(seat - first) % players] += share
    return [proportion(w, len(rows)) for w in wins]


def ladder(rows: Sequence[Row], seed: int = 0) -> tuple[list[str], list[Estimate], dict[tuple[str, str], Estimate]]:
    """Bots on one Bradley-Terry scale (Elo points, mean 0), and each pair's head-to-head win rate."""
    names = sorted({name for r in rows for name in r["seats"]})
    index = {n: i for i, n in enumerate(names)}
    results = []
    pairs: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in rows:
        a, b = r["seats"][0], r["seats"][1]
        results.append((index[a], index[b], r["returns"][0]))
        key = (a, b) if a < b else (b, a)
        pairs[key].append(r["returns"][0] if a == key[0] else r["returns"][1])
    ratings = rating_intervals(results, len(names), seed=seed)
    head = {k: proportion(sum(v), len(v)) for k, v in pairs.items()}
    return names, ratings, head


def pooled(groups: dict[int, list[Row]], key: Callable[[list[Row]], Any]) -> dict[Any, list[Row]]:
    """Configurations' rows merged by a key of their rows (e.g. player count)."""
    out: dict[Any, list[Row]] = defaultdict(list)
    for rows in groups.values():
        if rows:
            out[key(rows)].extend(rows)
    return dict(sorted(out.items()))
