"""Which format lets the better player win: simulated Swiss events of bots of known strength.

Sixteen entrants in four groups of four (the strongest group first), five Swiss rounds, played many times. Each event
is played twice from the same seed, once with plain dice (every table its own) and once with duplicate dice (every
table of a round the same keyed deal, ``Dealing.deal``), and each is ranked twice, with the standard tie-breaks and
with the coach's luck as the first tie-break. What is measured, per way of playing: how often the event's winner is
from the strongest group, how many of the top four are, and the rank correlation (Spearman) of the final standings
with the true strength, each with its 95% interval. ``spots tournament study`` prints them (docs/tournaments.md).

A group is a bot of the project and a noise: ``greedy~0.2`` is greedy that plays a uniformly random legal move at
one decision in five (seeded), so strength can be set finely and cheaply (a greedy game is about 20 ms of CPU).
"""

from __future__ import annotations

import math
import random
import statistics
import zlib
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..arena import wilson
from ..core.bots import Bot
from ..core.games import get
from .pairing import swiss_round
from .scoring import DEFAULT_TIEBREAKS, GameResult, game_points, places, standings

DEFAULT_GROUPS = ("greedy", "greedy~0.1", "greedy~0.25", "greedy~0.5")
DICE = ("plain", "duplicate")
RANKINGS = {"standard": DEFAULT_TIEBREAKS, "luck first": ("luck", *DEFAULT_TIEBREAKS)}


class NoisyBot:
    """A bot that plays a uniformly random legal move at a share ``noise`` of its decisions (seeded)."""

    def __init__(self, bot: Bot, noise: float, seed: int) -> None:
        self.bot, self.noise, self.rng = bot, noise, random.Random(seed)
        self.name = f"{bot.name}~{noise:g}"

    def choose(self, state: Any) -> str:
        moves = state.legal_actions()
        if len(moves) > 1 and self.noise and self.rng.random() < self.noise:
            return self.rng.choice(moves)
        return self.bot.choose(state)


def make_entrant(group: str, seed: int, game: str = "spots") -> Bot:
    """The bot a group names: ``NAME`` or ``NAME~NOISE`` (a ValueError says what is wrong)."""
    name, _, noise = group.partition("~")
    try:
        share = float(noise) if noise else 0.0
    except ValueError:
        raise ValueError(f"a group is a bot name with an optional ~noise from 0 to 1, not {group!r}") from None
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"a group's noise is from 0 to 1, not {share:g} ({group!r})")
    bot = get(game).make_bot(name, seed=seed)
    return NoisyBot(bot, share, seed + 1) if share else bot


@dataclass(frozen=True)
class Study:
    """One study's settings: the groups (strongest first), entrants per group, rounds, seats a table."""

    groups: tuple[str, ...] = DEFAULT_GROUPS
    per_group: int = 4
    rounds: int = 5
    seats: int = 2
    seed: int = 1

    def entrants(self) -> list[str]:
        return [f"{g}#{i}" for g in range(len(self.groups)) for i in range(self.per_group)]


@dataclass(frozen=True)
class EventResult:
    """One simulated event: its dice, whether luck was measured, and the true group of each ranked entrant."""

    event: int
    dice: str
    luck: bool
    ranked: dict[str, list[int]]  # ranking name -> the true group of the entrants from first to last
    points: list[float]  # each group's mean points a game (byes left out): how strong the groups really played


def group_of(entrant: str) -> int:
    return int(entrant.split("#")[0])


def play_event(study: Study, event: int, dice: str, luck: bool) -> EventResult:
    """One Swiss event from its seed: the sign-up order is shuffled, each table played by the entrants' bots."""
    entrants = study.entrants()
    random.Random(f"{study.seed}:{event}:signup").shuffle(entrants)
    results: list[GameResult] = []
    for number in range(study.rounds):
        for index, table in enumerate(swiss_round(entrants, results, study.seats)):
            if table.bye:
                results.append(GameResult(number, table.players, (1,)))
                continue
            key = f"{study.seed}:{event}:{number}" + ("" if dice == "duplicate" else f":{index}")
            results.append(play_table(study, number, table.players, key, dice, luck))
    ranked, played = {}, [[0.0, 0] for _ in study.groups]
    for result in results:
        for player in result.players if not result.bye else ():
            played[group_of(player)][0] += game_points(result, player)
            played[group_of(player)][1] += 1
    for name, tiebreaks in RANKINGS.items():
        if name != "standard" and not luck:
            continue
        ranked[name] = [group_of(line.player) for line in standings(entrants, results, tiebreaks)]
    return EventResult(event, dice, luck, ranked, [total / max(1, games) for total, games in played])


def play_table(study: Study, number: int, players: Sequence[str], key: str, dice: str, luck: bool) -> GameResult:
    """One game at a table: the dice of the key (a duplicate deal or a table's own), the coach's luck if asked."""
    spec = get("spots")
    rules = spec.make_rules(players=len(players))
    if dice == "duplicate" and spec.dealing is not None:
        rules, roller = spec.dealing.deal(rules, key)
    else:
        roller = spec.table_dice(rules, random.Random(key))
    bots = [make_entrant(study.groups[group_of(p)], seed=zlib.crc32(f"{key}:{p}".encode())) for p in players]
    state = spec.new_state(rules)
    coach = _coach() if luck else None
    seat_luck = [0.0] * len(players)
    while not state.is_terminal():
        if state.is_chance_node():
            before = state.clone() if coach is not None else None
            outcome = state.sample_chance(roller)
            if coach is not None:
                expected, actual = coach.chance(before, outcome)
                seat_luck = [s + a - e for s, a, e in zip(seat_luck, actual, expected, strict=True)]
            continue
        state.apply_action(bots[state.current_player()].choose(state))
    summary = spec.summarize(state)
    outcome = spec.outcome(state)
    return GameResult(number, tuple(players), places(outcome.winner, summary.scores),
                      tuple(seat_luck) if coach is not None else None)


