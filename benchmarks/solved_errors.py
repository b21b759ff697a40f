"""Error rates against the optimum: each bot's equity lost per decision on the solved solitaire variants.

Each bot plays ``--games`` games of each variant (chance from ``--seed``); every decision it takes with two
or more legal moves is priced by the exact values of ``spots solve`` (``spots.games.spots.optimal``), the
way GNU Backgammon rates a player's moves against its engine: the mean loss per non-forced decision, in
expected turns to the target and in the chance of reaching it within ``--turns`` turns.

    PYTHONPATH=src python benchmarks/solved_errors.py --variant solo-1 --games 200
"""

from __future__ import annotations

import argparse
import time

from spots.bots import make
from spots.games.spots.optimal import error_rate, solution_for
from spots.games.spots.solve import VARIANTS

BOTS = ("random", "greedy", "mcts", "expectimax", "optimal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", default=[], choices=list(VARIANTS),
                        help="a solved variant (repeat; default solo-1)")
    parser.add_argument("--bots", default=",".join(BOTS), help=f"comma-separated bot names (default {','.join(BOTS)})")
    parser.add_argument("--games", type=int, default=100, help="games per bot and variant (default 100)")
    parser.add_argument("--turns", type=int, default=6, help="N of the within-N objective (default 6)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("| variant | bot | games | decisions | non-forced | errors | turns lost / decision "
          "| within-N chance lost / decision | turns lost / game | s / game |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for variant in args.variant or ["solo-1"]:
        solution_for(variant, args.turns)  # solved once, before the clock of the first bot starts
        for name in args.bots.split(","):
            bot = make(name, seed=args.seed, **({"objective": "turns"} if name == "optimal" else {}))
            start = time.perf_counter()
            rate = error_rate(variant, bot, name, args.games, args.seed, args.turns)
            seconds = (time.perf_counter() - start) / args.games
            turns, chance = rate.per_decision()
            print(f"| {variant} | {name} | {rate.games} | {rate.decisions} | {rate.unforced} | {rate.errors} "
                  f"| {turns:.4f} | {chance:.4f} | {rate.turns_lost / rate.games:.3f} | {seconds:.2f} |", flush=True)


if __name__ == "__main__":
    main()
