"""A saved Double Spot state loads as strictly as a Spots one: wrong types and unreachable positions are refused.

Each document below starts from a position real play reached and changes one thing; loading it must raise
``StateFormatError`` saying what is wrong, where the loader once coerced (``int(True)``, ``int(2.9)``) or let
an impossible position through.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from spots.core.errors import StateFormatError
from spots.games.double_spot import Rules, State
from spots.games.double_spot.bots import make

Doc = dict[str, Any]


def play_until(rules: Rules, stop: Callable[[State], bool], seeds: int = 200) -> State:
    """The first position of seeded random-vs-greedy games where ``stop`` holds (games tried in seed order)."""
    for seed in range(seeds):
        state, rng = State(rules), random.Random(seed)
        bots = [make("random", seed), make("greedy", seed)]
        while not stop(state):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.sample_chance(rng)
            else:
                state.apply_action(bots[state.current_player()].choose(state))
        else:
            return state
    raise AssertionError("no game reached the position")


def mid_game() -> Doc:
    state = play_until(Rules(), lambda s: s.turn == 6 and s.phase == "roll")
    return state.to_dict()


def test_a_real_position_loads_back_the_same() -> None:
    doc = mid_game()
    assert State.from_dict(doc).to_dict() == doc


@pytest.mark.parametrize(("field", "value", "message"), [
    ("seat", True, "seat must be a whole number"),
    ("seat", 2, "seat must be 0 or 1, not 2"),
    ("turn", 2.9, "turn must be a whole number"),
    ("turn", -1, "turn must be at least 0"),
    ("passing", 1, "passing must be true or false, not 1"),
    ("winner", "0", "winner must be a whole number"),
    ("claiming", True, "claiming must be a whole number"),
    ("lifted", 1.5, "lifted must be a whole number"),
    ("lifted", 4, "lifted must be from 0 to the rules' lifts (0), not 4"),
    ("die", "purple", "die must be one of blue, green"),
    ("phase", "dance", "phase must be one of roll, reveal, claim, drop, over"),
    ("end_reason", "bored", "end_reason must be one of target, full-board or null"),
    ("history", ["roll blue", 3], "a move of the history must be a text, not 3"),
    ("deck", [5], "a card of the deck must be a text, not 5"),
    ("refill", [0, 0], "refill names a holder twice"),
    ("holders", ["p01"], "holders must be a list of 2"),
])
def test_a_field_of_the_wrong_type_is_refused_not_coerced(field: str, value: Any, message: str) -> None:
    doc = {**mid_game(), field: value}
    with pytest.raises(StateFormatError, match="corrupt state: " + message.replace("(", r"\(").replace(")", r"\)")):
        State.from_dict(doc)


def test_a_match_left_unclaimed_on_the_board_is_refused() -> None:
    """Under the ``first`` claim rule a card already on the board is raced for; left face up, it is impossible."""
    claiming = play_until(Rules(claim="first"), lambda s: s.phase == "claim")
    holder = claiming.claiming
    assert holder is not None
    assert State.from_dict(claiming.to_dict()).claiming == holder  # the race itself is a real position
    doc = {**claiming.to_dict(), "phase": "roll", "claiming": None}
    card = claiming.holders[holder]
    with pytest.raises(StateFormatError, match=f"card {card} is face up and on the board, yet nobody took"):
        State.from_dict(doc)


def test_a_player_at_the_target_while_play_goes_on_is_refused() -> None:
    doc = mid_game()
    taken, deck = doc["deck"][:5], doc["deck"][5:]
    doc = {**doc, "deck": deck, "won": [doc["won"][0] + taken, doc["won"][1]]}
    with pytest.raises(StateFormatError, match=r"seat 0 holds \d+ cards \(the target is 5\), yet play goes on"):
        State.from_dict(doc)


def test_a_full_frame_that_is_not_over_is_refused() -> None:
    rules = Rules(columns=4, rows=4, target=5, lifts=0)
    full = play_until(rules, lambda s: s.is_terminal() and s.end_reason == "full-board")
    assert State.from_dict(full.to_dict()).end_reason == "full-board"
    doc = {**full.to_dict(), "phase": "roll", "winner": None, "end_reason": None}
    with pytest.raises(StateFormatError, match="the frame is full, yet play goes on"):
        State.from_dict(doc)


def test_an_ending_that_does_not_match_the_position_is_refused() -> None:
    doc = mid_game()
    with pytest.raises(StateFormatError, match="an end reason exactly when it is over"):
        State.from_dict({**doc, "end_reason": "target"})
    with pytest.raises(StateFormatError, match="the game ended on a full frame, but the frame is not full"):
        State.from_dict({**doc, "phase": "over", "end_reason": "full-board"})
    with pytest.raises(StateFormatError, match="the winner does not hold that many cards"):
        State.from_dict({**doc, "phase": "over", "end_reason": "target", "winner": 1})


def test_a_state_saved_before_lifts_existed_still_loads() -> None:
    doc = mid_game()
    del doc["lifted"]
    assert State.from_dict(doc).lifted == 0
