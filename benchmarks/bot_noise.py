"""How much a search bot's ranking of one position depends on its seed (sampling noise).

    python benchmarks/bot_noise.py [--positions 40] [--seeds 3] [--bots "expectimax:sampling=random/expectimax"]

Positions with more than two legal moves are taken from seeded greedy games with random
trick sets (every fourth such position of six games, spread to ``--positions``). Each bot
ranks each position once per seed (1, 2, ...); the figures are how many positions got the
same best move from every seed, and the mean over positions of the largest spread of one
move's estimated win chance across seeds. A deterministic search would score every position
and a spread of 0; a figure, not a test.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import spots
from spots.bots import make
from spots.games.spots.state import State
from spots.study.play import parse_bot


def positions(count: int) -> list[State]:
    found: list[State] = []
    for game in range(6):
        rules = spots.Rules(players=2, tricks="random", tricks_seed=100 + game)
        state = spots.Game(rules).new_initial_state()
        rng, greedy, seen = random.Random(game), make("greedy"), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            if len(state.legal_actions()) > 2:
                if seen % 4 == 0:
                    found.append(state.clone())
                seen += 1
            state.apply_action(greedy.choose(state))
    return found[:: max(1, len(found) // count)][:count]


def noise(spec: str, states: list[State], seeds: int) -> tuple[int, float]:
    """(positions with one best move for every seed, mean largest spread of a move's value)."""
    name, options = parse_bot(spec)
    same, spread = 0, 0.0
    for state in states:
        bots: list[Any] = [make(name, seed=s, **options) for s in range(1, seeds + 1)]  # search bots: they rank
        ranks = [dict(bot.rank(state.clone())) for bot in bots]
        same += len({max(r, key=r.__getitem__) for r in ranks}) == 1
        spread += max(max(r[m] for r in ranks) - min(r[m] for r in ranks) for m in ranks[0])
    return same, spread / max(len(states), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--bots", default="expectimax:sampling=random/expectimax")
    args = parser.parse_args()
    states = positions(args.positions)
    print(f"| bot | positions | same best move from {args.seeds} seeds | mean largest spread of a value |")
    print("|---|---:|---:|---:|")
    for spec in args.bots.split("/"):
        same, spread = noise(spec, states, args.seeds)
        print(f"| {spec} | {len(states)} | {same} | {spread:.4f} |")


if __name__ == "__main__":
    main()
