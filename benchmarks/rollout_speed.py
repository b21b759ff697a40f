"""Rollout speed of the policy MCTS uses (the greedy bot), on one core.

    python benchmarks/rollout_speed.py [--games 200] [--players 2] [--runs 5]

Prints whole greedy-vs-greedy games per second, and MCTS-style rollouts per
second (from positions met in play, to the end of the current turn, scored with
the value function), each as the median over runs. A figure, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import spots
from spots.games.spots.greedy import GreedyBot
from spots.games.spots.value import evaluate


def whole_games(rules: spots.Rules, games: int, seed: int) -> float:
    policy = GreedyBot()
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(f"{seed}:{g}")
        state = spots.Game(rules).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_trusted(policy.choose(state))
    return games / (time.perf_counter() - start)


def turn_rollouts(rules: spots.Rules, positions: list[spots.State], seed: int) -> float:
    policy = GreedyBot()
    rng = random.Random(seed)
    start = time.perf_counter()
    for position in positions:
        state = position.clone()
        turn = state.turn
        while not state.is_terminal() and state.turn == turn:
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_trusted(policy.choose(state))
        for seat in range(rules.players):
            evaluate(state, seat)
    return len(positions) / (time.perf_counter() - start)


def sample_positions(rules: spots.Rules, count: int) -> list[spots.State]:
    policy = GreedyBot()
    rng = random.Random(0)
    out: list[spots.State] = []
    while len(out) < count:
        state = spots.Game(rules).new_initial_state()
        while not state.is_terminal() and len(out) < count:
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                out.append(state.clone())
                state.apply_trusted(policy.choose(state))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rules = spots.Rules(players=args.players)
    positions = sample_positions(rules, 2000)
    games, rollouts = [], []
    for run in range(args.runs):
        games.append(whole_games(rules, args.games, run))
        rollouts.append(turn_rollouts(rules, positions, run))
        print(f"run {run + 1}: {games[-1]:7.1f} greedy games/s   {rollouts[-1]:8.0f} turn rollouts/s")
    print(f"median of {args.runs} runs ({args.players} players, beginner set): "
          f"{statistics.median(games):.1f} whole greedy games/s, "
          f"{statistics.median(rollouts):.0f} MCTS turn rollouts/s")


if __name__ == "__main__":
    main()
