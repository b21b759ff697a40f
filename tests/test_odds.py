"""Exact odds (``spots.games.spots.odds``) and the advisor (``spots.games.spots.advice``).

The expected values are worked out by hand in the comments (rules sections 4-5:
a die that fits an empty space of an unscored dog is placed, the rest are
buried, and a yard total above the bust limit, 7 by default, busts). Positions
are built through the notation (``start``) and then adjusted (``adjust``).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import pairwise

import pytest

import spots
from spots import bots
from spots.core.record import play_game
from spots.games.spots import advice as advisor
from spots.games.spots import odds
from spots.games.spots.dice import roll_distribution
from spots.games.spots.greedy import bust_chance as greedy_bust_chance
from spots.games.spots.state import State
from support.spots import adjust, play, start

# z for a two-sided 99.9% interval.
Z999 = 3.2905


def position(yard: list[int], top: str = "zipper", **changes: object) -> State:
    """Seat 0 to choose a trick (beginner set), with this yard and these dog changes.

    The deck's top card is Zipper (4,5,6), a dog no test puts in a pack.
    """
    return adjust(start(top=top), yard=yard, **changes)  # type: ignore[arg-type]


def no_open(yard: list[int], top: str = "zipper") -> State:
    """Both of seat 0's dogs scored: no empty space anywhere, so every die is buried."""
    return position(yard, top, scored=["wilbur", "doog"])


def only_open(yard: list[int], dogs: list[str], filled: dict[str, list[int]]) -> State:
    return position(yard, dogs=dogs, filled=filled)


# --------------------------------------------------------------------------- bust_probability


@pytest.mark.parametrize(
    ("state", "dice", "expected"),
    [
        # Yard 7, nothing open: any face (at least 1) takes it to 8 or more.
        pytest.param(no_open([3, 4]), 1, Fraction(1), id="yard7-no-open-1die"),
        # Yard 2, only a 6 open (Mayor with its 1 filled): a 6 is placed, 1-5 give at most 7.
        pytest.param(only_open([2], ["mayor"], {"mayor": [1]}), 1, Fraction(0), id="yard2-open6-1die"),
        # Yard 6, nothing open: 1 is safe (7), 2-6 bust: 5/6.
        pytest.param(no_open([6]), 1, Fraction(5, 6), id="yard6-no-open-1die"),
        # Yard 6, one open 1-space (Burt): 1 is placed, 2-6 bust: 5/6 again.
        pytest.param(only_open([6], ["burt"], {}), 1, Fraction(5, 6), id="yard6-open1-1die"),
        # Yard 6, only a 2 open (Bristles with its 1 filled): 1 buried -> 7 safe, 2 placed, 3-6 bust: 4/6.
        pytest.param(only_open([6], ["bristles"], {"bristles": [1]}), 1, Fraction(2, 3), id="yard6-open2-1die"),
        # Yard 6, one open 1-space, 2 dice: safe only on 1+1 (one placed, one buried -> 7): 35/36.
        pytest.param(only_open([6], ["burt"], {}), 2, Fraction(35, 36), id="yard6-open1-2dice"),
        # Yard 6, nothing open, 2 dice: at least 1+1 = 2 more: always busts.
        pytest.param(no_open([6]), 2, Fraction(1), id="yard6-no-open-2dice"),
        # Yard 2, nothing open, 2 dice: safe when the sum is at most 5: 1+2+3+4 = 10 of 36 -> 26/36.
        pytest.param(no_open([2]), 2, Fraction(13, 18), id="yard2-no-open-2dice"),
        # Empty yard, nothing open, 2 dice: bust on sums 8-12: 5+4+3+2+1 = 15 of 36.
        pytest.param(no_open([]), 2, Fraction(5, 12), id="yard0-no-open-2dice"),
        # Empty yard, nothing open, 3 dice: safe on sums 3-7: 1+3+6+10+15 = 35 of 216.
        pytest.param(no_open([]), 3, Fraction(181, 216), id="yard0-no-open-3dice"),
        # Yard 2, one open 6 (Mayor), 2 dice: bust when the buried dice exceed 5:
        # two non-6 faces summing to 6 or more (25 - 10 = 15 ordered pairs) or 6+6 (one 6 buried): 16/36.
        pytest.param(only_open([2], ["mayor"], {"mayor": [1]}), 2, Fraction(4, 9), id="yard2-one-open6-2dice"),
        # Same with two open 6s (Mayor and Gretchen): 6+6 is now placed in full: 15/36.
        pytest.param(
            only_open([2], ["mayor", "gretchen"], {"mayor": [1], "gretchen": [5]}), 2, Fraction(5, 12),
            id="yard2-two-open6-2dice",
        ),
    ],
)
def test_bust_probability_by_hand(state: State, dice: int, expected: Fraction) -> None:
    p = odds.bust_probability(state, dice)
    assert isinstance(p, Fraction)
    assert p == expected


