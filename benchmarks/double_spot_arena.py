"""Double Spot arena: two bots play seeded games with seats rotated; the score comes with a Wilson interval.

    python benchmarks/double_spot_arena.py greedy random --games 1000
    python benchmarks/double_spot_arena.py mcts greedy --games 400 --jobs 2 --budget '{"mcts": {"iterations": 300}}'

Game ``g`` seats bot A at seat ``g % 2``; chance comes from ``Random(f"{seed}:{g}")`` and each
bot's seed from the game and seat, so a run is reproducible whatever ``--jobs`` is.
A draw counts half a win for each side.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from spots.arena import wilson
from spots.core import play_game
from spots.double_spot import Game, Rules
from spots.double_spot.bots import make


def play_one(job: tuple[str, str, int, int, dict[str, Any], dict[str, Any]]) -> tuple[float, int, float, bool, int]:
    """One game: bot A's points (1, 0.5, 0), the drops, the seconds it took, whether the board filled, cards won."""
    a, b, seed, game, budget, options = job
    names = [a, b] if game % 2 == 0 else [b, a]
    bots = [make(name, seed=(seed * 1_000_003 + game) * 7 + s, **budget.get(name, {})) for s, name in enumerate(names)]
    start = time.perf_counter()
    state = play_game(Game(Rules(**options)).new_initial_state(), bots, random.Random(f"{seed}:{game}"))
    return (state.returns()[game % 2], state.turn, time.perf_counter() - start, state.end_reason == "full-board",
            sum(state.scores()))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--budget", default="{}", help='per-bot options as JSON, e.g. {"mcts": {"iterations": 300}}')
    parser.add_argument("--rules", default="{}", help='rules options as JSON, e.g. {"target": 3}')
    parser.add_argument("--progress", type=int, default=0,
                        help="with --jobs 1, print the running score every N games (a long run that is cut short "
                        "still says what it had)")
    args = parser.parse_args(argv)
    budget, options = json.loads(args.budget), json.loads(args.rules)
    work = [(args.a, args.b, args.seed, g, budget, options) for g in range(args.games)]
    start = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play_one, work, chunksize=4))
    else:
        results = []
        for job in work:
            results.append(play_one(job))
            if args.progress and len(results) % args.progress == 0:
                done = sum(r[0] for r in results)
                low, high = wilson(done, len(results))
                full = sum(r[3] for r in results)
                print(f"  after {len(results)} games: {args.a} scores {done / len(results):.3f} "
                      f"[{low:.3f}, {high:.3f}]; ended by the target {1 - full / len(results):.3f}", flush=True)
    points = sum(r[0] for r in results)
    wins = sum(r[0] == 1 for r in results)
    draws = sum(r[0] == 0.5 for r in results)
    low, high = wilson(points, len(results))
    seat0 = [r[0] for g, r in enumerate(results) if g % 2 == 0]
    print(f"{args.a} vs {args.b}: {len(results)} games (seed {args.seed}, seats rotated, budget {budget or 'default'})")
    print(f"  {args.a}: {wins} wins, {draws} draws, {len(results) - wins - draws} losses")
    print(f"  score {points / len(results):.3f}  95% Wilson [{low:.3f}, {high:.3f}]")
    print(f"  {args.a} as seat 0: {sum(seat0) / max(1, len(seat0)):.3f} over {len(seat0)} games")
    per_game = 1000 * sum(r[2] for r in results) / len(results)
    full = sum(r[3] for r in results)
    print(f"  games ended by a full board {full} ({full / len(results):.0%}); with no card won "
          f"{sum(r[4] == 0 for r in results)}; mean cards won per game {sum(r[4] for r in results) / len(results):.2f}")
    print(f"  mean drops per game {sum(r[1] for r in results) / len(results):.1f}; "
          f"{time.perf_counter() - start:.0f} s wall, {per_game:.0f} ms per game")


if __name__ == "__main__":
    main()
