"""The numbers of each kind of study, computed from the game rows (plain dicts, one per game)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from .stats import Estimate, mean, proportion, rating_intervals

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


def bust_rate(row: Row) -> float:
    """Busts per turn in one game."""
    return sum(row["busts"]) / max(1, row["turns"])


def margin(row: Row) -> int:
    """The score spread: the winner's (or leader's) scored dogs minus the runner-up's."""
    scores = sorted(row["scores"], reverse=True)
    return scores[0] - scores[1] if len(scores) > 1 else scores[0]


def shape(rows: Sequence[Row]) -> dict[str, Estimate]:
    """How a configuration plays: length, bust rate, score spread, lead changes, games ended by the limit."""
    return {
        "turns": mean([r["turns"] for r in rows]),
        "bust_rate": mean([bust_rate(r) for r in rows]),
        "margin": mean([margin(r) for r in rows]),
        "lead_changes": mean([r["lead_changes"] for r in rows]),
        "first_wins": position_wins(rows, rows[0]["players"])[0] if rows else proportion(0, 0),
        "unfinished": proportion(sum(r["end_reason"] != "target" for r in rows), len(rows)),
    }


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