def test_bust_probability_follows_the_bust_limit_option() -> None:
    # Yard 6 and nothing open, with the limit raised to 8: faces 1 and 2 are safe, 3-6 bust: 4/6.
    state = adjust(start(bust_limit=8), yard=[6], scored=["wilbur", "doog"])
    assert odds.bust_probability(state, 1) == Fraction(2, 3)


def test_bust_probability_of_another_seat() -> None:
    # Seat 1 (Ursula 1,5 and Missy 3,4) with yard 6: 1 is placed or buried safely, 3, 4, 5 placed;
    # only 2 and 6 bust: 2/6. Seat 0's own position (yard 3, plenty open) is not used.
    state = adjust(start(), seat=1, yard=[6])
    assert odds.bust_probability(state, 1, seat=1) == Fraction(1, 3)


@pytest.mark.parametrize("rerolls", [0, 1, 2, 3])
def test_rerolls_multiply_the_bust_chance(rerolls: int) -> None:
    state = no_open([2])
    p = odds.bust_probability(state, 2)
    assert p == Fraction(13, 18)
    assert odds.bust_probability(state, 2, rerolls=rerolls) == p ** (rerolls + 1)
    # e.g. one reroll: (13/18)^2 = 169/324
    if rerolls == 1:
        assert odds.bust_probability(state, 2, rerolls=1) == Fraction(169, 324)


@pytest.mark.parametrize("dice", range(1, 9))
@pytest.mark.parametrize(
    "state",
    [
        pytest.param(no_open([]), id="yard0-no-open"),
        pytest.param(no_open([2]), id="yard2-no-open"),
        pytest.param(only_open([6], ["burt"], {}), id="yard6-open1"),
        pytest.param(only_open([2], ["mayor", "gretchen"], {"mayor": [1], "gretchen": [5]}), id="yard2-two-open6"),
        pytest.param(position([3]), id="dealt-yard3"),
        pytest.param(position([1, 4]), id="dealt-yard5"),
    ],
)
def test_the_float_bust_chance_greedy_plays_by_is_the_exact_one(state: State, dice: int) -> None:
    """Bots read a memoised float sum (``Position.float_bust_chance``); it must be the exact chance, rounded."""
    exact = odds.bust_probability(state, dice)
    assert odds.Position.of(state).float_bust_chance(dice) == pytest.approx(float(exact), abs=1e-12)
    assert greedy_bust_chance(state, dice) == pytest.approx(float(exact), abs=1e-12)


# --------------------------------------------------------------------------- yard_distribution


def test_yard_distribution_by_hand() -> None:
    # Yard 2, nothing open, 1 die: the face is buried: 3, 4, 5, 6, 7 each 1/6, a 6 (-> 8) busts.
    dist = odds.yard_distribution(no_open([2]), 1)
    assert dist == {3: Fraction(1, 6), 4: Fraction(1, 6), 5: Fraction(1, 6), 6: Fraction(1, 6),
                    7: Fraction(1, 6), "bust": Fraction(1, 6)}
    assert list(dist) == [3, 4, 5, 6, 7, "bust"]  # totals ascending, "bust" last
    # Yard 2, a 6 open: a 6 is placed and the yard stays 2; no bust at all.
    dist = odds.yard_distribution(only_open([2], ["mayor"], {"mayor": [1]}), 1)
    assert dist == {total: Fraction(1, 6) for total in range(2, 8)}


