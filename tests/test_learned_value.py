"""The learned value (issue 28): the shipped model, the bot that searches with it, the coach's hook, its training."""

from __future__ import annotations

import dataclasses
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import spots
from spots import bots
from spots.games.spots.greedy import GreedyBot
from spots.games.spots.learned_value import COLUMNS, ROW, LearnedValue, LearnedValueError, shipped, state_rows
from spots.games.spots.pieces import Dog
from spots.games.spots.state import State

ROOT = Path(__file__).resolve().parents[1]


def midgame(players: int, seed: int, turns: int = 8) -> State:
    """A position some turns into a greedy game on a random trick set."""
    rules = spots.Rules(players=players, tricks="random", tricks_seed=seed)
    state = spots.Game(rules).new_initial_state()
    rng, bot = random.Random(seed), GreedyBot(seed=seed)
    while not state.is_terminal() and state.turn < turns:
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(bot.choose(state))
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_model_gives_every_seat_a_chance_that_sums_to_one(players: int) -> None:
    model = shipped()
    for seed in range(3):
        chances = model.chances(midgame(players, seed))
        assert len(chances) == players
        assert all(0.0 < c < 1.0 for c in chances)
        assert sum(chances) == pytest.approx(1.0)


def test_it_prefers_the_seat_one_dog_from_winning_and_dislikes_a_full_yard() -> None:
    model = shipped()
    state = midgame(2, 5)
    before = model.chances(state)
    ahead = state.clone()
    card = ahead.rules.cards[ahead.players[0].dogs[0].name]
    scored = Dog(card.name, card.spaces, card.spaces, True)
    ahead.players[0].dogs = [scored] * (ahead.rules.target - 1) + ahead.players[0].dogs[1:]
    ahead.players[1].dogs = [d for d in ahead.players[1].dogs if not d.scored]
    assert model.chances(ahead)[0] > 0.8 > before[0]
    clear, loaded = state.clone(), state.clone()
    clear.players[0].yard = []
    spots_left, yard = state.rules.bust_limit - 1, []
    while spots_left:  # buried dice one spot short of busting
        yard.append(min(6, spots_left))
        spots_left -= yard[-1]
    loaded.players[0].yard = yard
    assert model.chances(loaded)[0] < model.chances(clear)[0]


def test_batches_and_single_positions_agree() -> None:
    model = shipped()
    states = [midgame(3, seed) for seed in range(4)]
    one_by_one = [model.chances(s) for s in states]
    together = model.batch(np.array([state_rows(s) for s in states]))
    assert together.shape == (4, 3)
    assert np.allclose(together, one_by_one)
    fresh = LearnedValue.load()  # its caches are empty: the cached answers are the very numbers computed anew
    assert [fresh.from_rows(state_rows(s)) for s in states] == one_by_one == [model.chances(s) for s in states]


def random_model(version: int, seed: int = 0) -> dict[str, Any]:
    """A model file's arrays with seeded random weights, reading the features of ``version`` (its hidden units
    live: positive biases, so every input moves the score)."""
    rng = np.random.default_rng(seed)
    width = len(COLUMNS[version])
    return {"mean": rng.uniform(0.0, 0.1, width), "scale": rng.uniform(0.5, 2.0, width),
            "w1": rng.normal(size=(width, 16)), "b1": rng.uniform(5.0, 10.0, 16), "w2": rng.normal(size=(16, 16)) / 4,
            "b2": rng.uniform(5.0, 10.0, 16), "w3": rng.normal(size=16), "b3": rng.normal(size=1),
            "features_version": np.array(version)}


def test_the_tiles_face_up_and_the_decks_top_card_are_read_and_kept_apart_in_the_cache() -> None:
    """The same tables with other tiles face up (what the mover may choose), another top card (what Retrieve sets)
    or under other rules are other positions: valued anew, not answered from the cache, each as a fresh model values
    it."""
    from spots.games.spots.pieces import Tile

    model, fresh = LearnedValue(random_model(2)), LearnedValue(random_model(2))
    state = midgame(2, 3)
    few = state.clone()
    few.tiles = [Tile(t.name, t.name in ("howl", "roll-over"), t.treats) for t in state.tiles]
    other_top = state.clone()
    other_top.deck_top = next(name for name in state.deck_rest if name != state.deck_top)
    more_dogs = state.clone()  # other rules, the same tables: room for more dogs under a higher dog limit
    more_dogs.rules = dataclasses.replace(state.rules, dog_limit=8)
    positions = (state, few, other_top, more_dogs, state)
    values = [model.chances(s) for s in positions]
    assert values[0] != values[1] and values[0] != values[2] and values[0] != values[3]
    assert values == [fresh.from_rows(state_rows(s)) for s in positions]


