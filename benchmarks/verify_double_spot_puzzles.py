"""Re-check a random sample of the Double Spot puzzles with a bigger search and new play-outs.

    python benchmarks/verify_double_spot_puzzles.py [--sample 100] [--playouts 2000] [--playout-sample 50]

For each sampled puzzle (seed 0; the shipped set by default): the deep search at twice the kit's nodes and one
turn deeper, which must rank one of the puzzle's answers first; then, for the first ``--playout-sample`` of them,
``--playouts`` play-outs of the answer and of the next best drop to the end of the game on other dice than the
build's check (the position's seed turned), whose lead must be more than twice its standard error. A figure, not a
test: nothing here can fail (``docs/puzzles.md`` quotes its output).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
import zlib
from collections import Counter
from pathlib import Path

from spots.analysis.engine import EPSILON, move_values
from spots.core import games
from spots.games.double_spot.coach import SearchChances
from spots.games.double_spot.puzzles import DEEP_DEPTH, DEEP_NODES, playouts
from spots.games.double_spot.search import SearchBot
from spots.puzzles.build import SHIPPED, read_puzzles


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--file", default=str(SHIPPED / "double-spot.jsonl.gz"))
    p.add_argument("--sample", type=int, default=100)
    p.add_argument("--nodes", type=int, default=2 * DEEP_NODES)
    p.add_argument("--depth", type=int, default=DEEP_DEPTH + 1)
    p.add_argument("--playouts", type=int, default=2000)
    p.add_argument("--playout-sample", type=int, default=50)
    a = p.parse_args()
    spec = games.get("double-spot")
    puzzles = read_puzzles(Path(a.file))
    sample = random.Random(0).sample(puzzles, min(a.sample, len(puzzles)))
    agreed, leads, reached, bad, started = 0, [], Counter(), [], time.process_time()
    for pz in sample:
        state = spec.load_state(pz.state)
        values = move_values(SearchChances(nodes=a.nodes, depth=a.depth), state)
        bot = SearchBot(seed=0, nodes=a.nodes, depth=a.depth, root_width=64)
        bot.rank(state)
        reached[bot.reached] += 1  # how many turns deep the big search got
        top = max(v[pz.seat] for v in values.values())
        first = {m for m, v in values.items() if top - v[pz.seat] <= EPSILON}
        runner_up = next(m for m, _ in pz.values if m not in pz.answers)
        leads.append(min(values[m][pz.seat] for m in pz.answers) - values[runner_up][pz.seat])
        if first & set(pz.answers):
            agreed += 1
        else:
            bad.append(f"{pz.id}: {pz.answers[:3]} margin {pz.margin:.3f}; big search: {sorted(first)[:3]}")
    n = len(sample)
    print(f"{n} sampled (seed 0) of {len(puzzles)}; big search {a.nodes} nodes, {a.depth} turns (turns reached: "
          f"{dict(sorted(reached.items()))})")
    print(f"ranks an answer first: {agreed} of {n}; the answer's lead over the next best by the big search: median "
          f"{statistics.median(leads):.3f}, below 0: {sum(x < 0 for x in leads)}, at least 0.04: "
          f"{sum(x >= 0.04 for x in leads)}; CPU {time.process_time() - started:.0f} s")
    for line in bad:
        print("  disagrees:", line)
    confirmed, found, started = 0, [], time.process_time()
    for pz in sample[:a.playout_sample]:
        state = spec.load_state(pz.state)
        runner_up = next(m for m, _ in pz.values if m not in pz.answers)
        seed = zlib.crc32(repr(state.key()).encode()) ^ 0x5BD1E995  # other dice than the build's check
        best, other = (playouts(state, m, a.playouts, seed) for m in (pz.best, runner_up))
        lost = [x[pz.seat] - y[pz.seat] for x, y in zip(best, other, strict=True)]
        mean, error = statistics.fmean(lost), statistics.stdev(lost) / math.sqrt(len(lost))
        found.append(mean)
        confirmed += mean > 2 * error
    if found:
        print(f"{a.playouts} play-outs each on {len(found)}: the lead confirmed (> 2 SE) in {confirmed} of "
              f"{len(found)}; median lead {statistics.median(found):.3f}; CPU {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