def test_yard_distribution_two_dice_by_hand() -> None:
    # Yard 6, Burt (1) open, 2 dice: 1+1 -> one placed, one buried: 7 (1/36); any other roll busts.
    dist = odds.yard_distribution(only_open([6], ["burt"], {}), 2)
    assert dist == {7: Fraction(1, 36), "bust": Fraction(35, 36)}


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("yard", [[], [3], [2, 4]])
def test_yard_distribution_sums_to_one_and_agrees_with_bust_probability(dice: int, yard: list[int]) -> None:
    state = position(yard)
    dist = odds.yard_distribution(state, dice)
    assert sum(dist.values()) == 1
    assert all(isinstance(p, Fraction) and p > 0 for p in dist.values())
    assert dist.get("bust", 0) == odds.bust_probability(state, dice)
    totals = [k for k in dist if k != "bust"]
    assert all(sum(yard) <= t <= 7 for t in totals)


# --------------------------------------------------------------------------- fill_probability


def test_fill_probability_one_empty_space() -> None:
    # Mayor (1,6) with its 1 filled: one empty space, 6.
    state = only_open([2], ["mayor"], {"mayor": [1]})
    # One die: it completes (and fits) exactly when it shows 6.
    assert odds.fill_probability(state, "mayor", 1) == {"completes": Fraction(1, 6), "fits": Fraction(1, 6)}
    # Two dice: at least one 6: 1 - (5/6)^2 = 11/36, both ways.
    assert odds.fill_probability(state, "mayor", 2) == {"completes": Fraction(11, 36), "fits": Fraction(11, 36)}


def test_fill_probability_two_empty_spaces() -> None:
    # Mayor (1,6), both empty.
    state = only_open([2], ["mayor"], {})
    # Two dice complete it only as 1+6 or 6+1: 2/36; they fit when a 1 or a 6 shows: 1 - (4/6)^2 = 20/36.
    assert odds.fill_probability(state, "mayor", 2) == {"completes": Fraction(1, 18), "fits": Fraction(5, 9)}
    # One die can never complete two spaces; it fits on a 1 or a 6: 2/6.
    assert odds.fill_probability(state, "mayor", 1) == {"completes": Fraction(0), "fits": Fraction(1, 3)}


def test_fill_probability_three_spaces() -> None:
    # Wilbur (1,3,6) from the default deal, 3 dice: complete only as a permutation of 1,3,6: 3!/216 = 1/36;
    # fit unless all three dice avoid 1, 3 and 6: 1 - (1/2)^3 = 7/8.
    state = start()
    assert odds.fill_probability(state, "wilbur", 3) == {"completes": Fraction(1, 36), "fits": Fraction(7, 8)}


# --------------------------------------------------------------------------- trick_fill_chances


def steps_and_dice(rows: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(r["step"], r["dice"]) for r in rows]


def test_trick_fill_chances_lists_the_rolling_steps() -> None:
    state = start()  # yard [3]
    # Walk: roll 2, then (optionally) 1.
    assert steps_and_dice(odds.trick_fill_chances(state, "walk", "wilbur")) == [(1, 2), (2, 1)]
    # Run: roll 3, then 1 (repeatable).
    assert steps_and_dice(odds.trick_fill_chances(state, "run", "wilbur")) == [(1, 3), (2, 1)]
    # Howl: step 1 draws a dog, step 2 rolls 1 die.
    assert steps_and_dice(odds.trick_fill_chances(state, "howl", "wilbur")) == [(2, 1)]
    # Roll Over: the yard's dice (1 here), then 1 die.
    assert steps_and_dice(odds.trick_fill_chances(state, "roll-over", "wilbur")) == [(1, 1), (2, 1)]
    # Fetch: 8 dice. Beg rolls nothing.
    assert steps_and_dice(odds.trick_fill_chances(state, "fetch", "wilbur")) == [(1, 8)]
    assert odds.trick_fill_chances(state, "beg", "wilbur") == []


def test_trick_fill_chances_values_match_fill_probability() -> None:
    state = only_open([2], ["mayor"], {})
    rows = odds.trick_fill_chances(state, "walk", "mayor")
    # Walk's 2 dice: completes 2/36, fits 20/36; its extra die: completes 0, fits 2/6.
    assert rows == [
        {"step": 1, "dice": 2, "completes": Fraction(1, 18), "fits": Fraction(5, 9)},
        {"step": 2, "dice": 1, "completes": Fraction(0), "fits": Fraction(1, 3)},
    ]