def test_a_version_1_model_reads_only_its_own_features_of_todays_rows() -> None:
    """A model fitted to the first features (the shipped one was, until a better one is shown) still plays: it is
    scored on today's rows through the columns it knew, and the features added since change nothing for it."""
    arrays = random_model(1, seed=4)
    model = LearnedValue(arrays)
    assert model.version == 1
    state = midgame(3, 2)
    rows = np.array(state_rows(state))[:, COLUMNS[1]]
    hidden = np.maximum((rows - arrays["mean"]) / arrays["scale"] @ arrays["w1"] + arrays["b1"], 0)
    scores = np.maximum(hidden @ arrays["w2"] + arrays["b2"], 0) @ arrays["w3"] + arrays["b3"][0]
    assert model.chances(state) == pytest.approx(list(np.exp(scores) / np.exp(scores).sum()), rel=1e-9)
    hidden_tiles = state.clone()
    hidden_tiles.tiles = [t._replace(face_up=t.name == "howl") for t in state.tiles]
    assert model.chances(hidden_tiles) == pytest.approx(model.chances(state), rel=1e-12)
    with pytest.raises(LearnedValueError, match="features version 4; this code reads versions 1, 2, 3"):
        LearnedValue({**arrays, "features_version": np.array(4)})
    with pytest.raises(LearnedValueError, match="version 2 model reads rows of 169 features, not 100"):
        LearnedValue({**arrays, "features_version": np.array(2)})


def test_the_race_to_the_target_is_read_by_a_version_3_model_only() -> None:
    """Version 3 reads, for every seat in turn order, whether scoring would win it the game and the dogs it lacks
    besides its complete ones: a seat one dog from the target is told apart by whether that dog is complete."""
    from spots.games.spots.learned_value import RACE_AT
    from spots.games.spots.pieces import Dog

    state = midgame(2, 3)
    seat, cards = state.seat, state.rules.cards
    names = [n for n in cards if n not in {d.name for p in state.players for d in p.dogs}][:state.rules.target]
    scored = [Dog(n, cards[n].spaces, (), True) for n in names[:-1]]
    last = cards[names[-1]]
    state.players[seat].dogs = [*scored, Dog(last.name, last.spaces)]
    ready = state.clone()
    ready.players[seat].dogs = [*scored, Dog(last.name, last.spaces, last.spaces)]
    lacking, winning = np.array(state_rows(state)), np.array(state_rows(ready))
    assert lacking[seat, RACE_AT] == 0.0 and winning[seat, RACE_AT] == 1.0  # its own race comes first ...
    assert winning[1 - seat, RACE_AT + 2] == 1.0  # ... and the other seat sees it next in turn order
    race = np.arange(lacking.shape[1]) >= RACE_AT
    only_race = np.where(race, lacking, winning).tolist()  # the winning tables with the lacking race
    v2, v3 = LearnedValue(random_model(2, seed=6)), LearnedValue(random_model(3, seed=6))
    assert v2.from_rows(only_race) == pytest.approx(v2.from_rows(winning.tolist()), rel=1e-12)
    assert v3.from_rows(only_race) != pytest.approx(v3.from_rows(winning.tolist()), rel=1e-6)


def test_the_last_card_drawn_is_a_new_position_for_a_version_1_model() -> None:
    """One card left (the top, none under it) and none left look alike to a key made of the rest of the deck; a
    version-1 model reads the count of cards left, so the two are valued apart, each as a fresh model values it."""
    model, fresh = LearnedValue(random_model(1, seed=5)), LearnedValue(random_model(1, seed=5))
    one_left = midgame(2, 6)
    one_left.deck_rest = []
    none_left = one_left.clone()
    none_left.deck_top = None
    positions = (one_left, none_left)
    values = [model.chances(s) for s in positions]
    assert values[0] != values[1]
    assert values == [fresh.from_rows(state_rows(s)) for s in positions]


def test_solo_games_and_bad_files_are_refused_clearly(tmp_path: Path) -> None:
    solo = spots.Game(spots.Rules(players=1)).new_initial_state()
    with pytest.raises(LearnedValueError, match="2 to 4 players, not 1"):
        shipped().chances(solo)
    bad = tmp_path / "bad.npz"
    np.savez(bad, w1=np.zeros((ROW, 4)))
    with pytest.raises(LearnedValueError, match="missing: mean, scale"):
        LearnedValue.load(bad)
    with pytest.raises(LearnedValueError, match="cannot read a learned value"):
        LearnedValue.load(tmp_path / "absent.npz")


@pytest.mark.parametrize(("name", "players"), [("expectimax-learned", 2), ("expectimax-learned", 3),
                                               ("learned-fast", 4)])
