"""A long Spots arena with a fresh random trick set every game, logged game by game (resumable).

    python benchmarks/spots_arena.py --bots expectimax,greedy --games 2000 --log arena.jsonl --jobs 2
    python benchmarks/spots_arena.py --bots expectimax,greedy --games 2000 --log arena.jsonl --report

``spots arena`` plays one trick set per match; this plays game ``g`` with the
random set drawn from ``tricks_seed = g`` (Howl, Roll Over and one tile per
colour), seats rotated by ``g`` and the bots seeded as ``spots arena`` seeds them,
so every tile is met and a game is the same on any machine (with node budgets).
Each finished game is appended to ``--log`` as one JSON line (its seats, returns
and every decision's tile and time), so a run under load can be stopped and
resumed, and ``--report`` summarises whatever is done (``--paired OTHER_LOG`` also
compares the first bot game by game with an earlier log of the same seed): per bot the win rate with
its Wilson interval and the decision-time median, p99 and maximum, then the
maximum per tile (the tile whose trick is in progress; ``turn start`` for the
choice of trick). Times are CPU milliseconds of the process that played (``time.process_time``) on the machine
that ran it: load beside it still inflates them (shared caches and cores), less than it would wall-clock times.

``--rotate-deals`` pairs the games: game ``g`` plays deal ``g // players`` (its trick set and dice
seed), so every deal is played once in each seating and luck of the dice or of the trick set
falls on both bots alike (the games still differ once the bots' moves differ). ``--sprt P0,P1``
(two players) stops early when Wald's sequential test, on the first bot's results game by
game, decides between "it scores P0" and "it scores P1" (5% error each way, as Stockfish's
fishtest stops a clear match); the report says which and after how many games.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import spots
from spots.arena import hash_seed, percentile, seating, wilson
from spots.bots import make
from spots.study.play import parse_bot


def play(job: tuple[list[str], int, int, int, dict[str, Any], int]) -> dict[str, Any]:
    """One game: its seats, returns, and per seat the (tile, ms) of every decision with a choice."""
    names, players, seed, game, budget, deal = job
    rules = spots.Rules(players=players, tricks="random", tricks_seed=deal)
    seats = seating(names, players, game)
    bots = []
    for s, spec in enumerate(seats):  # a seat is a bot name, or name:key=value,... (as in studies)
        name, options = parse_bot(spec)
        bots.append(make(name, seed=hash_seed(seed, game, s), **{**budget.get(name, {}), **options}))
    rng = random.Random(f"{seed}:{deal}")
    state = spots.Game(rules).new_initial_state()
    times: list[list[tuple[str, float]]] = [[] for _ in seats]
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        seat = state.current_player()
        tile = state.trick or "turn start"
        choice = len(state.legal_actions()) > 1
        start = time.process_time()
        move = bots[seat].choose(state)
        if choice:
            times[seat].append((tile, round(1000 * (time.process_time() - start), 3)))
        state.apply_action(move)
    return {"game": game, "deal": deal, "seats": seats, "returns": state.returns(), "turns": state.turn,
            "times": times}


SPRT_ERROR = 0.05  # alpha = beta


def sprt(scores: list[float], p0: float, p1: float) -> tuple[float, str | None]:
    """Wald's log-likelihood ratio of "scores P1" against "scores P0" over the games' scores (0, 1, or a share),
    and the decision once it crosses a bound (None while it has not)."""
    win, loss = math.log(p1 / p0), math.log((1 - p1) / (1 - p0))
    llr = sum(x * win + (1 - x) * loss for x in scores)
    bound = math.log((1 - SPRT_ERROR) / SPRT_ERROR)
    if llr >= bound:
        return llr, f"H1: scores {p1:.0%} or more"
    if llr <= -bound:
        return llr, f"H0: scores {p0:.0%} or less"
    return llr, None


def first_bot_scores(games: list[dict[str, Any]], bot: str) -> list[float]:
    return [sum(r for name, r in zip(g["seats"], g["returns"], strict=True) if name == bot) for g in games]


def run(args: argparse.Namespace, names: list[str], budget: dict[str, Any]) -> None:
    log = Path(args.log)
    done = read(log) if log.exists() else {}
    deal = (lambda g: g // args.players) if args.rotate_deals else (lambda g: g)
    jobs = [(names, args.players, args.seed, g, budget, deal(g)) for g in range(args.games) if g not in done]
    scores = first_bot_scores([done[g] for g in sorted(done)], names[0])
    with log.open("a") as out, ProcessPoolExecutor(args.jobs) as pool:
        for result in pool.map(play, jobs, chunksize=1):
            out.write(json.dumps(result) + "\n")
            out.flush()
            scores += first_bot_scores([result], names[0])
            if args.sprt and sprt(scores, *args.sprt)[1]:
                pool.shutdown(wait=True, cancel_futures=True)
                break


def report(log: Path, test: tuple[float, float] | None = None, first: str | None = None) -> str:
    games = [g for _, g in sorted(read(log).items())]
    wins: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    times: dict[str, list[float]] = defaultdict(list)
    tiles: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for g in games:
        for s, name in enumerate(g["seats"]):
            seats[name] += 1
            wins[name] += g["returns"][s]
            for tile, ms in g["times"][s]:
                times[name].append(ms)
                tiles[name][tile] = max(tiles[name][tile], ms)
    lines = [f"{len(games)} games, {max(len(g['seats']) for g in games)} players, a random trick set each", "",
             "| bot | seats | wins | win rate | 95% CI (Wilson) | decisions | median ms | p99 ms | max ms |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name in sorted(seats, key=lambda n: -wins[n] / seats[n]):
        low, high = wilson(wins[name], seats[name])
        t = sorted(times[name])
        lines.append(f"| {name} | {seats[name]} | {wins[name]:.1f} | {wins[name] / seats[name]:.1%} | "
                     f"[{low:.1%}, {high:.1%}] | {len(t)} | {percentile(t, 0.5):.1f} | {percentile(t, 0.99):.1f} | "
                     f"{t[-1] if t else 0:.1f} |")
    paired_deals = by_deal(games, first) if first else None
    if paired_deals:
        lines += ["", paired_deals]
    if test and first:
        scores = first_bot_scores(games, first)
        for n in range(1, len(scores) + 1):
            llr, decided = sprt(scores[:n], *test)
            if decided:
                break
        lines += ["", f"SPRT {first}, P0 {test[0]:.0%} against P1 {test[1]:.0%} (5% errors): LLR {llr:.2f} after "
                      f"{n} games, " + (f"decided {decided}" if decided else "undecided")]
    lines += ["", "Slowest decision per tile (ms):", ""]
    every = sorted({tile for per in tiles.values() for tile in per})
    lines.append("| bot | " + " | ".join(every) + " |")
    lines.append("|---|" + "---:|" * len(every))
    for name in seats:
        lines.append(f"| {name} | " + " | ".join(f"{tiles[name].get(t, 0):.0f}" for t in every) + " |")
    return "\n".join(lines)


def by_deal(games: list[dict[str, Any]], bot: str) -> str | None:
    """With ``--rotate-deals``: ``bot``'s score per deal played in every seating, and its rate's interval from those.

    A deal (trick set and dice seed) played once in each seating puts its luck on both bots alike, so the deals'
    scores vary less than the games' when the deal decides much: the interval is then narrower than Wilson's.
    """
    players = len(games[0]["seats"])
    per: dict[int, list[float]] = defaultdict(list)
    for g in games:
        if "deal" in g:
            per[g["deal"]] += first_bot_scores([g], bot)
    whole = [sum(scores) for scores in per.values() if len(scores) == players]
    if len(whole) < 2:  # a log without --rotate-deals plays each deal once: none is whole
        return None
    rates = [score / players for score in whole]
    mean, half = statistics.fmean(rates), 1.96 * statistics.stdev(rates) / math.sqrt(len(rates))
    won, lost = sum(s == players for s in whole), sum(s == 0 for s in whole)
    return (f"By deal ({len(whole)} deals played in every seating): {bot} {mean:.1%} [{mean - half:.1%}, "
            f"{mean + half:.1%}] (normal interval over the deals' scores); won in every seating {won}, "
            f"lost in every seating {lost}, split {len(whole) - won - lost}")


def read(log: Path) -> dict[int, dict[str, Any]]:
    """A log's games by number (a gzipped log, as kept in docs/bots-logs, is read as it is)."""
    text = gzip.decompress(log.read_bytes()).decode() if log.suffix == ".gz" else log.read_text()
    return {g["game"]: g for g in map(json.loads, text.splitlines())}