def test_trick_fill_chances_dogpile_without_a_die_to_take_rolls_two() -> None:
    # Dogpile takes 2 dice plus 1 from your yard or a dog *when you have one* (section 6).
    # Empty yard, nothing on the dogs: the engine rolls 2 dice, so the odds must be for 2 dice.
    state = adjust(start(tricks="kennel-club"), yard=[], dogs=["mayor"])
    rolled = play(state.clone(), "trick dogpile")
    assert rolled.is_chance_node() and len(rolled.legal_actions()[0].split()) - 1 == 2
    rows = odds.trick_fill_chances(state, "dogpile", "mayor")
    assert steps_and_dice(rows) == [(1, 2)]
    assert rows[0]["completes"] == Fraction(1, 18)


def test_trick_fill_chances_short_supply_rolls_what_is_left() -> None:
    # Section 5.7: too few dice in the supply, roll what there is. With 1 die left, Walk rolls 1.
    state = adjust(start(), supply_dice=1)
    rolled = play(state.clone(), "trick walk")
    assert rolled.legal_actions() == [f"roll {v}" for v in range(1, 7)]
    rows = odds.trick_fill_chances(state, "walk", "wilbur")
    assert rows[0]["dice"] == 1
    assert rows[0]["fits"] == Fraction(1, 2)  # 1, 3 or 6 on one die


# --------------------------------------------------------------------------- reroll_value


def test_reroll_value_keep_a_safe_roll() -> None:
    # Yard 6, Burt (1) open, 1 treat; Walk rolls 1 1: keep -> one 1 placed, one buried -> 7: safe.
    state = play(only_open([6], ["burt"], {}), "trick walk", "roll 1 1")
    assert state.players[0].treats == 1 and "reroll" in state.legal_actions()
    value = odds.reroll_value(state)
    assert value == {
        "keep_bust": Fraction(0),
        "keep_placed": Fraction(1),
        # A fresh roll of 2 busts unless it is 1+1 (see above): 35/36.
        "reroll_bust": Fraction(35, 36),
        # At most one die can be placed (one open space): placed when a 1 shows: 11/36.
        "reroll_placed": Fraction(11, 36),
    }


def test_reroll_value_keep_a_busting_roll() -> None:
    # Same position, roll 2 3: nothing fits, 6 + 5 = 11 busts.
    state = play(only_open([6], ["burt"], {}), "trick walk", "roll 2 3")
    value = odds.reroll_value(state)
    assert value["keep_bust"] == 1 and value["keep_placed"] == 0
    assert value["reroll_bust"] == Fraction(35, 36)


def test_reroll_value_needs_a_roll() -> None:
    with pytest.raises(ValueError, match="no roll"):
        odds.reroll_value(start())


# --------------------------------------------------------------------------- outcomes and sampling


def test_exact_outcomes_up_to_the_limit() -> None:
    dist, method = odds.outcomes(odds.EXACT_LIMIT)
    assert method == "exact"
    assert len(dist) == math.comb(odds.EXACT_LIMIT + 5, 5)  # multisets of 12 faces from 6: 6,188
    assert sum(p for _, p in dist) == 1
    dist, method = odds.outcomes(2)
    assert method == "exact"
    assert dict(dist)[(1, 2)] == Fraction(2, 36) and dict(dist)[(3, 3)] == Fraction(1, 36)


def test_more_dice_than_the_limit_are_sampled() -> None:
    k = odds.EXACT_LIMIT + 1
    dist, method = odds.outcomes(k)
    assert method == "sampled"
    assert all(len(faces) == k and list(faces) == sorted(faces) for faces, _ in dist)
    assert sum(p for _, p in dist) == pytest.approx(1.0)
    assert odds.outcomes(k) == (dist, method)  # fixed seed: the same sample every time
    # A sampled chance agrees with the exact formula: 13 dice complete Mayor (1,6) unless a 1 or
    # a 6 is missing: 1 - 2 (5/6)^13 + (4/6)^13.
    state = only_open([2], ["mayor"], {})
    exact = 1 - 2 * (5 / 6) ** k + (4 / 6) ** k
    got = odds.fill_probability(state, "mayor", k)["completes"]
    assert isinstance(got, float)
    sigma = math.sqrt(exact * (1 - exact) / odds.SAMPLES)
    assert abs(got - exact) < 5 * sigma


# --------------------------------------------------------------------------- Monte Carlo through the engine