def test_the_learned_bots_play_a_whole_seeded_game_legally(name: str, players: int) -> None:
    rules = spots.Rules(players=players, tricks="random", tricks_seed=players)
    state = spots.Game(rules).new_initial_state()
    budget: dict[str, Any] = {"nodes": 400} if name == "expectimax-learned" else {}
    seats = [bots.make(name, seed=1, **budget)] + [GreedyBot(seed=s) for s in range(1, players)]
    assert seats[0].name == name
    rng = random.Random(players)
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        move = seats[state.current_player()].choose(state)
        assert move in state.legal_actions()
        state.apply_action(move, player=state.current_player())
    assert state.winner is not None or state.end_reason == "turn limit"


def test_expectimax_refuses_an_unknown_value() -> None:
    with pytest.raises(ValueError, match="unknown value 'neural'; allowed: linear, learned"):
        bots.make("expectimax", value="neural")


def test_the_coach_can_score_with_the_learned_value() -> None:
    from spots.games.spots.coach import evaluator

    state = midgame(2, 3)
    linear, learned = evaluator("linear"), evaluator("learned")
    assert "learned win-chance model" in learned.name and "learned" not in linear.name
    assert "learned win-chance model" in evaluator().name  # the best value the install has: numpy is here
    values = learned.values(state)
    assert sum(values) == pytest.approx(1.0) and all(0 < v < 1 for v in values)
    assert values != linear.values(state)
    with pytest.raises(ValueError, match="allowed: best, learned, learned-raw, linear"):
        evaluator("magic")


def test_the_training_script_runs_end_to_end_on_a_tiny_seeded_data_set(tmp_path: Path) -> None:
    model, curve = tmp_path / "value.npz", tmp_path / "curve.csv"
    args = ["--games", "24", "--chunk", "8", "--workers", "0", "--engine", "reference", "--epochs", "2",
            "--seed", "3", "--model", str(model), "--curve", str(curve)]
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "train_value.py"), *args],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "24 games (0 cut off)" in done.stdout
    # 3 chunks of 8 games, 6 turn starts kept a game: the last chunk validates and is not trained on
    assert "96 training and 48 validation positions" in done.stdout
    lines = curve.read_text().splitlines()
    assert lines[0].startswith("epoch,train_loss,valid_loss") and len(lines) == 3
    trained = LearnedValue.load(model)
    chances = trained.chances(midgame(2, 1))
    assert sum(chances) == pytest.approx(1.0)


def test_positions_of_stronger_play_are_kept_then_mixed_into_a_fit(tmp_path: Path) -> None:
    """``--policy learned-fast`` plays every seat with that bot (2 players only here); ``--mix`` adds its kept
    positions, N times, to another run's, and the fit reports each source's validation log-loss."""
    script = [sys.executable, str(ROOT / "benchmarks" / "train_value.py")]
    strong, model = tmp_path / "strong.npz", tmp_path / "value.npz"
    done = subprocess.run([*script, "--games", "4", "--chunk", "2", "--workers", "0", "--policy", "learned-fast",
                           "--players", "2", "--seed", "5", "--data", str(strong)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    with np.load(strong) as kept:
        seats = kept["train_mask"].sum(axis=1)
        assert len(seats) > 0 and set(seats.tolist()) == {2}
        strong_train = len(seats)
    done = subprocess.run([*script, "--games", "6", "--chunk", "3", "--workers", "0", "--engine", "reference",
                           "--epochs", "1", "--seed", "3", "--model", str(model), "--mix", f"{strong}*3"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert f"validation log-loss on {strong}" in done.stdout and "new " in done.stdout
    base = int(re.search(r"(\d+) training and", done.stdout).group(1))  # type: ignore[union-attr]
    assert f"fitting to {base + 3 * strong_train} training positions" in done.stdout
    assert np.load(model)["w1"].shape[0] == ROW
    refused = subprocess.run([*script, "--policy", "learned-fast", "--engine", "fast", "--data", str(strong)],
                             capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert refused.returncode == 2 and "plays greedy only" in refused.stderr
    one_chunk = subprocess.run([*script, "--games", "8", "--chunk", "8", "--model", str(model)],
                               capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert one_chunk.returncode == 2 and "is one chunk" in one_chunk.stderr


def test_a_game_analysed_with_the_learned_value_reports_every_players_decisions() -> None:
    from spots.analysis import analyse
    from spots.core import games
    from spots.games.spots.coach import evaluator

    spec = games.get("spots")
    state = spec.new_state(spec.make_rules(players=2, target=2))
    seats, rng = [GreedyBot(seed=1), GreedyBot(seed=2, risk=0.6)], random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(seats[state.current_player()].choose(state))
    report = analyse(spec.record(state, ["ann", "bob"]), evaluator=evaluator("learned"))
    assert [p.decisions > 0 for p in report.players] == [True, True]
    assert all(p.lost >= 0 for p in report.players)
