"""Random self-play speed of the bare engine, on one core.

    python benchmarks/selfplay_speed.py [--games 200] [--players 2] [--tricks beginner] [--runs 5]

Prints, for each run and as the median over runs: games per second, decisions
per second (player moves), chance events per second, the mean number of
decisions per game, and decisions per CPU second (steadier on a shared machine).
A figure, not a test: nothing here can fail.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import spots


def play_random_games(rules: spots.Rules, games: int, seed: int) -> tuple[float, int, int]:
    """Play ``games`` uniformly random games; return (seconds, decisions, chance events)."""
    game = spots.Game(rules)
    decisions = chance = 0
    start = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed * 100_003 + g)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                chance += 1
            else:
                moves = state.legal_actions()
                state.apply_action(moves[int(rng.random() * len(moves))])
                decisions += 1
    return time.perf_counter() - start, decisions, chance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tricks", default="beginner")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rules = spots.Rules(players=args.players, tricks=args.tricks)
    rows = []
    for run in range(args.runs):
        cpu = time.process_time()
        seconds, decisions, chance = play_random_games(rules, args.games, seed=run)
        cpu = time.process_time() - cpu  # on a loaded machine, CPU time is steadier than the clock
        rows.append((args.games / seconds, decisions / seconds, chance / seconds, decisions / args.games,
                     decisions / cpu))
        print(
            f"run {run + 1}: {rows[-1][0]:8.1f} games/s  {rows[-1][1]:9.0f} decisions/s  "
            f"{rows[-1][2]:9.0f} chance events/s  {rows[-1][3]:7.1f} decisions/game  "
            f"{rows[-1][4]:9.0f} decisions/CPU-s"
        )
    med = [statistics.median(col) for col in zip(*rows, strict=True)]
    print(
        f"median of {args.runs} runs ({args.players} players, tricks {args.tricks}, {args.games} games each): "
        f"{med[0]:.1f} games/s, {med[1]:.0f} decisions/s, {med[2]:.0f} chance events/s, "
        f"{med[3]:.1f} decisions/game, {med[4]:.0f} decisions per CPU second"
    )


if __name__ == "__main__":
    main()