def wilson_interval(successes: int, n: int, z: float = Z999) -> tuple[float, float]:
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def simulated_busts(state: State, trick: str, samples: int, seed: int) -> int:
    """Do ``trick`` and resolve its first roll well through the engine: place what fits, bury the rest."""
    at_roll = play(state.clone(), f"trick {trick}")
    assert at_roll.phase == "chance-roll"
    seat = state.seat
    rng = random.Random(seed)
    busts = 0
    for _ in range(samples):
        s = at_roll.clone()
        s.sample_chance(rng)
        while s.phase == "roll" and s.roll is not None and s.roll.dice:
            moves = s.legal_actions()
            place = [m for m in moves if m.startswith("place ")]
            s.apply_action(place[0] if place else next(m for m in moves if m.startswith("bury ")))
        busts += s.busts[seat] - state.busts[seat]
    return busts


@pytest.mark.parametrize(
    ("state", "trick", "dice"),
    [
        # Yard 2; Mayor's 6 and Bongo's 1 and 3 open; Walk rolls 2 dice.
        pytest.param(only_open([2], ["mayor", "bongo"], {"mayor": [1]}), "walk", 2, id="walk"),
        # The default deal (yard 3; Wilbur 1,3,6 and Doog 2,3,5,6 open); Run rolls 3 dice.
        pytest.param(start(), "run", 3, id="run"),
    ],
)
def test_bust_probability_agrees_with_monte_carlo(state: State, trick: str, dice: int) -> None:
    n = 20_000
    exact = odds.bust_probability(state, dice)
    busts = simulated_busts(state, trick, n, seed=12345)
    low, high = wilson_interval(busts, n)
    assert low <= exact <= high, f"exact {float(exact):.4f} outside [{low:.4f}, {high:.4f}] ({busts}/{n})"


# --------------------------------------------------------------------------- advisor


def decision_states() -> list[State]:
    """Some decision positions: turn starts, a roll in hand, and positions of a seeded game."""
    out = [start(), play(start(), "trick walk", "roll 4 6"), play(start(), "trick run", "roll 2 3 5")]
    state = spots.Game(spots.Rules(players=2)).new_initial_state()
    rng = random.Random(7)
    greedy = bots.make("greedy", seed=1)
    decisions = 0
    while not state.is_terminal() and len(out) < 8:
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        decisions += 1
        if decisions % 9 == 0:
            out.append(state.clone())
        state.apply_action(greedy.choose(state))
    return out


@pytest.mark.parametrize("state", decision_states())
def test_advise_ranks_every_legal_move_once(state: State) -> None:
    advice = advisor.advise(state)
    moves = [a.move for a in advice]
    assert sorted(moves) == sorted(state.legal_actions())
    assert len(set(moves)) == len(moves)
    scores = [a.score for a in advice]
    assert all(a >= b for a, b in pairwise(scores)), scores
    for a in advice:
        assert a.bust is None or (isinstance(a.bust, Fraction) and 0 <= a.bust <= 1), a


def test_bust_chance_of_burying_a_six() -> None:
    # The limit is 7 and a yard *above* it busts: 1 + 6 = 7 is safe, 2 + 6 = 8 busts.
    # (Yard 2 -> 0 and yard 3 -> 1 would be off by one.) The 3 left in hand fits a dog either way.
    safe = play(position([1]), "trick walk", "roll 3 6")
    bust = play(position([2]), "trick walk", "roll 3 6")
    assert "bury 6" in safe.legal_actions() and "bury 6" in bust.legal_actions()
    assert advisor.bust_chance(safe, "bury 6") == 0
    assert advisor.bust_chance(bust, "bury 6") == 1
    # With the limit raised to 8, yard 2 + 6 is safe.
    raised = play(adjust(start(bust_limit=8), yard=[2]), "trick walk", "roll 3 6")
    assert advisor.bust_chance(raised, "bury 6") == 0


