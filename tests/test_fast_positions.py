"""The simulator's recorded positions (the learned value's training data): engine tables, seeded, results attached."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from spots.fast import layout as L
from spots.fast.positions import record_positions, turn_start
from spots.fast.tiles import card_names
from spots.fast.view import state_dict
from spots.games.spots import Rules


def batch(players: int, games: int = 12, seed: int = 0) -> tuple[list, list, int]:
    rules = [Rules(players=players, tricks="random", tricks_seed=g) for g in range(games)]
    rng = np.random.default_rng(seed)
    return record_positions(rules, [seed * 100 + g for g in range(games)], rng.uniform(0.05, 0.6, (games, players)),
                            rng.uniform(0.0, 0.05, (games, players)), keep=4)


def test_recorded_positions_are_seeded_turn_starts_with_their_games_results() -> None:
    positions, results, cut = batch(3)
    again, same_results, _ = batch(3)
    assert cut == 0 and len(positions) == 12 * 4  # every game lasts more than 4 turns
    assert [(p.turn, p.mover, p.players) for p in positions] == [(p.turn, p.mover, p.players) for p in again]
    assert results == same_results
    for p, result in zip(positions, results, strict=True):
        assert sum(result) == pytest.approx(1.0) and len(result) == 3
        assert 0 <= p.mover < 3 and p.turn >= 1
        assert all(sum(player.yard) <= p.rules.bust_limit for player in p.players)
    other, _, _ = batch(3, seed=1)
    assert [p.players for p in other] != [p.players for p in positions]


def test_tables_read_the_simulators_arrays_as_the_engine_would() -> None:
    """The positions the features are computed from (tables, tiles, deck, supplies) match the engine's own reading
    of the same array."""
    import random

    from spots.fast.api import FastState

    rules = Rules(players=2, tricks="random", tricks_seed=4)
    game = FastState(rules)
    names = card_names(rules)
    rng = random.Random(4)
    checked = 0
    for _ in range(300):
        if game.is_terminal():
            break
        if game.phase == "chance-roll":
            game.apply_action("roll " + " ".join(str(rng.randint(1, 6)) for _ in range(int(game.st[L.S_PENDING]))))
        elif game.is_chance_node():
            game.apply_action("reveal " + names[int(game.st[L.S_REST + rng.randrange(int(game.st[L.S_NREST]))])])
        else:
            engine = state_dict(game.st, rules, names)
            read = turn_start(game.st, rules, names)
            assert [player.to_dict() for player in read.players] == engine["players"]
            assert [tile.to_dict() for tile in read.tiles] == engine["tiles"]
            assert read.deck_top == engine["deck"]["top"]
            assert read.deck_left == len(engine["deck"]["rest"]) + (engine["deck"]["top"] is not None)
            assert (read.mover, read.turn, read.dice_supply, read.treat_supply) == (
                engine["seat"], engine["turn"], engine["supply"]["dice"], engine["supply"]["treats"])
            checked += 1
            game.apply_action(game.greedy_action())
    assert checked > 50


def test_an_engine_position_becomes_the_simulators_array_and_plays_on_the_same() -> None:
    """``FastState.of`` copies any engine position (mid-trick, mid-roll, at chance) into the arrays: the simulator
    then reads it back as the engine's JSON and offers the same legal moves, and both play on alike."""
    import random

    import spots
    from spots.bots import make
    from spots.fast.api import FastState

    def engine_doc(state: Any) -> dict[str, Any]:
        doc = {k: v for k, v in state.to_dict().items() if k not in ("format", "version", "rules", "history")}
        for player in doc["players"]:
            player["yard"] = sorted(player["yard"])
        return doc

    checked = 0
    for seed, options in enumerate([{"tricks": "all", "players": 3}, {"tricks": "random", "tricks_seed": 9},
                                    {"tricks": "all", "players": 4, "turn_limit": 40}]):
        rules = spots.Rules(**options)
        state = spots.Game(rules).new_initial_state()
        rng, greedy = random.Random(seed), make("greedy")
        for _ in range(600):
            if state.is_terminal():
                break
            fast = FastState.of(state)
            assert fast.to_dict() == engine_doc(state)
            if state.is_chance_node():
                move = state.sample_chance(rng)
            else:
                assert fast.legal_actions() == state.legal_actions()
                legal = state.legal_actions()
                move = greedy.choose(state) if rng.random() < 0.8 else legal[int(rng.random() * len(legal))]
                state.apply_action(move)
            fast.apply_action(move)  # the copy plays on as the engine does
            assert fast.to_dict() == engine_doc(state)
            checked += 1
    assert checked > 800


def test_rollouts_of_a_position_measure_what_greedy_play_makes_of_it() -> None:
    """The mean returns of many greedy play-outs: seeded, a sum of 1 over the seats, and for a position one dog
    from winning (its owner to move, holding it complete) every play-out is won by that seat."""
    import random

    import spots
    from spots.fast.api import greedy_results
    from spots.games.spots.pieces import Dog

    rules = spots.Rules(players=2, target=1, tricks="beginner")
    state = spots.Game(rules).new_initial_state()
    rng = random.Random(3)
    while state.phase != "turn":
        state.sample_chance(rng)
    results = greedy_results([state] * 400, list(range(400)))
    assert results.shape == (400, 2) and np.allclose(results.sum(axis=1), 1.0)
    assert np.array_equal(results, greedy_results([state] * 400, list(range(400))))
    assert 0.2 < results[:, state.seat].mean() < 0.9  # either seat can win from a fresh deal
    state.players[state.seat].dogs[0] = Dog(state.players[state.seat].dogs[0].name,
                                            state.players[state.seat].dogs[0].spaces,
                                            state.players[state.seat].dogs[0].spaces)
    state.dice_supply -= len(state.players[state.seat].dogs[0].spaces)
    assert greedy_results([state] * 50, list(range(50)))[:, state.seat].tolist() == [1.0] * 50


def test_positions_can_be_labelled_with_their_rollouts() -> None:
    rules = [Rules(players=2, tricks="random", tricks_seed=g) for g in range(4)]
    rng = np.random.default_rng(0)
    risks, explore = rng.uniform(0.05, 0.6, (4, 2)), rng.uniform(0.0, 0.05, (4, 2))
    positions, games, _ = record_positions(rules, list(range(4)), risks, explore, keep=3)
    again, measured, _ = record_positions(rules, list(range(4)), risks, explore, keep=3, rollouts=64)
    assert [p.players for p in again] == [p.players for p in positions]  # the same positions ...
    assert all(r in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5]) for r in games)  # ... a game's result, or
    assert all(sum(r) == pytest.approx(1.0) for r in measured)  # the play-outs' mean
    assert any(0.0 < r[0] < 1.0 for r in measured) and measured != games
