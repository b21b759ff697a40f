"""Self-play speed of the bare engine (random or greedy play), on one core.

    python benchmarks/selfplay_speed.py [--games 200] [--players 2] [--tricks beginner] [--runs 5] [--bot greedy]
    python benchmarks/selfplay_speed.py --bot greedy --games 100 --runs 3 --against 6e3a621 --rounds 3

Prints, for each run and as the median over runs: games per second, decisions
per second (player moves), chance events per second, the mean number of
decisions per game, and decisions per CPU second (steadier on a shared machine).
``--bot greedy`` has both seats played by the greedy bot (its own thinking counts, as in a bot's game).

``--against REV``: this script, run alternately with this tree's engine and with commit REV's (its ``src`` first
on the path, from ``git archive``), ``--rounds`` times each, then the medians of both and their ratio, so a
change is measured beside a fixed baseline on one machine at once. A figure, not a test: nothing here can fail.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import spots


def play_games(rules: spots.Rules, games: int, seed: int, bot: str) -> tuple[float, int, int]:
    """Play ``games`` games, every seat random (uniform over the legal moves) or ``bot``; return (seconds,
    decisions, chance events)."""
    from spots import bots

    game = spots.Game(rules)
    decisions = chance = 0
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        seats = None if bot == "random" else [bots.make(bot, seed=g * 7 + s) for s in range(rules.players)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                chance += 1
            else:
                if seats is None:
                    moves = state.legal_actions()
                    state.apply_action(moves[int(rng.random() * len(moves))])
                else:
                    state.apply_action(seats[state.current_player()].choose(state))
                decisions += 1
    return time.perf_counter() - start, decisions, chance


def measure(args: argparse.Namespace) -> None:
    rules = spots.Rules(players=args.players, tricks=args.tricks)
    rows = []
    for run in range(args.runs):
        cpu = time.process_time()
        seconds, decisions, chance = play_games(rules, args.games, run, args.bot)
        cpu = time.process_time() - cpu  # on a loaded machine, CPU time is steadier than the clock
        rows.append((args.games / seconds, decisions / seconds, chance / seconds, decisions / args.games,
                     decisions / cpu))
        print(
            f"run {run + 1}: {rows[-1][0]:8.1f} games/s  {rows[-1][1]:9.0f} decisions/s  "
            f"{rows[-1][2]:9.0f} chance events/s  {rows[-1][3]:7.1f} decisions/game  "
            f"{rows[-1][4]:9.0f} decisions/CPU-s"
        )
    med = [statistics.median(col) for col in zip(*rows, strict=True)]
    print(
        f"median of {args.runs} runs ({args.players} players, tricks {args.tricks}, {args.bot} play, {args.games} "
        f"games each): {med[0]:.1f} games/s, {med[1]:.0f} decisions/s, {med[2]:.0f} chance events/s, "
        f"{med[3]:.1f} decisions/game, {med[4]:.0f} decisions per CPU second"
    )


def against(args: argparse.Namespace) -> None:
    """This script on this tree's engine and on REV's, alternating; the medians and their ratio."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from against import tree_at, with_src

    own = ["--games", str(args.games), "--players", str(args.players), "--tricks", args.tricks, "--runs",
           str(args.runs), "--bot", args.bot]
    here = Path(__file__).resolve().parent.parent / "src"
    found: dict[str, list[float]] = {"this tree": [], f"commit {args.against}": []}
    with tempfile.TemporaryDirectory(prefix="spots-against-") as tmp:
        trees = {"this tree": here, f"commit {args.against}": tree_at(args.against, Path(tmp)) / "src"}
        for k in range(1, args.rounds + 1):
            for name, src in trees.items():
                out = subprocess.run([sys.executable, __file__, *own], env=with_src(src), capture_output=True,
                                     text=True, check=True).stdout
                line = out.strip().splitlines()[-1]
                print(f"round {k}, {name}: {line}", flush=True)
                found[name].append(float(re.search(r"(\d+) decisions per CPU second", line).group(1)))  # type: ignore[union-attr]
    mine, theirs = (statistics.median(v) for v in found.values())
    print(f"median decisions per CPU second over {args.rounds} rounds: this tree {mine:.0f}, commit {args.against} "
          f"{theirs:.0f}; ratio {mine / theirs:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tricks", default="beginner")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bot", choices=("random", "greedy"), default="random", help="who plays every seat")
    parser.add_argument("--against", metavar="REV", help="measure commit REV's engine too, alternating")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs of each tree, alternating")
    args = parser.parse_args()
    against(args) if args.against else measure(args)


if __name__ == "__main__":
    main()
