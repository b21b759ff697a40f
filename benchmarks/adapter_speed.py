"""Environment steps per second: each RL adapter next to the bare engine, on one core.

    python benchmarks/adapter_speed.py [--games 10] [--players 2] [--tricks beginner] [--runs 3]

Every row plays the same number of uniformly random games (masked random actions for
the adapters) with the same rules, and reports:

- steps/s: calls of the adapter's step (engine: ``apply_action`` of a decision;
  Gymnasium: ``env.step``, one agent decision, the other seats are ``random`` bots
  inside it; PettingZoo: ``env.step`` of any seat; OpenSpiel: ``apply_action`` on a
  decision node),
- decisions/s: every seat's decisions in the underlying game, the common unit,
- overhead: engine decisions/s divided by the adapter's decisions/s.

A second table gives the throughput of ``gymnasium.vector`` over ``Spots-v0`` (masked
random actions read from ``infos["action_mask"]``, ``random`` opponents, autoreset):
environment steps per second summed over the sub-environments, for 1, 2 and 8
environments, synchronous (one process) and asynchronous (one worker process each).

Median of ``--runs`` runs. A figure, not a test: nothing here can fail.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import gymnasium
import numpy as np
import pyspiel
from selfplay_speed import play_random_games  # a sibling script: benchmarks/ is on sys.path when run

import spots
import spots.rl

Result = tuple[float, int, int]  # seconds, steps, decisions


def _decisions(state: spots.State) -> int:
    """Player decisions in a finished game: its history without chance events."""
    return sum(1 for m in state.history() if not m.startswith(("roll", "reveal")))


def bench_engine(options: dict, games: int, seed: int) -> Result:
    """The bare engine: the self-play benchmark's random games (one step per decision)."""
    seconds, decisions, _chance = play_random_games(spots.Rules(**options), games, seed)
    return seconds, decisions, decisions


def bench_gym(options: dict, games: int, seed: int) -> Result:
    env = gymnasium.make("Spots-v0", opponents="random", **options).unwrapped
    rng = np.random.default_rng(seed)
    steps = decisions = 0
    start = time.perf_counter()
    for g in range(games):
        _, info = env.reset(seed=seed * 100_003 + g)
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            done = terminated or truncated
        decisions += _decisions(env.state)
    return time.perf_counter() - start, steps, decisions


def bench_pettingzoo(options: dict, games: int, seed: int) -> Result:
    env = spots.rl.aec_env(**options)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    for g in range(games):
        env.reset(seed=seed * 100_003 + g)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return time.perf_counter() - start, steps, steps


def bench_openspiel(options: dict, games: int, seed: int) -> Result:
    game = pyspiel.load_game("python_spots", options)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r, acc = rng.random(), 0.0
                action = outcomes[-1][0]
                for candidate, p in outcomes:
                    acc += p
                    if r < acc:
                        action = candidate
                        break
                state.apply_action(action)
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.integers(len(legal))])
                steps += 1
    return time.perf_counter() - start, steps, steps


def bench_vector(options: dict, num_envs: int, mode: str, steps: int, seed: int) -> float:
    """Steps per second of a vector env (all sub-environments together); startup not timed."""
    envs = gymnasium.make_vec("Spots-v0", num_envs=num_envs, vectorization_mode=mode, opponents="random", **options)
    rng = np.random.default_rng(seed)
    _, infos = envs.reset(seed=seed)
    calls = max(1, steps // num_envs)
    start = time.perf_counter()
    for _ in range(calls):
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in infos["action_mask"]]
        _, _, _, _, infos = envs.step(np.array(actions))
    seconds = time.perf_counter() - start
    envs.close()
    return calls * num_envs / seconds


BENCHES: dict[str, Callable[[dict, int, int], Result]] = {
    "engine (bare)": bench_engine,
    "gymnasium Spots-v0": bench_gym,
    "pettingzoo aec_env": bench_pettingzoo,
    "openspiel python_spots": bench_openspiel,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tricks", default="beginner")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--vector-steps", type=int, default=4000, help="steps per vector-env run (0: skip)")
    args = parser.parse_args()
    options = {"players": args.players, "tricks": args.tricks}
    print(f"{args.games} random games per run, {args.players} players, tricks {args.tricks}, runs {args.runs}")
    print(f"{'adapter':<24} {'steps/s':>10} {'decisions/s':>12} {'overhead':>9}")
    engine_rate = None
    for name, bench in BENCHES.items():
        rows = [bench(options, args.games, seed=run) for run in range(args.runs)]
        steps = statistics.median(s / t for t, s, _ in rows)
        decisions = statistics.median(d / t for t, _, d in rows)
        engine_rate = engine_rate or decisions
        print(f"{name:<24} {steps:>10.0f} {decisions:>12.0f} {engine_rate / decisions:>8.1f}x")
    if args.vector_steps > 0:
        print(f"\ngymnasium.vector over Spots-v0, {args.vector_steps} steps per run: steps/s (all envs together)")
        print(f"{'envs':<6} {'sync':>10} {'async':>10}")
        for num_envs in (1, 2, 8):
            rates = {mode: statistics.median(bench_vector(options, num_envs, mode, args.vector_steps, seed=run)
                                             for run in range(args.runs)) for mode in ("sync", "async")}
            print(f"{num_envs:<6} {rates['sync']:>10.0f} {rates['async']:>10.0f}")


if __name__ == "__main__":
    main()
