"""Spots-v0's reward shaping, opponent pool and vectorised use (gymnasium.vector, sync and async)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import spots.rl
from spots.rl import rewards
from spots.rl.actions import action_mask
from spots.rl.gym_env import SpotsEnv

ALL_TERMS = {"win": 1.0, "scored": 0.5, "dice_on_dogs": 0.03, "yard": -0.007, "bust": -0.25, "turn": -0.011}


def play(env: SpotsEnv, seed: int, action_seed: int = 0) -> tuple[float, rewards.Counts, rewards.Counts, list[str]]:
    """One masked-random episode: (reward sum, counts at reset, counts at the end, the game's history)."""
    rng = np.random.default_rng(action_seed)
    _, info = env.reset(seed=seed)
    start = rewards.counts(env.state, env.seat)
    total, done = 0.0, False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        total += reward
        done = terminated or truncated
    return total, start, rewards.counts(env.state, env.seat), env.state.history()


@pytest.mark.parametrize("seed", [1, 2])
def test_shaped_reward_sums_match_their_definitions_over_a_game(seed):
    env = SpotsEnv(players=2, opponents="random", shaping=ALL_TERMS, target=3)
    total, start, end, _ = play(env, seed)
    scales = rewards.Shaping(**ALL_TERMS)
    expected = (scales.win * env.state.returns()[env.seat]
                + scales.scored * (end.scored - start.scored)
                + scales.dice_on_dogs * (end.dice_on_dogs - start.dice_on_dogs)
                + scales.yard * (end.yard - start.yard)
                + scales.bust * (end.busts - start.busts)
                + scales.turn * (end.turns - start.turns))
    assert total == pytest.approx(expected, abs=1e-9)
    assert end.busts > start.busts and end.turns > start.turns  # the terms were exercised, not all zero


def test_shaping_never_changes_the_game():
    plain, shaped = SpotsEnv(players=2, opponents="greedy"), SpotsEnv(players=2, opponents="greedy", shaping="dense")
    total, _, _, history = play(plain, seed=5)
    _, _, _, shaped_history = play(shaped, seed=5)
    assert shaped_history == history
    assert total == plain.state.returns()[plain.seat]  # the default is the bare win/loss


def test_solo_objective_pays_fewer_turns():
    env = SpotsEnv(players=1, shaping="solo", target=2)
    total, start, end, _ = play(env, seed=3)
    s = rewards.PRESETS["solo"]
    expected = (s.win + s.scored * (end.scored - start.scored)
                + s.dice_on_dogs * (end.dice_on_dogs - start.dice_on_dogs)
                + s.bust * (end.busts - start.busts) + s.turn * (end.turns - start.turns))
    assert total == pytest.approx(expected, abs=1e-9)
    assert s.turn < 0


def test_bad_shaping_is_refused_with_the_choices():
    with pytest.raises(ValueError, match="presets are: win, dense, solo"):
        SpotsEnv(shaping="lots")
    with pytest.raises(ValueError, match="terms are: win, scored"):
        SpotsEnv(shaping={"dogs": 1})


def test_opponent_pool_is_sampled_per_episode_from_the_seed():
    made: list[int] = []

    def factory(seed: int):
        made.append(seed)
        return spots.bots.make("random", seed=seed)

    env = SpotsEnv(players=3, opponent_pool=["greedy", factory], target=1)
    kinds = []
    for episode in range(8):
        env.reset(seed=100 + episode)
        kinds.append(tuple(type(b).__name__ for b in env._bots.values()))
    assert len(set(kinds)) > 1  # different draws over episodes
    again = SpotsEnv(players=3, opponent_pool=["greedy", factory], target=1)
    again.reset(seed=103)
    assert tuple(type(b).__name__ for b in again._bots.values()) == kinds[3]
    assert made
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        SpotsEnv(opponent_pool=["nobody"])
    with pytest.raises(ValueError, match="at least one"):
        SpotsEnv(opponent_pool=[])


def ended(infos: dict, i: int) -> bool:
    return bool(infos.get("_returns", np.zeros(i + 1, dtype=bool))[i])


def run_vector(envs, steps: int, seed: int, states=None) -> int:
    """Masked random steps; checks masks and NEXT_STEP autoreset; returns the episodes that ended."""
    obs, infos = envs.reset(seed=seed)
    rng = np.random.default_rng(seed)
    ended_before = np.zeros(envs.num_envs, dtype=bool)
    episodes = 0
    for _ in range(steps):
        masks = infos["action_mask"]
        if states is not None:  # sync: the mask is exactly the legal moves of each sub-env's state
            for i, mask in enumerate(masks):
                assert np.array_equal(mask, action_mask(states(i)))
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
        for i in range(envs.num_envs):  # a mask is all 0 only where a game has ended
            assert masks[i].any() or ended(infos, i)
        obs, reward, terminated, truncated, infos = envs.step(np.array(actions))
        assert obs.shape == (envs.num_envs, spots.rl.observation.SIZE)
        assert "illegal_action" not in infos  # masked actions are always accepted
        for i in np.flatnonzero(ended_before):  # the step after an end is the new game's reset
            assert reward[i] == 0 and not terminated[i] and not truncated[i]
            # (with a tiny target the opponents may win before the agent's first decision)
            assert infos["action_mask"][i].any() or ended(infos, i)
        done = terminated | truncated
        for i in np.flatnonzero(done):
            assert not infos["action_mask"][i].any()  # no legal move at the end
        episodes += int(done.sum())
        ended_before = done
    return episodes


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_vector_env_autoresets_with_correct_masks(mode):
    envs = gymnasium.make_vec("Spots-v0", num_envs=2, vectorization_mode=mode, players=2, target=1,
                              opponents="greedy", shaping="dense")
    try:
        states = (lambda i: envs.envs[i].unwrapped.state) if mode == "sync" else None
        assert run_vector(envs, 80, seed=3, states=states) >= 2
    finally:
        envs.close()


def test_sync_and_async_vector_envs_agree_under_a_seed():
    results = []
    for mode in ("sync", "async"):
        envs = gymnasium.make_vec("Spots-v0", num_envs=2, vectorization_mode=mode, players=2, target=1,
                                  opponent_pool=["random", "greedy"])
        obs, infos = envs.reset(seed=11)
        trace = [obs.copy()]
        for _ in range(30):
            acts = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in infos["action_mask"]]
            obs, *_, infos = envs.step(np.array(acts))
            trace.append(obs.copy())
        envs.close()
        results.append(np.stack(trace))
    assert np.array_equal(results[0], results[1])
