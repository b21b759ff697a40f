"""Saved states and records written by earlier engines still load and play on, with the rules they were played with.

The files in ``fixtures/spots_v1`` were written by the Spots engine before its rebuild (commit 6e3a621)
with ``make_fixtures.py``; the expectations beside them (legal moves, and a hash of the state reached by
seeded random play) too. ``fixtures/double_spot_lifts3`` holds Double Spot documents written while a
full frame was lifted three times by default (commit dab9037), each with its rules left at the defaults.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from spots.core import ReplayError
from spots.games.double_spot import Rules as DsRules
from spots.games.double_spot import State as DsState
from spots.games.double_spot.record import load_record as load_ds_record
from spots.games.double_spot.record import open_record as open_ds_record
from spots.games.spots.record import load_record
from spots.games.spots.state import State

HERE = Path(__file__).parent / "fixtures" / "spots_v1"
EXPECTED = json.loads((HERE / "states_expected.json").read_text())


def sha(state: State) -> str:
    return hashlib.sha256(state.to_json().encode()).hexdigest()


@pytest.mark.parametrize("case", EXPECTED, ids=[c["file"] for c in EXPECTED])
def test_old_saved_state_loads_and_plays_on_identically(case):
    text = (HERE / case["file"]).read_text()
    state = State.from_json(text)
    assert state.to_json() == text.strip()  # the same document, key for key
    assert state.legal_actions() == case["legal"]
    rng = random.Random(case["continuation_seed"])
    for _ in range(case["continuation_steps"]):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.history()) == case["after_history_length"]
    assert sha(state) == case["after_sha256"]


def test_old_record_replays_to_the_same_final_state():
    expected = json.loads((HERE / "record_expected.json").read_text())
    state = load_record(HERE / expected["record"])
    assert state.is_terminal()
    assert state.returns() == expected["returns"]
    assert sha(state) == expected["final_sha256"]


# ------------------------------------------------------------------ Double Spot, saved while lifts was 3 by default

DOUBLE_SPOT = Path(__file__).parent / "fixtures" / "double_spot_lifts3"


def test_double_spot_records_saved_while_lifts_was_3_by_default_replay_with_3_lifts():
    """The record of a greedy game that reached the target after two lifts; under today's default (a full
    frame ends the game) the same moves would stop at the 40th drop, so its rules must come from the file."""
    expected = json.loads((DOUBLE_SPOT / "expected.json").read_text())["record_8x5.json"]
    record = open_ds_record(DOUBLE_SPOT / "record_8x5.json")
    assert record.rules == DsRules(lifts=3)
    state = record.replay()
    assert [state.end_reason, state.lifted, state.returns()] == [expected[k] for k in ("end_reason", "lifted",
                                                                                     "returns")]
    assert hashlib.sha256(state.to_json().encode()).hexdigest() == expected["final_sha256"]
    with pytest.raises(ReplayError, match="move 83 of the record: the game is over"):  # after the 40th drop
        replace(record, rules=DsRules()).replay()


def test_double_spot_selfplay_record_of_the_old_command_line_loads_as_played():
    state = load_ds_record(DOUBLE_SPOT / "selfplay_4x3.json")  # spots selfplay --columns 4 --rows 3, no --lifts
    assert state.rules.lifts == 3 and state.lifted == 3 and state.is_terminal()
    assert sum(m.startswith("drop") for m in state.history()) == 48  # four full 4×3 frames


def test_double_spot_state_saved_after_a_lift_loads_and_plays_on():
    text = (DOUBLE_SPOT / "state_after_a_lift.json").read_text()
    expected = json.loads((DOUBLE_SPOT / "expected.json").read_text())["state_after_a_lift.json"]
    state = DsState.from_json(text)
    assert state.to_json() == text.strip()  # the same document, key for key
    assert state.rules.lifts == 3 and state.lifted == expected["lifted"] == 1
    assert sum(m.startswith("drop") for m in state.history()) == expected["drops"]
    assert state.board == [[] for _ in range(8)] and state.legal_actions()[0].startswith("roll")
