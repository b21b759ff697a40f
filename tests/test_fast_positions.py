"""The simulator's recorded positions (the learned value's training data): engine tables, seeded, results attached."""

from __future__ import annotations

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
