"""Re-check a random sample of a puzzle set with searches and play-outs much bigger than the ones that made it.

    python benchmarks/verify_puzzles.py [--sample 200] [--seed 0] [--file set.jsonl.gz]

For each sampled puzzle (the shipped Spots set by default): the turn search with the learned value three rolls
deep and 24 slices a big roll (against the coach's one roll and 6 slices; its size in positions valued is
measured against the coach's on the same position and printed), and 10,000 play-outs to the end of each of the
answer and the next best move on the same dice (ten times the coach's check). Prints how many answers the big
search also ranks first, how many leads the play-outs confirm (more than twice their standard error above 0), the
search's size against the coach's, and the puzzles it disagrees on. A figure, not a test: nothing here can fail.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
import zlib
from pathlib import Path

from spots.analysis.engine import EPSILON, move_values
from spots.core import games
from spots.fast.api import rollout_returns
from spots.games.spots.coach import CALIBRATION, TurnEnd, TurnSearch
from spots.games.spots.learned_value import shipped as shipped_model
from spots.games.spots.puzzles import BoundedSearch
from spots.puzzles.build import read_puzzles, shipped
from spots.puzzles.judge import TooBig

DEPTH, WIDTH, ROLLOUTS = 3, 24, 10_000
LIMIT = 200_000  # positions the big search may ask about for one puzzle (ten times the build's budget)


class Counted(TurnEnd):
    """The learned value at the turn's end, counting the positions it values."""

    calls = 0

    def __call__(self, state):  # type: ignore[no-untyped-def]
        self.calls += 1
        return super().__call__(state)


def positions_valued(search: TurnSearch) -> int:
    """Positions the search valued: those inside the turn (its memo) and those at the turn's end."""
    assert isinstance(search.turn_end, Counted)
    return sum(len(memo) for memo in search._memos.values()) + search.turn_end.calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--file", default=None, help="a puzzle file (default: the shipped Spots set)")
    args = parser.parse_args()
    spec = games.get("spots")
    puzzles = read_puzzles(Path(args.file)) if args.file else shipped("spots")
    sample = random.Random(args.seed).sample(puzzles, min(args.sample, len(puzzles)))
    model = shipped_model(None)
    agreed = confirmed = too_big = 0
    ratios, leads, seconds, disagreements = [], [], [], []
    for puzzle in sample:
        state = spec.load_state(puzzle.state)
        started = time.process_time()
        coach = TurnSearch(turn_end=Counted(model, CALIBRATION))  # the coach's evaluator at its own budget
        big = BoundedSearch(DEPTH, width=WIDTH, turn_end=Counted(model, CALIBRATION), limit=LIMIT)
        move_values(coach, state)
        runner_up = next(m for m, _ in puzzle.values if m not in puzzle.answers)
        try:
            values = move_values(big, state)
        except TooBig:
            too_big += 1
        else:
            ratios.append(positions_valued(big) / max(1, positions_valued(coach)))
            top = max(v[puzzle.seat] for v in values.values())
            ranked_first = {m for m, v in values.items() if top - v[puzzle.seat] <= EPSILON}
            if ranked_first & set(puzzle.answers):
                agreed += 1
            else:
                disagreements.append(f"{puzzle.id}: {puzzle.best} (big search: {sorted(ranked_first)})")
        seed = zlib.crc32(repr(state.key()).encode())
        children = []
        for move in (puzzle.best, runner_up):
            child = state.clone()
            child.apply_action(move)
            children.append(rollout_returns(child, ROLLOUTS, seed)[:, puzzle.seat])
        lost = children[0] - children[1]
        lead, error = float(lost.mean()), float(lost.std(ddof=1) / math.sqrt(len(lost)))
        leads.append(lead)
        confirmed += lead > 2 * error
        seconds.append(time.process_time() - started)
    n = len(sample)
    print(f"{n} puzzles sampled (seed {args.seed}) of {len(puzzles)}")
    print(f"the big search ({DEPTH} rolls, {WIDTH} slices) ranks the answer first: {agreed} of {n - too_big} "
          f"({too_big} beyond its budget of {LIMIT:,} positions)")
    print(f"{ROLLOUTS:,} play-outs each confirm the lead (> 2 standard errors above 0): {confirmed} of {n}; "
          f"median lead {statistics.median(leads):.3f}")
    print(f"positions valued by the big search against the coach's, median {statistics.median(ratios):.1f}x "
          f"(min {min(ratios):.1f}x, max {max(ratios):.1f}x); CPU {sum(seconds):.0f} s in all")
    for line in disagreements:
        print("  disagrees: " + line)


if __name__ == "__main__":
    main()
