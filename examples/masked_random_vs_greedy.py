"""Evaluate a masked random agent against the ``greedy`` bot in the Gymnasium environment.

    python examples/masked_random_vs_greedy.py [--episodes 100] [--players 2] [--seed 0]

The agent is the simplest baseline any learner must beat: uniform over the legal
actions, read from ``info["action_mask"]``. It takes a random seat each episode
(``seat=None``), the other seats are ``greedy`` bots. Prints the win rate (a shared
win at the safety turn limit counts its share) with a 95% interval.
"""

from __future__ import annotations

import argparse
import math

import gymnasium
import numpy as np

import spots.rl  # noqa: F401  (registers Spots-v0)


class MaskedRandomAgent:
    """Uniform over the legal actions; deterministic under its seed."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[self.rng.integers(len(legal))])


def evaluate(episodes: int, players: int, seed: int) -> tuple[float, float, int]:
    """(mean return, its standard error, total agent steps) over ``episodes`` games."""
    env = gymnasium.make("Spots-v0", players=players, seat=None, opponents="greedy")
    agent = MaskedRandomAgent(seed)
    returns, steps = [], 0
    for episode in range(episodes):
        obs, info = env.reset(seed=seed * 1_000_003 + episode)
        done, reward = False, 0.0
        while not done:
            obs, reward, terminated, truncated, info = env.step(agent.act(obs, info["action_mask"]))
            steps += 1
            done = terminated or truncated
        returns.append(float(reward))
    env.close()
    mean = sum(returns) / len(returns)
    var = sum((r - mean) ** 2 for r in returns) / max(1, len(returns) - 1)
    return mean, math.sqrt(var / len(returns)), steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    mean, se, steps = evaluate(args.episodes, args.players, args.seed)
    print(
        f"masked random vs greedy ({args.players} players, {args.episodes} episodes, seed {args.seed}): "
        f"win rate {mean:.3f} ± {1.96 * se:.3f} (parity {1 / args.players:.3f}), "
        f"{steps / args.episodes:.0f} agent steps per episode"
    )


if __name__ == "__main__":
    main()
