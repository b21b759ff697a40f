"""Training a Spots agent with masked PPO (``spots train``; the ``train`` extra).

The learner is sb3-contrib's ``MaskablePPO`` on PyTorch (CPU): it samples only legal
action ids, from the mask ``Spots-v0`` exposes as ``action_masks()``. The agent plays a
random seat of a 2-player game against opponents drawn per episode from a pool, with
the ``dense`` shaping of ``spots.rl.rewards`` unless told otherwise. At every evaluation
interval the run writes, into its output folder:

- ``progress.csv``: one row per evaluation (environment steps, seconds, win rates
  against ``random`` and ``greedy`` with 95% Wilson intervals, mean training return),
- ``checkpoint.zip`` (the whole MaskablePPO model, to resume or reload) and
  ``policy.npz`` (the policy network alone, for ``spots.rl.policy`` / ``bots.make("ppo")``),

so a run stopped early is usable up to its last evaluation.
"""

from __future__ import annotations

import csv
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from .. import bots as spots_bots
from ..arena import wilson
from ..games.spots import Game, Rules
from . import observation
from .gym_env import SpotsEnv
from .policy import HEAD_IDS, NumpyPolicy, PolicyBot
from .train_cli import MISSING

CSV_FIELDS = (
    "steps", "seconds", "episodes", "mean_return",
    "win_random", "win_random_low", "win_random_high",
    "win_greedy", "win_greedy_low", "win_greedy_high",
)


@dataclass
class TrainConfig:
    """Everything a run depends on (written next to its results as ``config.json``)."""

    steps: int = 200_000
    seed: int = 0
    out: str = "runs/ppo"
    envs: int = 8
    players: int = 2
    tricks: str = "beginner"
    target: int = 6
    opponents: list[str] = field(default_factory=lambda: ["random", "greedy"])
    shaping: str = "dense"
    eval_every: int = 50_000
    eval_games: int = 40
    n_steps: int = 256
    batch_size: int = 256
    epochs: int = 4
    learning_rate: float = 3e-4
    gamma: float = 0.99
    ent_coef: float = 0.01
    net: list[int] = field(default_factory=lambda: [128, 64])
    threads: int = 1


class TrainingView(gym.Wrapper):
    """What the learner sees, as ``NumpyPolicy`` does: the observation divided by its bounds (every
    input in [0, 1]) and the head's actions only (action ``k`` is id ``HEAD_IDS[k]``)."""

    def __init__(self, env: SpotsEnv) -> None:
        super().__init__(env)
        self.high = np.maximum(observation.high(env.rules), 1.0).astype(np.float32)
        self.observation_space = gym.spaces.Box(0.0, 1.0, shape=(observation.SIZE,), dtype=np.float32)
        self.action_space = gym.spaces.Discrete(len(HEAD_IDS))

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return obs / self.high, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(int(HEAD_IDS[int(action)]))
        return obs / self.high, float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The head's slice of the legal-action mask."""
        full = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return full[HEAD_IDS].astype(bool)


def make_env(config: TrainConfig, rank: int) -> Callable[[], gym.Env]:
    """A factory for the ``rank``-th training environment (seeded by the vector env's reset)."""

    def build() -> gym.Env:
        env = SpotsEnv(seat=None, opponent_pool=config.opponents, shaping=config.shaping,
                       players=config.players, tricks=config.tricks, target=config.target)
        return TrainingView(env)

    return build


def _monitored(build: Callable[[], gym.Env], monitor: Any) -> Callable[[], gym.Env]:
    """A factory wrapping the env in SB3's Monitor (which records episode returns for the log)."""
    return lambda: monitor(build())


def export_policy(model: Any, rules: Rules, meta: dict[str, Any]) -> NumpyPolicy:
    """The policy half of a MaskablePPO model as a numpy network (weights copied to CPU)."""
    import torch.nn as nn

    policy = model.policy
    layers = [m for m in policy.mlp_extractor.policy_net if isinstance(m, nn.Linear)] + [policy.action_net]
    acts = {type(m).__name__ for m in policy.mlp_extractor.policy_net if not isinstance(m, nn.Linear)}
    activation = {"Tanh": "tanh", "ReLU": "relu"}[acts.pop()] if acts else "tanh"
    weights = [layer.weight.detach().cpu().numpy() for layer in layers]
    biases = [layer.bias.detach().cpu().numpy() for layer in layers]
    return NumpyPolicy(weights, biases, activation, observation.high(rules), meta)


