"""Solo Spots: how much keyed (duplicate) dice narrow a comparison of two bots, for the same number of games.

    python benchmarks/solo_pairs.py [--deals 100] [--bots greedy,mcts] [--tricks beginner]

Each deal d is played once by each bot, two ways: on independent seeded dice (``random.Random(f"pair:{d}:a")``
for the first bot, ``...:b`` for the second) and on the deal's keyed dice (``KeyedDice(f"pair:{d}")``, the same
for both). The figure is the mean difference of their turns to the target, with its 95% normal interval over the
deals: where the two games of a deal share their luck, the spread of the difference, and the interval, shrink.

A second table says how much of a game's spread the dice of a deal hold at all: the second bot's turns over
``--deals`` seeds on one keyed deal, against the same number of deals (one game each). If keying the dice held
the luck, the first spread would be much the smaller. A figure, not a test: nothing here can fail.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from spots.core.play import play_out
from spots.games.spots import Rules, State
from spots.games.spots.bots import BOTS
from spots.games.spots.keyed import KeyedDice


def turns(rules: Rules, bot: str, seed: int, dice: random.Random) -> int:
    return play_out(State(rules), [BOTS[bot](seed=seed)], dice).turn


def interval(xs: list[int]) -> tuple[float, float, float]:
    mean = statistics.fmean(xs)
    half = 1.959964 * statistics.stdev(xs) / math.sqrt(len(xs))
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--bots", default="greedy,mcts")
    parser.add_argument("--tricks", default="beginner")
    args = parser.parse_args()
    first, second = args.bots.split(",")
    rules = Rules(players=1, tricks=args.tricks, keyed_dice="on")
    independent, keyed = [], []
    for d in range(args.deals):
        independent.append(turns(rules, first, d, random.Random(f"pair:{d}:a"))
                           - turns(rules, second, d, random.Random(f"pair:{d}:b")))
        keyed.append(turns(rules, first, d, KeyedDice(f"pair:{d}")) - turns(rules, second, d, KeyedDice(f"pair:{d}")))
    print(f"{args.deals} deals, solo, tricks {args.tricks}: turns of {first} minus turns of {second}")
    for name, xs in (("independent dice", independent), ("keyed dice", keyed)):
        mean, low, high = interval(xs)
        print(f"  {name:<17} {mean:6.2f} turns, 95% interval [{low:.2f}, {high:.2f}], width {high - low:.2f}, "
              f"sd {statistics.stdev(xs):.2f}")
    one_deal = [turns(rules, second, seed, KeyedDice("pair:0")) for seed in range(args.deals)]
    many = [turns(rules, second, d, KeyedDice(f"pair:{d}")) for d in range(args.deals)]
    print(f"{second}'s turns, {args.deals} games each way")
    for name, xs in (("one keyed deal, seeds 0-" + str(args.deals - 1), one_deal), ("a deal per game", many)):
        print(f"  {name:<30} mean {statistics.fmean(xs):5.2f}, sd {statistics.stdev(xs):.2f}")


if __name__ == "__main__":
    main()
