"""The research adapters: the action encoding, the observation, and each ecosystem's own checker."""

from __future__ import annotations

import hashlib
import random
import warnings
from collections import Counter
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
pyspiel = pytest.importorskip("pyspiel")

import spots  # noqa: E402
import spots.rl  # noqa: E402
from spots.rl import actions, observation  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs" / "rl.md"

# The action table is a published interface: changing it breaks trained agents.
EXPECTED_NUM_ACTIONS = 6914
EXPECTED_TABLE_SHA256 = "82836b6e9163e2a227295ff38e85278611e1c1406dfa5f1e5b698bcdbc45cf36"


def random_positions(games: int, seed: int, max_decisions: int = 400):
    """Decision positions of random games under varied rules (every tile, 1-4 seats, variants)."""
    rng = random.Random(seed)
    for g in range(games):
        rules = spots.Rules(
            players=1 + g % 4,
            tricks="all",
            target=rng.choice([1, 3, 6]),
            dice=rng.choice([12, 40]),
            bust_limit=rng.choice([7, 7, 12]),
            starting_treats=rng.choice([1, 3]),
            turn_limit=150,
        )
        state = spots.Game(rules).new_initial_state()
        decisions = 0
        while not state.is_terminal() and decisions < max_decisions:
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            yield state
            moves = state.legal_actions()
            state.apply_action(moves[int(rng.random() * len(moves))])
            decisions += 1


# ------------------------------------------------------------------ actions


def test_action_table_is_stable() -> None:
    assert actions.NUM_ACTIONS == EXPECTED_NUM_ACTIONS == len(set(actions.MOVES))
    digest = hashlib.sha256("\n".join(actions.MOVES).encode()).hexdigest()
    assert digest == EXPECTED_TABLE_SHA256, "the action encoding changed: bump ENCODING_VERSION and the docs"
    assert actions.MOVES[:4] == ("score", "continue", "stop", "reroll")
    assert actions.encode("trick howl") == 4
    assert actions.decode(actions.encode("move wilbur 3 doog 6")) == "move wilbur 3 doog 6"
    assert actions.encode("REROLL 5 2") == actions.encode("reroll 2 5")  # any accepted spelling
    for text in actions.MOVES:  # every id is a canonical move text
        assert spots.parse(text) and str(spots.parse(text)) == text
    assert actions.CHANCE_TEXTS[:6] == tuple(f"die {v}" for v in range(1, 7))
    assert len(actions.CHANCE_TEXTS) == 6 + 32


def test_every_legal_move_round_trips_in_thousands_of_positions() -> None:
    positions = 0
    kinds: Counter[str] = Counter()
    for state in random_positions(games=48, seed=7):
        legal = state.legal_actions()
        ids = actions.legal_ids(state)
        assert len(ids) == len(legal) == len(set(ids))
        for move in legal:
            action = actions.encode(move)
            assert actions.decode(action) == move
            kinds[move.split()[0]] += 1
        mask = actions.action_mask(state)
        assert mask.dtype == np.int8 and mask.shape == (actions.NUM_ACTIONS,)
        assert sorted(np.flatnonzero(mask).tolist()) == ids
        positions += 1
    assert positions >= 5000
    # Every kind of move was met and round-tripped.
    assert set(kinds) == {m.split()[0] for m in actions.MOVES}


def test_chance_outcomes_and_bad_ids_are_not_actions() -> None:
    with pytest.raises(actions.EncodingError):
        actions.encode("roll 1 2")
    with pytest.raises(actions.EncodingError):
        actions.decode(actions.NUM_ACTIONS)
    state = spots.Game(spots.Rules()).new_initial_state()
    assert state.is_chance_node() and not actions.action_mask(state).any()


def test_custom_decks_are_refused() -> None:
    deck = [{"name": f"Dog {i}", "spaces": [1 + i % 6], "paws": 0} for i in range(8)]
    with pytest.raises(spots.RulesError, match="shipped 32-card deck"):
        actions.check_rules(spots.Rules(deck=deck))
    with pytest.raises(spots.RulesError, match="shipped"):
        gymnasium.make("Spots-v0", deck=deck)
    with pytest.raises(spots.RulesError, match="shipped"):
        spots.rl.aec_env(deck=deck)


# ------------------------------------------------------------------ observation


def test_observation_is_fixed_size_bounded_and_relative_to_the_observer() -> None:
    checked = 0
    for state in random_positions(games=8, seed=3, max_decisions=150):
        high = observation.high(state.rules)
        n = state.rules.players
        for seat in range(n):
            vec = observation.encode(state, seat)
            assert vec.shape == (observation.SIZE,) and vec.dtype == np.float32
            assert (vec >= 0).all() and (vec <= high).all()
            view = observation.as_dict(vec)
            for r in range(n):  # slot r is the seat r places after the observer
                player = state.players[(seat + r) % n]
                assert view["seat_treats"][r] == player.treats
                assert view["seat_yard_total"][r] == sum(player.yard)
                for dog in player.dogs:
                    assert view["dog_owner"][observation.DOG_NAMES.index(dog.name), r] == 1
            assert view["observer_seat"][seat] == 1 and view["players"][n - 1] == 1
            assert view["to_move"][(state.current_player() - seat) % n] == 1
            checked += 1
    assert checked > 500


