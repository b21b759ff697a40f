"""Where the coach's residual comes from: the gaps between one step's "after" and the next step's "before".

    PYTHONPATH=src python benchmarks/analysis_residual.py --games 12

The residual of a seat (result − start − luck − changes at decisions) is exactly the sum of these gaps
over the game: a position's chance as the step before valued it, against its chance derived from its own
children when its step is analysed. Two greedy bots play two-player Spots to 3 dogs (dice from 9000 + the
game's index, as the study's held-out games); the gaps of seat 0 are split into those where a turn ends and
those inside a turn, each with its mean (a lean) and its mean size. The figures are in docs/analysis.md.
"""

from __future__ import annotations

import argparse
import random

from spots.analysis import analyse
from spots.core import games
from spots.core.play import play_out


def gaps(index: int, target: int) -> tuple[list[float], list[float], float]:
    """One game's gaps at turn ends and inside turns, and its mean |residual| per seat."""
    spec = games.get("spots")
    state = spec.new_state(spec.make_rules(players=2, target=target))
    play_out(state, [spec.make_bot("greedy", seed=index * 2), spec.make_bot("greedy", seed=index * 2 + 1)],
             random.Random(9000 + index))
    report = analyse(spec.record(state, ["greedy", "greedy"]))
    steps, at_end, inside = report.steps, [], []
    for k, step in enumerate(steps):
        after_next = steps[k + 1].before if k + 1 < len(steps) else report.result
        ends_turn = k + 1 == len(steps) or steps[k + 1].turn != step.turn
        (at_end if ends_turn else inside).append(after_next[0] - step.after[0])
    return at_end, inside, sum(abs(p.residual) for p in report.players) / len(report.players)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--target", type=int, default=3)
    args = parser.parse_args()
    at_end: list[float] = []
    inside: list[float] = []
    residuals = []
    for index in range(args.games):
        ends, within, residual = gaps(index, args.target)
        at_end += ends
        inside += within
        residuals.append(residual)
    for title, values in (("where a turn ends", at_end), ("inside a turn", inside)):
        sizes = sum(abs(v) for v in values)
        print(f"{title:<18} {len(values):5d} steps: mean gap {sum(values) / len(values):+.4f}, mean size "
              f"{sizes / len(values):.4f}, sizes per game {sizes / args.games:.3f}")
    print(f"mean |residual| per seat and game: {sum(residuals) / len(residuals):.3f} over {args.games} games")


if __name__ == "__main__":
    main()
