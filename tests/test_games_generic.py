"""Tests every game of the package passes, written against the shared ``GameState`` protocol only.

Like OpenSpiel's generic game tests: random playouts that check the interface at
every step (whose move, legal moves, chance probabilities, refusals that change
nothing), serialization and replay round trips, clones and seeded determinism.
A new game joins by adding a line to ``GAMES``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

import spots
from spots import double_spot
from spots.bots import BOTS as SPOTS_BOTS
from spots.core import CHANCE, TERMINAL, GameState, IllegalMoveError, ReplayError, play_game, replay
from spots.core.bots import make_bot
from spots.double_spot.bots import BOTS as DOUBLE_SPOT_BOTS

pytestmark = pytest.mark.timeout(120)

Registry = dict[str, Callable[..., Any]]

# name -> (a fresh initial state, rebuild a state from its JSON, the game's bots, players)
GAMES: dict[str, tuple[Callable[[], Any], Callable[[str], Any], Registry, int]] = {
    # first to one dog: random Spots games of a few hundred steps rather than thousands
    "spots-2p": (lambda: spots.Game(players=2, target=1).new_initial_state(), spots.State.from_json, SPOTS_BOTS, 2),
    "spots-4p-all": (lambda: spots.Game(players=4, tricks="all", target=1).new_initial_state(),
                     spots.State.from_json, SPOTS_BOTS, 4),
    "double-spot": (double_spot.new_game, double_spot.State.from_json, DOUBLE_SPOT_BOTS, 2),
    "double-spot-small-first": (lambda: double_spot.new_game(columns=4, rows=4, target=2, claim="first"),
                                double_spot.State.from_json, DOUBLE_SPOT_BOTS, 2),
}


def step(state: Any, rng: random.Random) -> str:
    """One random step: a chance outcome by its probability, else a uniform legal move for the mover."""
    if state.is_chance_node():
        return str(state.sample_chance(rng))
    move = rng.choice(state.legal_actions())
    state.apply_action(move, player=state.current_player())
    return str(move)


def check_interface(state: Any) -> None:
    """What must hold at every position, whatever the game."""
    assert isinstance(state, GameState)
    player = state.current_player()
    if state.is_terminal():
        assert player == TERMINAL and state.legal_actions() == [] and state.chance_outcomes() == []
        returns = state.returns()
        assert all(0 <= r <= 1 for r in returns) and sum(returns) > 0
    elif state.is_chance_node():
        assert player == CHANCE
        outcomes = state.chance_outcomes(exact=True)
        assert outcomes and sum(p for _, p in outcomes) == 1 and all(isinstance(p, Fraction) for _, p in outcomes)
        assert all(m in state.legal_actions() for m, _ in outcomes)
        assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-9
    else:
        assert player >= 0 and state.legal_actions()
        assert len(set(state.legal_actions())) == len(state.legal_actions())


def refusals_change_nothing(state: Any) -> None:
    """A malformed move, and a legal move sent for the wrong seat, raise and leave the state as it was."""
    before = state.to_json()
    for bad in ("", "fly away", "drop 99 blue 7", "place 9 nobody"):
        with pytest.raises(IllegalMoveError):
            state.apply_action(bad)
        assert state.to_json() == before
    if not state.is_chance_node() and not state.is_terminal():
        wrong = (state.current_player() + 1) % 2 if state.current_player() in (0, 1) else 0
        with pytest.raises(IllegalMoveError):
            state.apply_action(state.legal_actions()[0], player=wrong)
        assert state.to_json() == before


@pytest.mark.parametrize("game", list(GAMES))
def test_random_playouts_keep_the_interface(game: str) -> None:
    new = GAMES[game][0]
    for seed in range(40):
        rng = random.Random(seed)
        state = new()
        steps = 0
        while not state.is_terminal():
            check_interface(state)
            if steps % 17 == 0:
                refusals_change_nothing(state)
            step(state, rng)
            steps += 1
            assert steps < 20_000, "a game must end"
        check_interface(state)
        refusals_change_nothing(state)
        with pytest.raises(IllegalMoveError):
            state.apply_action("anything")


@pytest.mark.parametrize("game", list(GAMES))
def test_serialization_and_replay_round_trips_at_every_step(game: str) -> None:
    new, from_json = GAMES[game][:2]
    for seed in range(4):
        rng = random.Random(1000 + seed)
        state = new()
        while not state.is_terminal():
            again = from_json(state.to_json())
            assert again.to_json() == state.to_json() and again.legal_actions() == state.legal_actions()
            if len(state.history()) % 4 == 0:
                assert replay(new, state.history()).to_json() == state.to_json()
            step(state, rng)
        assert from_json(state.to_json()).returns() == state.returns()


@pytest.mark.parametrize("game", list(GAMES))
def test_clones_are_independent_and_seeds_repeat_games(game: str) -> None:
    new, _, registry, players = GAMES[game]
    state = new()
    rng = random.Random(5)
    for _ in range(25):
        step(state, rng)
    copy = state.clone()
    frozen = copy.to_json()
    for _ in range(25):
        if state.is_terminal():
            break
        step(state, rng)
    assert copy.to_json() == frozen

    def game_with(seed: int) -> list[str]:
        bots = [make_bot(registry, "greedy", seed=seed + s) for s in range(players)]
        return list(play_game(new(), bots, random.Random(seed)).history())

    assert game_with(7) == game_with(7)
    assert game_with(7) != game_with(8)


@pytest.mark.parametrize("game", list(GAMES))
def test_a_bad_record_names_its_first_bad_move(game: str) -> None:
    new = GAMES[game][0]
    state, rng = new(), random.Random(3)
    for _ in range(12):
        step(state, rng)
    history = state.history()
    with pytest.raises(ReplayError) as err:
        replay(new, [*history[:6], "nonsense move", *history[6:]])
    assert str(err.value).startswith("move 7 of the record:") and "'nonsense move'" in str(err.value)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_bot_of_the_game_plays_only_legal_moves(game: str) -> None:
    new, _, registry, players = GAMES[game]
    for name in registry:
        if name in ("mcts", "expectimax") and players > 2:
            continue  # slow with four players; covered by the bots' own tests
        bot = make_bot(registry, name, seed=1, **({"iterations": 60} if name == "mcts" else {}))
        state, rng = new(), random.Random(11)
        for _ in range(60):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            move = bot.choose(state.clone())
            assert move in state.legal_actions(), (name, move)
            state.apply_action(move, player=state.current_player())
