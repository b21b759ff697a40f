"""Search bots with a budget (issue 21): they answer within it, deterministically under a node budget,
and the expectimax search's shortcuts lose nothing."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

import spots
from spots import bots
from spots.games.spots.expectimax import ExpectimaxBot
from spots.games.spots.state import State
from support.spots import adjust, play, start


def expectimax(**options: Any) -> ExpectimaxBot:
    bot = bots.make("expectimax", **options)
    assert isinstance(bot, ExpectimaxBot)
    return bot


def positions(seed: int, count: int, tricks: str = "all") -> list[State]:
    """Decision positions with a real choice, met in a seeded greedy game."""
    rng = random.Random(seed)
    state = spots.Game(spots.Rules(players=2, tricks=tricks)).new_initial_state()
    greedy = bots.make("greedy")
    found: list[State] = []
    while not state.is_terminal() and len(found) < count:
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        if len(state.legal_actions()) > 2:
            found.append(state.clone())
        state.apply_action(greedy.choose(state))
    return found


def dogpile_turn() -> State:
    """A Dogpile turn start with a half-full yard and several open dogs: wide and deep to search."""
    state = start(tricks=["howl", "dogpile"], deal=[["wilbur", "doog"], ["ursula", "missy"]])
    return adjust(state, yard=[1, 2, 3], treats=2, filled={"doog": [2]})


def test_expectimax_v1_is_kept_for_the_arena() -> None:
    old = bots.make("expectimax-v1", seed=3, nodes=200)
    assert old.name == "expectimax-v1"
    state = dogpile_turn()
    assert old.choose(state) in state.legal_actions()
    assert "expectimax-v1" in bots.names() and expectimax().name == "expectimax"


def test_a_node_budget_gives_the_same_move_every_time() -> None:
    for state in positions(seed=4, count=12):
        one = expectimax(seed=9, nodes=1500).rank(state.clone())
        two = expectimax(seed=9, nodes=1500).rank(state.clone())
        assert one == two


def test_the_node_budget_bounds_the_work_and_deeper_budgets_search_deeper() -> None:
    state = dogpile_turn()
    small, big = expectimax(nodes=400), expectimax(nodes=60_000)
    small.choose(state.clone())
    big.choose(state.clone())
    first_pass = len(state.legal_actions()) * 60  # the always-finished pass: one play-out a move
    assert small.used <= 400 + 1 + first_pass
    assert big.reached > small.reached >= 0


def test_a_time_budget_answers_in_time_with_the_best_move_so_far() -> None:
    state = dogpile_turn()
    bot = expectimax(nodes=10**9, depth=30, time_ms=100)
    began = time.process_time()
    move = bot.choose(state)
    spent = time.process_time() - began
    assert move in state.legal_actions()
    assert bot.reached < 30  # it stopped on time, not because it had searched everything
    assert spent < 2.0  # 0.1 s asked; generous for a loaded machine (the overshoot is one check interval)


def test_mcts_takes_a_time_budget_too() -> None:
    state = dogpile_turn()
    bot = bots.make("mcts", iterations=10**6, time_ms=100)
    began = time.process_time()
    move = bot.choose(state)
    assert move in state.legal_actions() and time.process_time() - began < 2.0
    assert bots.make("mcts", seed=2, iterations=40).choose(state.clone()) == \
        bots.make("mcts", seed=2, iterations=40).choose(state.clone())


@pytest.mark.parametrize("options, words", [
    ({"nodes": 0}, "at least 1"), ({"time_ms": -5}, "positive"), ({"depth": 0}, "at least 1"),
])
def test_bad_budgets_are_refused_with_what_is_allowed(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        expectimax(**options)


def test_mcts_bad_budgets_are_refused() -> None:
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        bots.make("mcts", iterations=0)
    with pytest.raises(ValueError, match="time_ms"):
        bots.make("mcts", time_ms=0)


class EveryOrder(ExpectimaxBot):
    """The same search resolving a roll's dice in every order (what the shortcut removes)."""

    @staticmethod
    def candidates(state: State) -> list[str]:
        return state.legal_actions()


def test_resolving_dice_lowest_face_first_loses_nothing() -> None:
    """With an exact search (small rolls, no play-outs), both orders give every move the same value."""
    state = start(tricks=["howl", "walk"])
    state = adjust(state, yard=[2], filled={"wilbur": [1]})
    play(state, "trick walk", "roll 3 6")  # two dice to place or bury, then an optional third die
    assert state.phase == "roll"
    pruned = expectimax(nodes=10**6, depth=3)
    full = EveryOrder(nodes=10**6, depth=3)
    assert dict(pruned.rank(state.clone())) == pytest.approx(dict(full.rank(state.clone())))
    assert pruned.used < full.used


def test_named_weight_sets() -> None:
    state = dogpile_turn()
    fitted = expectimax(nodes=500, weights="fitted")
    assert fitted.weights == expectimax().weights  # the default
    assert fitted.weights.treat > expectimax(weights="default").weights.treat
    assert fitted.choose(state) in state.legal_actions()
    with pytest.raises(ValueError, match="the named sets are: default, fitted"):
        expectimax(weights="clever")


def track_turn() -> State:
    """A Track turn start without treats: the trick is one roll of 3 dice (56 outcomes, sampled by the search)."""
    state = start(tricks=["howl", "track"])
    return adjust(state, yard=[2, 3], treats=0, filled={"doog": [2]})


def test_stratified_sampling_estimates_a_big_roll_closer_to_its_exact_value() -> None:
    """The default samples a big roll one outcome per slice of probability; plain random sampling strays further."""
    state = track_turn()
    exact = dict(expectimax(nodes=10**6, depth=1, exact=56).rank(state.clone()))["trick track"]

    def error(sampling: str) -> float:
        values = [dict(expectimax(seed=s, nodes=10**6, depth=1, sampling=sampling).rank(state.clone()))["trick track"]
                  for s in range(16)]
        return sum((v - exact) ** 2 for v in values) / len(values)

    assert error("stratified") < error("random")


def test_sampling_must_be_one_of_the_named_kinds() -> None:
    assert expectimax().sampling == "stratified"
    with pytest.raises(ValueError, match="allowed: stratified, random"):
        expectimax(sampling="lucky")