def test_a_die_placed_or_buried_busts_you_when_the_dice_left_in_hand_must() -> None:
    """The chance is of busting before your next choice: burying the 6 leaves a 4 that fits no dog (Wilbur and Doog
    have no 4), and 1 + 6 + 4 busts; the move busts you though the 6 alone would not."""
    state = play(position([1]), "trick walk", "roll 4 6")
    assert advisor.bust_chance(state, "bury 6") == 1
    assert advisor.bust_chance(state, "place 6 wilbur") == 0  # then the 4 is buried: 1 + 4 = 5
    assert advisor.bust_chance(state, "bury 4") == 0  # then the 6 is placed
    heavy = play(position([2]), "trick walk", "roll 4 6")
    assert advisor.bust_chance(heavy, "place 6 wilbur") == 0  # 2 + 4 = 6
    assert advisor.bust_chance(heavy, "bury 4") == 0  # 2 + 4 = 6, the 6 goes on a dog


def test_bust_chance_of_a_plain_trick_matches_the_odds() -> None:
    state = only_open([2], ["mayor"], {"mayor": [1]})
    assert advisor.bust_chance(state, "trick walk") == odds.bust_probability(state, 2) == Fraction(4, 9)
    assert advisor.bust_chance(state, "trick run") == odds.bust_probability(state, 3)
    assert advisor.bust_chance(state, "trick beg") is None  # rolls nothing


def test_bust_chance_of_a_reroll_matches_reroll_value() -> None:
    state = play(only_open([6], ["burt"], {}), "trick walk", "roll 2 3")
    assert advisor.bust_chance(state, "reroll") == odds.reroll_value(state)["reroll_bust"] == Fraction(35, 36)


def test_bust_chance_of_roll_over_rolls_from_an_empty_yard() -> None:
    # Roll Over takes every die out of the yard before rolling them (section 6): yard 3 + 4 = 7, nothing
    # open -> the two dice are rolled with an empty yard and bust on sums 8-12: 15/36 (not certain).
    state = no_open([3, 4])
    rolled = play(state.clone(), "trick roll-over")
    assert rolled.players[0].yard == [] and rolled.legal_actions()[0] == "roll 1 1"
    assert advisor.bust_chance(state, "trick roll-over") == Fraction(5, 12)


def test_bust_chance_of_howl_counts_the_dog_it_draws() -> None:
    # Howl draws the top dog (Burt, 1) before rolling 1 die. Yard 7, nothing else open:
    # a 1 goes on Burt, 2-6 bust: 5/6 (not certain).
    state = no_open([3, 4], top="burt")
    assert state.to_dict()["deck"]["top"] == "burt"
    assert advisor.bust_chance(state, "trick howl") == Fraction(5, 6)


def test_bust_chance_of_search_when_no_set_adds_to_eight() -> None:
    # Search rolls 7 dice; a set adding to exactly 8 must be kept, and if none does, all return
    # (section 6): no bust. Empty yard, nothing open: a kept set of 8 is buried and busts (8 > 7), so
    # the bust chance is the chance that some set adds to 8, e.g. seven 6s have none: below 1.
    state = adjust(start(tricks="kennel-club", top="zipper"), yard=[], scored=["wilbur", "doog"])

    def has_eight(faces: tuple[int, ...]) -> bool:
        sums = {0}
        for v in faces:
            sums |= {t + v for t in sums}
        return 8 in sums

    no_eight = sum((p for faces, p in roll_distribution(7) if not has_eight(faces)), Fraction(0))
    assert no_eight == Fraction(401, 31104)
    assert advisor.bust_chance(state, "trick search") == 1 - no_eight


def test_advise_at_a_chance_node_or_terminal_state_is_empty() -> None:
    chance = play(start(), "trick walk")
    assert chance.is_chance_node()
    assert advisor.advise(chance) == []
    state = spots.Game(spots.Rules(players=2, target=1)).new_initial_state()
    play_game(state, [bots.make("greedy", seed=0), bots.make("random", seed=1)], random.Random(0))
    assert state.is_terminal()
    assert advisor.advise(state) == []
    assert advisor.format_advice([]) == "No decision to advise on here."


def test_format_advice_lists_the_moves() -> None:
    state = play(start(), "trick walk", "roll 4 6")
    advice = advisor.advise(state)
    text = advisor.format_advice(advice)
    lines = text.splitlines()
    assert "move" in lines[0] and "bust now" in lines[0]
    for rank, a in enumerate(advice, 1):
        assert any(line.split()[:2] == [str(rank), a.move.split()[0]] and a.move in line for line in lines[1:])
    short = advisor.format_advice(advice, limit=2)
    assert len(short.splitlines()) == 1 + 2 + 1
    assert f"... and {len(advice) - 2} more" in short