def paired(log: Path, other: Path, bot: str) -> str:
    """``bot``'s results in two logs of the same --seed and --players, game by game.

    Game ``g`` has the same trick set, seats and dice seed in both, so where the two
    versions of a bot differ, it is in how they played the same games: the games one
    won and the other lost are what a sign test weighs.
    """
    mine, theirs = read(log), read(other)
    common = sorted(set(mine) & set(theirs))

    def won(game: dict[str, Any]) -> float:
        return sum(r for name, r in zip(game["seats"], game["returns"], strict=True) if name == bot)

    here = [won(mine[g]) for g in common]
    there = [won(theirs[g]) for g in common]
    better = sum(1 for a, b in zip(here, there, strict=True) if a > b)
    worse = sum(1 for a, b in zip(here, there, strict=True) if a < b)
    n = max(len(common), 1)
    return (f"{len(common)} games in both logs: {bot} won {sum(here):.0f} ({sum(here) / n:.1%}) in {log.name}, "
            f"{sum(there):.0f} ({sum(there) / n:.1%}) in {other.name}; won here and lost there: {better}, "
            f"lost here and won there: {worse}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", required=True,
                        help="bot names, one per seat (the last repeated), separated by '/' when a bot has options "
                             "(expectimax:weights=fitted/expectimax), else by commas")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget", default="{}",
                        help='per-bot options as JSON, e.g. \'{"expectimax": {"nodes": 3000}}\'')
    parser.add_argument("--log", required=True, help="the JSON-lines file the games are appended to")
    parser.add_argument("--report", action="store_true", help="only summarise the log")
    parser.add_argument("--paired", metavar="OTHER_LOG",
                        help="also compare, game by game, the first bot of --bots with its results in OTHER_LOG "
                             "(a log of the same --seed and --players, e.g. of an earlier version)")
    parser.add_argument("--rotate-deals", action="store_true",
                        help="game g plays deal g // players: every deal once in each seating")
    parser.add_argument("--sprt", type=lambda text: tuple(float(x) for x in text.split(",")), metavar="P0,P1",
                        help="stop when the sequential test decides between the first bot scoring P0 and P1")
    args = parser.parse_args()
    if args.sprt and (len(args.sprt) != 2 or not 0 < args.sprt[0] < args.sprt[1] < 1):
        parser.error(f"--sprt takes P0,P1 with 0 < P0 < P1 < 1 (e.g. 0.55,0.6), not {args.sprt}")
    names = args.bots.split("/" if "/" in args.bots else ",")
    if not args.report:
        run(args, names, json.loads(args.budget))
    print(report(Path(args.log), args.sprt, names[0]))
    if args.paired:
        print("\n" + paired(Path(args.log), Path(args.paired), names[0]))


if __name__ == "__main__":
    main()
