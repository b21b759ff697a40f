"""How long the coach takes to analyse one finished game: median and p95 over several seeded games.

    PYTHONPATH=src python benchmarks/analysis_speed.py --games 5
    PYTHONPATH=src python benchmarks/analysis_speed.py --games 5 --against 31f62a7 --runs 2

``--against REV`` runs the same on that commit's tree too, alternating (``benchmarks/against.py``), so the
coach before and after a change is measured side by side on one machine.

Games are played by greedy bots from seeds 0, 1, ... (default rules: Spots to 6 dogs with 2 and 4
players, Double Spot on its 8x5 frame); each is analysed with a fresh evaluator (no cache carried
over), as the server would for a new game. Wall-clock and CPU seconds are both printed: on a shared,
loaded machine the CPU time is what the analysis costs. The figures are in docs/analysis.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from spots.analysis import analyse
from spots.core import games
from spots.core.play import play_out

CASES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("Spots, 2 players", "spots", {"players": 2}),
    ("Spots, 4 players", "spots", {"players": 4}),
    ("Double Spot", "double-spot", {}),
)


def greedy_record(game: str, options: dict[str, Any], seed: int) -> Any:
    spec = games.get(game)
    state = spec.new_state(spec.make_rules(**options))
    seats = [spec.make_bot("greedy", seed=seed * 10 + s) for s in range(spec.seats(state.rules))]
    rng = random.Random(seed)
    play_out(state, seats, rng)
    return spec.record(state)


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games of each kind")
    parser.add_argument("--against", metavar="REV", help="measure this commit's coach too, alternating")
    parser.add_argument("--runs", type=int, default=1, help="with --against: runs of each")
    args = parser.parse_args()
    if args.against:
        from against import alternate

        alternate(args.against, "benchmarks/analysis_speed.py", ["--games", str(args.games)], args.runs)
        return
    print(f"{'game':<18} {'games':>5} {'steps':>6} {'median s':>9} {'p95 s':>7} {'CPU median':>11} {'CPU p95':>8} "
          f"{'CPU ms/step':>12}")
    for title, game, options in CASES:
        walls, cpus, steps = [], [], []
        for seed in range(args.games):
            record = greedy_record(game, options, seed)
            wall, cpu = time.perf_counter(), time.process_time()
            analyse(record)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            steps.append(len(record.moves))
        per_step = 1000 * sum(cpus) / sum(steps)
        print(f"{title:<18} {args.games:>5} {statistics.median(steps):>6.0f} {statistics.median(walls):>9.2f} "
              f"{p95(walls):>7.2f} {statistics.median(cpus):>11.2f} {p95(cpus):>8.2f} {per_step:>12.1f}", flush=True)


if __name__ == "__main__":
    main()
