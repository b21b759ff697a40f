"""Saved states and records written by the engine before its rebuild (commit 6e3a621) still load and play on.

The files in ``fixtures/spots_v1`` were written by that commit's engine with ``make_fixtures.py``; the
expectations beside them (legal moves, and a hash of the state reached by seeded random play) too.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

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