def win_rate(policy: NumpyPolicy, rules: Rules, opponent: str, games: int, seed: int) -> tuple[float, float, float]:
    """The policy's win rate (ties count their share) against a bot, seats rotated; with its Wilson interval."""
    wins = 0.0
    n = rules.players
    for g in range(games):
        seat = g % n
        rng = random.Random(f"{seed}:{g}")
        players: list[Any] = [spots_bots.make(opponent, seed=seed * 1_000_003 + g * 7 + s) for s in range(n)]
        players[seat] = PolicyBot(policy)
        state = Game(rules).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_action(players[state.current_player()].choose(state))
        wins += state.returns()[seat]
    low, high = wilson(wins, games)
    return wins / games, low, high


def _callback(config: TrainConfig, rules: Rules, out: Path, start: float) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class Evaluate(BaseCallback):
        """Every ``eval_every`` steps: evaluate, append to progress.csv, save the checkpoint and policy."""

        def __init__(self) -> None:
            super().__init__()
            self.next_eval = config.eval_every
            self.returns: list[float] = []
            self.episodes = 0

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", []):
                if "episode" in info:
                    self.returns.append(float(info["episode"]["r"]))
                    self.episodes += 1
            if self.num_timesteps >= self.next_eval:
                self.next_eval += config.eval_every
                evaluate(self.model, config, rules, out, start, self.episodes, self.returns)
                self.returns = []
            return True

    return Evaluate()


def evaluate(model: Any, config: TrainConfig, rules: Rules, out: Path, start: float,
             episodes: int, returns: list[float]) -> dict[str, float]:
    """One evaluation row: win rates against random and greedy; saves the checkpoint and the policy."""
    steps = int(model.num_timesteps)
    policy = export_policy(model, rules, {"steps": steps, "players": config.players, "tricks": config.tricks,
                                          "target": config.target,
                                          "shaping": config.shaping, "seed": config.seed})
    model.save(out / "checkpoint.zip")
    policy.save(out / "policy.npz")
    row: dict[str, float] = {"steps": steps, "seconds": round(time.perf_counter() - start, 1),
                             "episodes": episodes,
                             "mean_return": round(float(np.mean(returns)), 4) if returns else float("nan")}
    for bot in ("random", "greedy"):
        rate, low, high = win_rate(policy, rules, bot, config.eval_games, seed=config.seed + 1)
        row.update({f"win_{bot}": round(rate, 4), f"win_{bot}_low": round(low, 4), f"win_{bot}_high": round(high, 4)})
    path = out / "progress.csv"
    new = not path.exists()
    with path.open("a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        if new:
            writer.writeheader()
        writer.writerow(row)
    print(", ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    return row


def train(config: TrainConfig, resume: bool = False) -> Path:
    """Run MaskablePPO for ``config.steps`` steps; returns the output folder (see the module docstring)."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.monitor import Monitor
        from stable_baselines3.common.vec_env import DummyVecEnv
    except ImportError as exc:
        raise ImportError(f"{MISSING} ({exc})") from None
    import json

    torch.set_num_threads(config.threads)
    rules = Rules(players=config.players, tricks=config.tricks, target=config.target)
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "config.json").write_text(json.dumps(asdict(config), indent=2) + "\n")
    vec = DummyVecEnv([_monitored(make_env(config, i), Monitor) for i in range(config.envs)])
    vec.seed(config.seed)
    if resume and (out / "checkpoint.zip").exists():
        model = MaskablePPO.load(out / "checkpoint.zip", env=vec, device="cpu")
    else:
        model = MaskablePPO(
            "MlpPolicy", vec, seed=config.seed, device="cpu", verbose=0,
            n_steps=config.n_steps, batch_size=config.batch_size, n_epochs=config.epochs,
            learning_rate=config.learning_rate, gamma=config.gamma, ent_coef=config.ent_coef,
            policy_kwargs={"net_arch": {"pi": list(config.net), "vf": list(config.net)}},
        )
    start = time.perf_counter()
    model.learn(total_timesteps=config.steps, callback=_callback(config, rules, out, start),
                reset_num_timesteps=not resume)
    evaluate(model, config, rules, out, start, 0, [])
    return out
