"""The shipped trained policy as the ``ppo`` bot: numpy only, legal everywhere, in the arena; clear errors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import spots
from spots import bots
from spots.arena import run_match, summarise
from spots.rl.policy import HEAD_IDS, SHIPPED, NumpyPolicy
from support.bots import play  # bots play with every move checked by the engine


def test_the_shipped_policy_is_small_and_needs_only_numpy():
    assert SHIPPED.exists() and SHIPPED.stat().st_size < 4_000_000
    policy = NumpyPolicy.load(SHIPPED)
    assert policy.meta["steps"] > 0 and policy.weights[-1].shape[0] == len(HEAD_IDS)
    code = "import sys, spots.bots; spots.bots.make('ppo'); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"  # playing does not import PyTorch


def test_ppo_bot_plays_a_legal_game_to_the_end():
    state = play(spots.Rules(players=2), ["ppo", "greedy"], seed=4, max_moves=3000)
    assert state.is_terminal()
    assert state.history()  # a whole game, every move checked by the engine


@pytest.mark.parametrize("players,tricks", [(1, "beginner"), (3, "all"), (4, "dog-park")])
def test_ppo_bot_is_legal_in_other_seats_counts_and_tricks(players, tricks):
    play(spots.Rules(players=players, tricks=tricks, target=2), ["ppo"] * players, seed=players, max_moves=300)


def test_ppo_bot_in_the_arena_beats_random():
    results = run_match(spots.Rules(players=2), ["ppo", "random"], games=10, seed=7)
    rows = {r["bot"]: r for r in summarise(results)}
    assert rows["ppo"]["win_rate"] >= 0.8  # the full 1,000-game figure is in docs/rl.md


def test_ppo_bot_is_deterministic():
    rules = spots.Rules(players=2)
    assert play(rules, ["ppo", "random"], seed=5, max_moves=200).history() == \
        play(rules, ["ppo", "random"], seed=5, max_moves=200).history()


def test_a_missing_policy_file_says_how_to_make_one(tmp_path):
    with pytest.raises(FileNotFoundError, match="spots train"):
        bots.make("ppo", path=str(tmp_path / "none.npz"))


def test_without_numpy_the_ppo_bot_names_the_extra(monkeypatch):
    monkeypatch.delitem(sys.modules, "spots.rl.policy", raising=False)
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now fails
    with pytest.raises(ValueError, match=r"pip install 'spots\[rl\]'") as err:
        bots.make("ppo")
    assert isinstance(err.value, ImportError)


def test_numpy_policy_picks_only_legal_ids():
    policy = NumpyPolicy.load(SHIPPED)
    mask = np.zeros(spots.rl.NUM_ACTIONS, dtype=np.int8)
    mask[[189, 190]] = 1  # bury 1, bury 2
    assert policy.act(np.zeros(spots.rl.observation.SIZE, np.float32), mask) in (189, 190)
    with pytest.raises(ValueError, match="no legal action"):
        policy.act(np.zeros(spots.rl.observation.SIZE, np.float32), np.zeros_like(mask))
