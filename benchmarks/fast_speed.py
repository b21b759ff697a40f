"""The reference engine against the compiled batch simulator (spots.fast), random and greedy play.

    python benchmarks/fast_speed.py [--players 2] [--tricks beginner] [--runs 5]
        [--ref-games 20] [--ref-greedy-games 100] [--fast-games 20000] [--cold]

Prints, per row and as the median of ``--runs`` runs: games per second and decisions per
second (player moves). Rows: the engine on one core (random play is selfplay_speed.py's
loop; greedy seats are ``spots.bots.make("greedy")``), the simulator on one thread and on
every core Numba uses. Then the speed-ups. Compilation is timed apart: the first line is
the time to compile or load the compiled code from Numba's cache; ``--cold`` also compiles
from scratch in a child process with an empty cache. A figure, not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numba
from selfplay_speed import play_random_games  # a sibling script: benchmarks/ is on sys.path when run

import spots
from spots.bots import make
from spots.fast import play_games, warm_up

Row = tuple[float, float]  # games/s, decisions/s


def reference_greedy(rules: spots.Rules, games: int, seed: int) -> Row:
    """Greedy against greedy in the engine, through its public API."""
    bot = make("greedy")
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        state = spots.Game(rules).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_action(bot.choose(state))
                decisions += 1
    seconds = time.perf_counter() - start
    return games / seconds, decisions / seconds


def reference_random(rules: spots.Rules, games: int, seed: int) -> Row:
    seconds, decisions, _ = play_random_games(rules, games, seed)
    return games / seconds, decisions / seconds


def fast(rules: spots.Rules, policy: str, games: int, seed: int, threads: int) -> Row:
    numba.set_num_threads(threads)
    result = play_games(rules, [policy], games, seed=seed)
    return games / result.seconds, int(result.decisions.sum()) / result.seconds


def cold_compile_seconds() -> float:
    """Compile everything from scratch in a child process with an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        code = "from spots.fast import warm_up; print(warm_up())"
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tricks", default="beginner")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--ref-games", type=int, default=20, help="engine games per run, random play")
    parser.add_argument("--ref-greedy-games", type=int, default=100, help="engine games per run, greedy play")
    parser.add_argument("--fast-games", type=int, default=20000, help="simulator games per run")
    parser.add_argument("--cold", action="store_true", help="also time a compile with an empty cache")
    args = parser.parse_args()
    rules = spots.Rules(players=args.players, tricks=args.tricks)
    cores = numba.get_num_threads()
    print(f"compile or load from cache: {warm_up():.1f}s (Numba {numba.__version__}, {cores} threads)")
    if args.cold:
        print(f"compile from scratch (empty cache, child process): {cold_compile_seconds():.1f}s")
    rows = {
        "engine, random, 1 core": lambda run: reference_random(rules, args.ref_games, run),
        "fast, random, 1 thread": lambda run: fast(rules, "random", args.fast_games, run, 1),
        f"fast, random, {cores} threads": lambda run: fast(rules, "random", args.fast_games, run, cores),
        "engine, greedy, 1 core": lambda run: reference_greedy(rules, args.ref_greedy_games, run),
        "fast, greedy, 1 thread": lambda run: fast(rules, "greedy", args.fast_games, run, 1),
        f"fast, greedy, {cores} threads": lambda run: fast(rules, "greedy", args.fast_games, run, cores),
    }
    results: dict[str, list[Row]] = {name: [] for name in rows}
    for run in range(args.runs):  # interleaved, so load on the machine touches every row alike
        for name, measure in rows.items():
            results[name].append(measure(run))
    print(f"median of {args.runs} runs, {args.players} players, tricks {args.tricks}:")
    print(f"{'':<26} {'games/s':>12} {'decisions/s':>14}")
    medians = {}
    for name, values in results.items():
        medians[name] = tuple(statistics.median(col) for col in zip(*values, strict=True))
        print(f"{name:<26} {medians[name][0]:>12,.1f} {medians[name][1]:>14,.0f}")
    for policy in ("random", "greedy"):
        engine = medians[f"engine, {policy}, 1 core"][0]
        one = medians[f"fast, {policy}, 1 thread"][0] / engine
        every = medians[f"fast, {policy}, {cores} threads"][0] / engine
        print(f"{policy}: fast is {one:,.0f}x the engine's games/s on 1 thread, {every:,.0f}x on {cores}")


if __name__ == "__main__":
    main()