def test_docs_describe_every_observation_field_and_the_action_table() -> None:
    text = DOCS.read_text("utf-8")
    for field in observation.FIELDS:
        assert f"`{field.name}`" in text, f"docs/rl.md does not document the field {field.name}"
    assert str(observation.SIZE) in text and str(actions.NUM_ACTIONS) in text


# ------------------------------------------------------------------ gymnasium


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "seat": 0, "opponents": "greedy"},
        {"players": 1},
        {"players": 4, "seat": None, "opponents": ["random", "greedy", "random"], "tricks": "all"},
    ],
)
def test_gymnasium_check_env(options: dict) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("Spots-v0", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures here
        check_env(env.unwrapped)


def play_gym_episode(env, seed: int) -> tuple[list, float, bool, bool]:
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace = [obs]
    while True:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        trace.append(obs)
        assert env.observation_space.contains(obs)
        if terminated or truncated:
            return trace, reward, terminated, truncated
        assert reward == 0.0


def test_gymnasium_episodes_end_with_terminal_rewards_and_are_seeded() -> None:
    env = gymnasium.make("Spots-v0", players=2, opponents="random", target=3)
    trace, reward, terminated, truncated = play_gym_episode(env, seed=5)
    assert terminated and not truncated and reward in (0.0, 1.0)
    again, reward2, *_ = play_gym_episode(env, seed=5)
    assert reward2 == reward and len(again) == len(trace)
    assert all(np.array_equal(a, b) for a, b in zip(trace, again, strict=True))


def test_gymnasium_truncates_at_the_safety_turn_limit() -> None:
    env = gymnasium.make("Spots-v0", players=2, opponents="random", turn_limit=6)
    _, reward, terminated, truncated = play_gym_episode(env, seed=1)
    assert truncated and not terminated
    assert reward == env.unwrapped.state.returns()[0]


def test_gymnasium_illegal_actions() -> None:
    env = gymnasium.make("Spots-v0", players=2).unwrapped
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert reward == -1.0 and info2["illegal_action"] and not (terminated or truncated)
    assert np.array_equal(obs, obs2)
    strict = gymnasium.make("Spots-v0", players=2, illegal_action="raise").unwrapped
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="opponent"):
        gymnasium.make("Spots-v0", players=3, opponents=["greedy"])


# ------------------------------------------------------------------ pettingzoo


@pytest.mark.parametrize("options", [{"players": 1, "target": 1}, {"players": 2}, {"players": 3, "target": 1},
                                     {"players": 4, "tricks": "all", "target": 1}])
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
def test_pettingzoo_api_test(options: dict) -> None:
    """The dict observation with an action mask is PettingZoo's own convention; it warns only by env name."""
    from pettingzoo.test import api_test

    api_test(spots.rl.aec_env(**options), num_cycles=300)


def test_pettingzoo_seed_test() -> None:
    from pettingzoo.test import seed_test

    seed_test(lambda: spots.rl.aec_env(players=3, tricks="all"), num_cycles=300)


def test_pettingzoo_game_reaches_the_end_with_returns() -> None:
    env = spots.rl.aec_env(players=2, target=1)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        assert obs["action_mask"].any()
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    assert sorted(final.values()) == [0.0, 1.0]


# ------------------------------------------------------------------ openspiel


def test_openspiel_registration_and_parameters() -> None:
    assert "python_spots" in pyspiel.registered_names()
    game = pyspiel.load_game("python_spots", {"players": 3, "tricks": "dog-park", "target": 3})
    assert game.num_players() == 3 and game.num_distinct_actions() == actions.NUM_ACTIONS
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.new_initial_state().engine.rules.tricks[2:] == ("dig", "chase", "chew", "guard")
    assert pyspiel.load_game("python_spots(players=1)").num_players() == 1
    with pytest.raises(Exception, match=r"deck|unknown"):
        pyspiel.load_game("python_spots", {"deck": "x.json"})


@pytest.mark.parametrize("params", [{"players": 1, "target": 1}, {"players": 2, "target": 3},
                                    {"players": 4, "target": 1, "tricks": "all"}])
def test_openspiel_random_sim_test(params: dict) -> None:
    game = pyspiel.load_game("python_spots", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_rolls_are_one_chance_node_per_die_with_the_right_distribution() -> None:
    game = pyspiel.load_game("python_spots", {"players": 2})
    state = game.new_initial_state()
    while state.engine.phase != "chance-roll":
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "die 3"
    for outcomes in [state.chance_outcomes()]:
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-12


def test_openspiel_mcts_bot_plays_to_the_end() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("python_spots", {"players": 2, "target": 1})
    rs = np.random.RandomState(0)
    bots = [
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=6,
                     evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs), random_state=rs)
        for _ in range(2)
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) == [0.0, 1.0]
    assert spots.replay(state.engine.history(), state.engine.rules) == state.engine


def test_gymnasium_game_over_before_the_agents_first_decision() -> None:
    """With target 1 the bots may win before the last seat moves: the next step ends the episode."""
    env = gymnasium.make("Spots-v0", players=4, seat=3, opponents="greedy", target=1)
    for seed in range(200):
        _, info = env.reset(seed=seed)
        if not info["action_mask"].any():
            _, reward, terminated, truncated, info = env.step(0)
            assert terminated and not truncated and reward == 0.0 and info["returns"][3] == 0.0
            return
    pytest.fail("no game ended before seat 3's first decision")
