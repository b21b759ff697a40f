"""The Double Spot search bot and the search bots' budgets: right on constructed positions, always an answer."""

from __future__ import annotations

import random

import pytest

from spots.games.double_spot import State, new_game
from spots.games.double_spot.bots import GreedyBot, make
from spots.games.double_spot.expectimax import ExpectimaxBot
from spots.games.double_spot.search import SearchBot
from support.double_spot import position


def middle_games(count: int, seed: int = 0) -> list[State]:
    """Positions with a drop pending, from greedy games (every fifth decision)."""
    out = []
    for g in range(count):
        rng, state, bot = random.Random(f"{seed}:{g}"), new_game(), GreedyBot(g)
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            decisions += 1
            if decisions % 5 == 0:
                out.append(state.clone())
            state.apply_action(bot.choose(state))
    return out


def test_search_takes_a_finishing_drop() -> None:
    state = position(["B.......", "B......."], ["p01", "p13"], die="green")
    assert SearchBot(0).choose(state) == "drop 1 green"


def test_search_does_not_hand_over_a_finish_when_a_safe_drop_exists() -> None:
    # blue on blue (column 1) or beside it (column 2) leaves p01 one green short for the opponent
    state = position(["B......."], ["p01", "p13"], die="blue")
    for seed in range(5):
        assert SearchBot(seed).choose(state) not in ("drop 1 blue", "drop 2 blue")


def test_two_turn_values_are_the_expectimax_bots_on_real_positions() -> None:
    # The search's own frame (flat grid, pattern table) against the reference two-ply judgement.
    for state in middle_games(6):
        values = dict(SearchBot(0, nodes=1).rank(state))
        for j in ExpectimaxBot(0, deep=0).judge(state):
            if j.ends is None:
                assert values[j.move] == pytest.approx(j.value), (state.history(), j.move)


def test_a_bigger_budget_searches_deeper_and_the_smallest_still_answers() -> None:
    state = middle_games(1)[1]
    small, large = SearchBot(0, nodes=1, time_ms=None), SearchBot(0, nodes=5000, time_ms=None)
    assert small.choose(state) in state.legal_actions() and small.reached == 2  # two turns are not budgeted
    assert large.choose(state) in state.legal_actions() and large.reached >= 4
    quick = SearchBot(0, nodes=10**9, time_ms=0.001)  # the time limit ends the deepening at once
    assert quick.choose(state) in state.legal_actions() and quick.reached == 1  # one turn always finishes


def test_search_is_repeatable_under_its_seed() -> None:
    states = middle_games(2)
    assert [SearchBot(3).choose(s) for s in states] == [SearchBot(3).choose(s) for s in states]


@pytest.mark.parametrize("name", ["search", "expectimax", "mcts"])
def test_every_search_bot_answers_under_a_tiny_time_budget(name: str) -> None:
    state = middle_games(1)[2]
    huge = {"mcts": {"iterations": 10**7}, "search": {"nodes": 10**9}}.get(name, {})
    bot = make(name, seed=1, time_ms=0.001, **huge)  # without the budget, mcts here would run for hours
    assert bot.choose(state) in state.legal_actions()


@pytest.mark.parametrize("options", [{"nodes": 0}, {"time_ms": 0}, {"time_ms": -5}, {"depth": 1}])
def test_a_bad_budget_is_refused_with_its_name(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match=next(iter(options))):
        make("search", **options)  # type: ignore[arg-type]
    if "time_ms" in options:
        for name in ("expectimax", "mcts"):
            with pytest.raises(ValueError, match="time_ms"):
                make(name, **options)  # type: ignore[arg-type]
