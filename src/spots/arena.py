"""The arena: bots play many games of any registered game with seats rotated, in parallel, and the results
are measured.

Each game ``g`` of a match seats the bots in the order given, rotated by ``g``,
so every bot plays every seat equally often. Game ``g`` draws its dice from
``random.Random(f"{seed}:{g}")`` and its bots are seeded from the same pair,
so a match is the same on any machine and with any number of worker processes.
"""

from __future__ import annotations

import csv
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .core.files import atomic_write
from .core.games import get, spec_of_rules
from .core.play import Watch, play_out, seating
from .core.protocol import GameState


@dataclass
class GameResult:
    game: int
    seats: list[str]
    returns: list[float]
    winner: int | None
    turns: int
    busts: list[int] | None  # per seat, for games with busts (Spots)
    turns_taken: list[int]
    decision_times: list[list[float]] = field(repr=False)
    ending: str = ""  # how the game ended, in the game's words ("target reached", "board full, a draw", ...)


class Clock(Watch):
    """What the arena measures while a game is played: each seat's decision times and turns taken."""

    def __init__(self, seats: int) -> None:
        self.times: list[list[float]] = [[] for _ in range(seats)]
        self.turns_taken = [0] * seats

    def turn(self, state: GameState, seat: int) -> None:
        self.turns_taken[seat] += 1

    def move(self, state: GameState, seat: int, move: str, seconds: float) -> None:
        self.times[seat].append(seconds)


def play_one(rules: Any, names: list[str], seed: int, game: int, budget: dict[str, Any], kind: str = "",
             duplicate: bool = False) -> GameResult:
    """Game ``game`` of a match under ``rules`` (``kind``: the game's registry name; found from the rules if empty).

    ``duplicate``: the game's shared deals (``GameSpec.dealing``: Spots' keyed dice), one deal per round of seatings
    (``deal_of``), so the bots meet the same dice in every seat of the round.
    """
    spec = get(kind) if kind else spec_of_rules(rules)
    seats = seating(names, spec.seats(rules), game)
    players = [spec.make_bot(name, seed=hash_seed(seed, game, s), **budget.get(name, {}))
               for s, name in enumerate(seats)]
    clock = Clock(len(seats))
    if duplicate and spec.dealing is not None:
        rules, dice = spec.dealing.deal(rules, f"{seed}:{deal_of(game, spec.seats(rules))}")
    else:  # the game's own dice without --duplicate (Spots' keyed rules: a deal per game), from the same seed
        dice = spec.table_dice(rules, random.Random(f"{seed}:{game}"))
    state = play_out(spec.new_state(rules), players, dice, clock, spec.turn)
    end = spec.outcome(state)
    return GameResult(game, seats, state.returns(), end.winner, end.turns, end.busts, clock.turns_taken,
                      clock.times, end.ending)


def hash_seed(seed: int, game: int, seat: int) -> int:
    """A per-game, per-seat bot seed that does not depend on Python's string hashing."""
    return (seed * 1_000_003 + game) * 7 + seat


def deal_of(game: int, players: int) -> int:
    """The deal of a game: a round of ``players`` games (every seating of the rotation) shares one."""
    return game // players


def _play_star(job: tuple[Any, list[str], int, int, dict[str, Any], str, bool]) -> GameResult:
    return play_one(*job)