def _coach() -> Any:
    from ..games.spots.coach import evaluator

    return evaluator()


def _event_star(job: tuple[Study, int, str, bool]) -> EventResult:
    return play_event(*job)


def run_study(study: Study, events: int, luck_events: int, jobs: int = 1) -> list[EventResult]:
    """Every event under both dice; the first ``luck_events`` of each with the coach's luck measured."""
    if events < 1 or not 0 <= luck_events <= events:
        raise ValueError("events must be at least 1, and luck events from 0 to events")
    work = [(study, e, dice, e < luck_events) for e in range(events) for dice in DICE]
    if jobs <= 1:
        return [play_event(*job) for job in work]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_event_star, work, chunksize=1))


def spearman(groups_in_order: Sequence[int]) -> float:
    """Rank correlation of a final standing with the true strength (groups tied: mean ranks)."""
    n = len(groups_in_order)
    final = list(range(1, n + 1))
    true = _mean_ranks(groups_in_order)
    return _pearson(final, true)


def _mean_ranks(groups: Sequence[int]) -> list[float]:
    order = sorted(groups)
    first = {g: order.index(g) + 1 for g in set(groups)}
    count = {g: order.count(g) for g in set(groups)}
    return [first[g] + (count[g] - 1) / 2 for g in groups]


def _pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    return cov / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


@dataclass(frozen=True)
class Row:
    """One way of playing and ranking, over its events."""

    dice: str
    ranking: str
    events: int
    top: tuple[float, float, float]  # share of events won by the strongest group, with its Wilson interval
    top_four: tuple[float, float]  # mean strongest-group entrants in the top four, half-width of its 95% interval
    correlation: tuple[float, float]  # mean Spearman correlation, half-width of its 95% interval


def summarise(results: Sequence[EventResult], per_group: int) -> list[Row]:
    rows = []
    for dice in DICE:
        for ranking in RANKINGS:
            orders = [r.ranked[ranking] for r in results if r.dice == dice and ranking in r.ranked]
            if not orders:
                continue
            wins = sum(order[0] == 0 for order in orders)
            low, high = wilson(wins, len(orders))
            tops = [sum(g == 0 for g in order[:per_group]) for order in orders]
            rows.append(Row(dice, ranking, len(orders), (wins / len(orders), low, high), _mean_ci(tops),
                            _mean_ci([spearman(order) for order in orders])))
    return rows


def paired_differences(results: Sequence[EventResult]) -> dict[str, tuple[float, float]]:
    """Mean differences of the Spearman correlation over the same events (with 95% half-widths): duplicate minus
    plain dice (standard ranking), and luck first minus standard (each dice, the events with luck measured)."""
    by = {(r.event, r.dice): r for r in results}
    events = sorted({r.event for r in results})
    out = {}
    both = [e for e in events if (e, "plain") in by and (e, "duplicate") in by]
    out["duplicate - plain"] = _mean_ci([spearman(by[e, "duplicate"].ranked["standard"])
                                         - spearman(by[e, "plain"].ranked["standard"]) for e in both])
    for dice in DICE:
        lucky = [by[e, dice] for e in events if (e, dice) in by and "luck first" in by[e, dice].ranked]
        if lucky:
            out[f"luck first - standard ({dice})"] = _mean_ci(
                [spearman(r.ranked["luck first"]) - spearman(r.ranked["standard"]) for r in lucky])
    return out


def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.959964 * statistics.stdev(values) / math.sqrt(len(values))


def format_rows(study: Study, results: Sequence[EventResult], rows: Sequence[Row],
                differences: dict[str, tuple[float, float]]) -> str:
    groups = ", ".join(f"{i + 1}. {g}" for i, g in enumerate(study.groups))
    lines = [f"{len(study.groups) * study.per_group} entrants ({study.per_group} of each group, strongest first: "
             f"{groups}), {study.rounds} Swiss rounds at {study.seats} seats, seed {study.seed}",
             "",
             "| dice | ranking | events | strongest group wins (95% CI) | strongest in top 4 | Spearman |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        share, low, high = row.top
        lines.append(f"| {row.dice} | {row.ranking} | {row.events} | {share:.1%} [{low:.1%}, {high:.1%}] | "
                     f"{row.top_four[0]:.2f} ± {row.top_four[1]:.2f} | "
                     f"{row.correlation[0]:.3f} ± {row.correlation[1]:.3f} |")
    strength = [statistics.fmean(r.points[g] for r in results if r.dice == "plain") for g in range(len(study.groups))]
    lines += ["", "Each group's mean points a game (plain dice): " + ", ".join(
        f"{g} {p:.3f}" for g, p in zip(study.groups, strength, strict=True))]
    lines += ["", "Paired differences of the Spearman correlation (same events, 95% half-width):"]
    lines += [f"  {name}: {mean:+.3f} ± {half:.3f}" for name, (mean, half) in differences.items()]
    return "\n".join(lines)
