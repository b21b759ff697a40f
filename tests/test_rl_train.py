"""Training (the train extra): a short MaskablePPO run logs, checkpoints, exports and reloads."""

from __future__ import annotations

import csv

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="the train extra (sb3-contrib, PyTorch) is not installed")

import torch
from sb3_contrib import MaskablePPO

from spots.cli import main as cli_main
from spots.rl import observation
from spots.rl.gym_env import SpotsEnv
from spots.rl.policy import HEAD_IDS, NumpyPolicy
from spots.rl.train import CSV_FIELDS, TrainConfig, TrainingView, train


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ppo")
    config = TrainConfig(steps=256, seed=3, out=str(out), envs=2, target=1, eval_every=128, eval_games=2,
                         n_steps=64, batch_size=64, epochs=1, net=[16])
    train(config)
    return out


def test_a_short_run_logs_each_evaluation_with_wilson_intervals(run):
    rows = list(csv.DictReader((run / "progress.csv").open()))
    assert tuple(rows[0]) == CSV_FIELDS
    assert [int(r["steps"]) for r in rows][:2] == [128, 256]
    for r in rows:
        for bot in ("random", "greedy"):
            low, rate, high = (float(r[f"win_{bot}{s}"]) for s in ("_low", "", "_high"))
            assert 0 <= low <= rate <= high <= 1 and high - low > 0.3  # 2 games: a wide interval


def test_the_checkpoint_reloads_and_the_exported_policy_acts_like_it(run):
    model = MaskablePPO.load(run / "checkpoint.zip", device="cpu")
    policy = NumpyPolicy.load(run / "policy.npz")
    assert policy.meta["steps"] == 256 and policy.meta["target"] == 1
    env = TrainingView(SpotsEnv(players=2, opponents="greedy", target=2))
    obs, info = env.reset(seed=8)
    raw = env.unwrapped
    for _ in range(40):
        mask = env.action_masks()
        if not mask.any():
            break
        torch_action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.as_tensor(obs[None]))
            torch_logits = dist.distribution.logits.numpy()[0]
        numpy_logits = policy.logits(observation.encode(raw.state, raw.seat))
        # The same network: the same logits up to float rounding, and the same move.
        assert np.allclose(torch_logits - torch_logits.max(), numpy_logits - numpy_logits.max(), atol=1e-4)
        assert policy.act(observation.encode(raw.state, raw.seat), info["action_mask"]) == HEAD_IDS[int(torch_action)]
        obs, _, terminated, truncated, info = env.step(int(torch_action))
        if terminated or truncated:
            break


def test_spots_train_resumes_from_its_checkpoint(run, capsys):
    code = cli_main(["train", "--steps", "64", "--out", str(run), "--resume", "--envs", "2", "--n-steps", "32",
                     "--batch-size", "32", "--eval-every", "64", "--eval-games", "1", "--target", "1"])
    assert code == 0
    assert "results in" in capsys.readouterr().out
    assert int(list(csv.DictReader((run / "progress.csv").open()))[-1]["steps"]) >= 256 + 64
    assert MaskablePPO.load(run / "checkpoint.zip", device="cpu").num_timesteps >= 256 + 64
