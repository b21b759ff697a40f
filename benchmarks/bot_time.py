"""Decision time of a Spots bot, per trick tile, over games with random trick sets.

    python benchmarks/bot_time.py [--bots expectimax-v1,expectimax] [--games 60] [--budget '{...}']

Each game seats the measured bot against greedy (2 players, seats alternating) with
its own random trick set (Howl, Roll Over and one random tile per colour, drawn from
``tricks_seed = game``), so every tile is met. A decision is filed under the tile
**whose trick is in progress** at that decision (the position involves that tile);
decisions at the start of a turn (which trick, or score) are filed under ``turn start``.
For each bot and tile the table prints the decisions timed, median, p99 and max in
milliseconds, and the slowest positions found (seed, game, decision) so they can be
replayed. Times are CPU time of this process (``time.process_time``, milliseconds): on
a shared, loaded machine wall-clock time measures the load. The bots to compare are timed
on the same games in one run, so the figures are side by side. A figure, not a test.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from typing import Any

import spots
from spots.arena import percentile
from spots.bots import make
from spots.games.spots.state import State

Slowest = list[tuple[float, str, int]]


def time_game(name: str, options: dict[str, Any], game: int, seed: int) -> tuple[dict[str, list[float]], Slowest]:
    """Play one game of ``name`` against greedy; its decision times by tile, and its slowest decisions."""
    rules = spots.Rules(players=2, tricks="random", tricks_seed=game)
    state: State = spots.Game(rules).new_initial_state()
    me = game % 2
    bots = {me: make(name, seed=seed * 1000 + game, **options), 1 - me: make("greedy", seed=game)}
    rng = random.Random(f"{seed}:{game}")
    times: dict[str, list[float]] = defaultdict(list)
    slow: list[tuple[float, str, int]] = []
    decision = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        seat = state.current_player()
        if seat == me:
            tile = state.trick or "turn start"
            start = time.process_time()
            move = bots[seat].choose(state)
            spent = time.process_time() - start
            times[tile].append(spent)
            slow.append((spent, tile, decision))
        else:
            move = bots[seat].choose(state)
        state.apply_action(move)
        decision += 1
    slow.sort(reverse=True)
    return times, slow[:3]


def table(name: str, times: dict[str, list[float]]) -> str:
    lines = [f"## {name}", "", "| tile | decisions | median ms | p99 ms | max ms |", "|---|---:|---:|---:|---:|"]
    everything: list[float] = []
    for tile in sorted(times, key=lambda t: -max(times[t])):
        values = sorted(times[tile])
        everything += values
        lines.append(f"| {tile} | {len(values)} | {1000 * percentile(values, 0.5):.1f} | "
                     f"{1000 * percentile(values, 0.99):.1f} | {1000 * values[-1]:.1f} |")
    everything.sort()
    lines.append(f"| **all** | {len(everything)} | {1000 * percentile(everything, 0.5):.1f} | "
                 f"{1000 * percentile(everything, 0.99):.1f} | {1000 * everything[-1]:.1f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="expectimax-v1,expectimax", help="comma-separated bot names to time")
    parser.add_argument("--games", type=int, default=60, help="games per bot (each with its own random trick set)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", default="{}",
                        help='per-bot options as JSON, e.g. \'{"expectimax": {"nodes": 4000}}\'')
    args = parser.parse_args()
    budget = json.loads(args.budget)
    names = args.bots.split(",")
    per_bot: dict[str, dict[str, list[float]]] = {n: defaultdict(list) for n in names}
    worst: dict[str, list[tuple[float, str, int, int]]] = {n: [] for n in names}
    for game in range(args.games):
        for name in names:  # interleaved, so both bots see the same load
            times, slow = time_game(name, budget.get(name, {}), game, args.seed)
            for tile, values in times.items():
                per_bot[name][tile] += values
            worst[name] += [(t, tile, game, d) for t, tile, d in slow]
    for name in names:
        print(table(name, per_bot[name]))
        print()
        print("slowest decisions (ms, tile, game, decision index):",
              ", ".join(f"{1000 * t:.0f} {tile} g{g} d{d}" for t, tile, g, d in sorted(worst[name], reverse=True)[:6]))
        print()


if __name__ == "__main__":
    main()
