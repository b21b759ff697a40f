"""The Double Spot advisor and the expectimax bot: exact chances on constructed positions, ties shown as ties."""

from __future__ import annotations

import random

import pytest

from spots.games.double_spot import Game, Rules, State
from spots.games.double_spot.advice import advise
from spots.games.double_spot.bots import finish_chance, finishing_drops, make
from spots.games.double_spot.expectimax import ExpectimaxBot
from spots.games.double_spot.terminal import format_hints
from support.double_spot import position


def by_move(state: State) -> dict[str, object]:
    return {a.move: a for a in advise(state)}


def test_a_drop_that_hands_over_a_finish_shows_the_opponents_chance_and_ranks_below_safe_drops() -> None:
    # p01 is blue, blue, green upward: blue on blue in column 1 (or beside it in column 2) leaves one green to go,
    # which the opponent gets from two faces of six (solid and split).
    state = position(["B......."], ["p01", "p13"], die="blue")
    advice = by_move(state)
    for n in (1, 2):
        a = advice[f"drop {n} blue"]
        assert a.risk == pytest.approx(1 / 3) and a.takes == () and a.rank > 1  # type: ignore[attr-defined]
    safe = [advice[f"drop {n} blue"] for n in (3, 4, 5, 7, 8)]
    assert {a.risk for a in safe} == {0.0} and {a.rank for a in safe} == {2}  # type: ignore[attr-defined]
    assert len({a.value for a in safe}) == 1 and safe[0].value == 0.5  # type: ignore[attr-defined]
    assert advice["drop 1 blue"].value < 0.5  # type: ignore[attr-defined]


def test_a_drop_that_forks_the_opponent_ranks_first_with_its_next_roll_chance() -> None:
    # Blue in column 6 with blue in column 1: if the opponent rolls solid blue (green from the front), every
    # column they can drop into makes blue-blue-green or blue-green-yellow one disc short, so the mover then
    # finishes with a chance of 1/3: 1/6 × 1/3 = 1/18.
    state = position(["B......."], ["p01", "p13"], die="blue")
    best = advise(state)[0]
    assert best.move == "drop 6 blue" and best.rank == 1 and best.risk == 0.0
    assert best.next == pytest.approx(1 / 18) and best.value == pytest.approx(0.5 + 1 / 36)


def test_a_finishing_drop_ranks_first_and_names_the_card() -> None:
    state = position(["B.......", "B......."], ["p01", "p13"], die="green")
    best = advise(state)[0]
    assert best.move == "drop 1 green" and best.takes == ("p01",) and best.rank == 1
    # ... but the green it leaves on blue is one yellow short of p13, which the opponent rolls 1 time in 3
    assert best.swing == pytest.approx(1 - 1 / 3) and best.value == pytest.approx(0.5 + (1 - 1 / 3) / 2)
    assert best.risk is None and best.next is None  # new cards are coming: nothing is known about them yet
    assert all(a.rank > 1 for a in advise(state)[1:])


def test_the_drop_that_wins_the_game_scores_one() -> None:
    state = position(["B.......", "B......."], ["p01", "p13"], die="green", rules=Rules(target=1))
    best = advise(state)[0]
    assert best.move == "drop 1 green" and best.result == 1.0 and best.value == 1.0


def test_equal_drops_share_a_rank_in_the_terminal_table() -> None:
    state = position(["B......."], ["p01", "p13"], die="blue")
    text = format_hints(advise(state), ["Ana", "Bo"], 0, limit=8)
    assert "gives Bo a 33% chance to finish a card on their roll" in text
    ranks = [line.split()[0] for line in text.splitlines()[2:]]
    assert ranks == ["1", "2", "2", "2", "2", "2", "7", "7"]
    assert "then a 6% chance for you to finish one on your next roll" in text


def brute_force(state: State, move: str) -> tuple[float, float]:
    """The opponent's finish chance and the mover's next one, by playing every roll and reply in the engine."""
    after = state.clone()
    after.apply_trusted(move)
    gives = finish_chance(after.supply, after.seat, finishing_drops(after))
    total, rolls = 0.0, after.legal_actions()
    for roll in rolls:
        reply = after.clone()
        reply.apply_trusted(roll)
        targets = finishing_drops(reply)
        chances = []
        for drop in reply.legal_actions():
            _, n, colour = drop.split()
            if (reply.column_index(int(n)), colour if reply.seat == 0 else FLIP[colour]) in targets:
                break  # the opponent finishes a card with this roll: counted in ``gives``
            mine = reply.clone()
            mine.apply_trusted(drop)
            chances.append(finish_chance(mine.supply, mine.seat, finishing_drops(mine)))
        else:
            total += min(chances)
    return gives, total / len(rolls)


FLIP = {"blue": "green", "green": "blue", "pink": "yellow", "yellow": "pink"}


def midgame(seed: int) -> State:
    rng = random.Random(seed)
    state = Game(Rules()).new_initial_state()
    drops = rng.randrange(8, 28)
    while not state.is_terminal() and sum(map(len, state.board)) < drops:
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node() and not state.is_terminal():
        state.sample_chance(rng)
    return state


@pytest.mark.parametrize("seed", range(12))
def test_the_bots_chances_match_playing_every_roll_and_reply(seed: int) -> None:
    state = midgame(seed)
    if state.is_terminal():
        pytest.skip("the random game ended early")
    for j in ExpectimaxBot(0).judge(state):
        if j.takes:
            continue
        gives, nxt = brute_force(state, j.move)
        assert j.gives == pytest.approx(gives) and j.next == pytest.approx(nxt), j.move


def test_the_bot_is_registered_deterministic_and_never_passes_up_a_card() -> None:
    state = position(["B.......", "B......."], ["p01", "p13"], die="green")
    assert make("expectimax", seed=3).choose(state) == "drop 1 green"
    mid = midgame(5)
    assert make("expectimax", seed=3).choose(mid.clone()) == make("expectimax", seed=3).choose(mid.clone())


def test_the_deeper_search_still_takes_a_card_and_is_deterministic() -> None:
    state = position(["B.......", "B......."], ["p01", "p13"], die="green")
    assert make("expectimax", seed=1, deep=3).choose(state) == "drop 1 green"
    mid = midgame(7)
    assert make("expectimax", seed=1, deep=3).choose(mid.clone()) == make("expectimax", seed=1, deep=3).choose(mid)