def run_match(
    rules: Any,
    names: list[str],
    games: int,
    seed: int = 0,
    jobs: int = 1,
    budget: dict[str, Any] | None = None,
    progress: bool = False,
    duplicate: bool = False,
) -> list[GameResult]:
    """Play ``games`` games of the game ``rules`` belong to; results come back in game order whatever ``jobs`` is.

    ``duplicate``: a shared deal per round of seatings (``play_one``), for a game that deals them
    (``GameSpec.dealing``).
    """
    spec = spec_of_rules(rules)
    if duplicate and spec.dealing is None:
        raise ValueError(f"--duplicate needs keyed dice, a rules option {spec.title} does not have (a game that "
                         "deals the same dice twice has a GameSpec.dealing)")
    players = spec.seats(rules)
    if not names or len(names) > players:
        raise ValueError(f"a match needs 1 to {players} bot names, got {names!r}")
    for name in names:
        if name not in spec.bots:
            raise ValueError(f"unknown bot {name!r}; the bots are: {', '.join(spec.bots)}")
    work = [(rules, names, seed, g, budget or {}, spec.name, duplicate) for g in range(games)]
    results: list[GameResult] = []
    bar = Progress(games) if progress else None
    if jobs <= 1:
        iterator: Iterator[GameResult] = map(_play_star, work)
        for result in iterator:
            results.append(result)
            if bar:
                bar.advance()
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for result in pool.map(_play_star, work, chunksize=max(1, min(8, games // (jobs * 8) or 1))):
                results.append(result)
                if bar:
                    bar.advance()
    if bar:
        bar.close()
    return results


class Progress:
    """A progress bar on standard error (rich's when it is installed, a plain line otherwise)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.done = 0
        self.start = time.perf_counter()
        try:
            from rich.progress import Progress as RichProgress
        except ImportError:
            self._rich = None
        else:
            self._rich = RichProgress(transient=True)
            self._rich.start()
            self._task = self._rich.add_task("games", total=total)

    def advance(self) -> None:
        self.done += 1
        if self._rich is not None:
            self._rich.advance(self._task)
        elif sys.stderr.isatty() or self.done == self.total or self.done % max(1, self.total // 20) == 0:
            elapsed = time.perf_counter() - self.start
            width = 30
            filled = width * self.done // self.total
            print(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games, {elapsed:.0f}s",
                  end="", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._rich is not None:
            self._rich.stop()
        else:
            print(file=sys.stderr)


def wilson(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[index]


def summarise(results: list[GameResult]) -> list[dict[str, Any]]:
    """One row per bot: seats played, wins, win rate and its Wilson interval, length, busts, times."""
    rows: dict[str, dict[str, Any]] = {}
    for r in results:
        for seat, name in enumerate(r.seats):
            row = rows.setdefault(name, {"bot": name, "seats": 0, "wins": 0.0, "turns": 0, "busts": 0,
                                         "game_turns": [], "times": []})
            row["seats"] += 1
            row["wins"] += r.returns[seat]
            row["turns"] += r.turns_taken[seat]
            if r.busts is None:
                row["busts"] = None
            elif row["busts"] is not None:
                row["busts"] += r.busts[seat]
            row["game_turns"].append(r.turns)
            row["times"].extend(r.decision_times[seat])
    out = []
    for row in rows.values():
        times = sorted(row.pop("times"))
        low, high = wilson(row["wins"], row["seats"])
        out.append({
            "bot": row["bot"],
            "seats": row["seats"],
            "wins": row["wins"],
            "win_rate": row["wins"] / row["seats"],
            "ci_low": low,
            "ci_high": high,
            "mean_game_turns": statistics.fmean(row.pop("game_turns")),
            "bust_rate": None if row["busts"] is None else row["busts"] / max(1, row["turns"]),
            "decisions": len(times),
            "median_ms": 1000 * percentile(times, 0.5),
            "p99_ms": 1000 * percentile(times, 0.99),
            "max_ms": 1000 * times[-1] if times else 0.0,
        })
    return out


def deal_intervals(results: list[GameResult], players: int) -> dict[str, tuple[float, float, float]]:
    """Each bot's mean score per deal (a round of ``players`` games) with its 95% normal interval over the deals.

    The same measure with or without duplicate dice, so their widths compare: with keyed dice a round's games
    share their luck and their scores are averaged before the spread is taken, as duplicate bridge does.
    """
    rounds: dict[str, dict[int, list[float]]] = {}
    for r in results:
        for seat, name in enumerate(r.seats):
            rounds.setdefault(name, {}).setdefault(deal_of(r.game, players), []).append(r.returns[seat])
    out = {}
    for name, by_deal in rounds.items():
        means = [statistics.fmean(v) for v in by_deal.values()]
        mean = statistics.fmean(means)
        half = 1.959964 * statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else math.inf
        out[name] = (mean, mean - half, mean + half)
    return out


def format_deals(results: list[GameResult], players: int) -> str:
    lines = [f"per deal (rounds of {players} games): mean score and 95% interval over the deals"]
    for name, (mean, low, high) in sorted(deal_intervals(results, players).items(), key=lambda kv: -kv[1][0]):
        lines.append(f"  {name:<12} {mean:.3f} [{low:.3f}, {high:.3f}] width {high - low:.3f}")
    return "\n".join(lines)


def format_table(rows: list[dict[str, Any]], results: list[GameResult]) -> str:
    header = (f"{'bot':<12} {'seats':>6} {'wins':>8} {'win rate':>9} {'95% CI (Wilson)':>17} {'turns/game':>11} "
              f"{'bust rate':>10} {'median ms':>10} {'p99 ms':>9} {'max ms':>9}")
    lines = [header, "-" * len(header)]
    for r in sorted(rows, key=lambda r: -r["win_rate"]):
        lines.append(
            f"{r['bot']:<12} {r['seats']:>6} {r['wins']:>8.1f} {r['win_rate']:>8.1%} "
            f"{'[' + format(r['ci_low'], '.1%') + ', ' + format(r['ci_high'], '.1%') + ']':>17} "
            f"{r['mean_game_turns']:>11.1f} {bust_rate(r['bust_rate']):>10} {r['median_ms']:>10.2f} "
            f"{r['p99_ms']:>9.1f} {r['max_ms']:>9.1f}"
        )
    lines.append(endings(results))
    lines.append("bust rate: busts per turn taken; times: per decision of that bot.")
    return "\n".join(lines)


def bust_rate(rate: float | None) -> str:
    return "-" if rate is None else format(rate, ".1%")


def endings(results: list[GameResult]) -> str:
    """How the games ended: the game's own words, counted (most common first), and the draws."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r.ending] = counts.get(r.ending, 0) + 1
    parts = [f"{n} {ending}" for ending, n in sorted(counts.items(), key=lambda kv: -kv[1])]
    ended = sum(1 for r in results if r.winner is not None)
    return (f"{len(results)} games, {ended} won outright, {len(results) - ended} not "
            f"(how they ended: {', '.join(parts)}).")


def write_results(results: list[GameResult], path: str | Path) -> None:
    """Raw per-game results, as JSON or (by the file's suffix) CSV."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            writer.writerow(["game", "seat", "bot", "return", "winner", "turns", "busts", "turns_taken",
                             "decisions", "mean_decision_ms"])
            for r in results:
                for seat, name in enumerate(r.seats):
                    t = r.decision_times[seat]
                    busts = "" if r.busts is None else r.busts[seat]
                    writer.writerow([r.game, seat, name, r.returns[seat], r.winner, r.turns, busts,
                                     r.turns_taken[seat], len(t), 1000 * statistics.fmean(t) if t else 0])
        return
    doc = [
        {**{k: v for k, v in asdict(r).items() if k != "decision_times"},
         "decisions": [len(t) for t in r.decision_times],
         "mean_decision_ms": [1000 * statistics.fmean(t) if t else 0 for t in r.decision_times]}
        for r in results
    ]
    atomic_write(path, json.dumps(doc, indent=1) + "\n")
