"""The ``lifts`` house rule: a full frame is lifted, its discs fall out, and play goes on."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pexpect
import pytest

from spots.core import StateFormatError, replay
from spots.games.double_spot import DoubleSpotRulesError, Game, Rules, State
from spots.games.double_spot.record import parse_record, record_dict
from support.double_spot import DECK, full_board_position, position
from support.terminal import PROMPT, spawn


def lifted_position(lifts: int, won: tuple[list[str], list[str]] = ([], [])) -> tuple[State, str]:
    """A 3×3 frame one quiet drop from full, under ``lifts``."""
    state, move = full_board_position(won)
    doc = state.to_dict()
    doc["rules"]["lifts"] = lifts
    return State.from_dict(doc), move


def test_a_full_frame_is_lifted_and_play_goes_on() -> None:
    state, move = lifted_position(1, ([DECK[30].id], []))
    holders = list(state.holders)
    state.apply_action(move)
    assert not state.is_terminal() and state.end_reason is None
    assert state.board == [[], [], []] and state.lifted == 1
    assert state.supply == {"blue-green": state.rules.discs, "pink-yellow": state.rules.discs}
    assert state.holders == holders and state.scores() == [1, 0]  # the cards and the score stay
    assert state.seat == 1 and state.legal_actions()[0].startswith("roll")


def test_after_the_last_lift_a_full_frame_ends_the_game() -> None:
    state, move = lifted_position(1, ([DECK[30].id], []))
    doc = state.to_dict()
    doc["lifted"] = 1
    state = State.from_dict(doc)
    state.apply_action(move)
    assert state.is_terminal() and state.end_reason == "full-board" and state.winner == 0


def test_with_no_lifts_a_full_frame_ends_the_game() -> None:
    state, move = full_board_position(([], []))
    assert state.rules.lifts == 0
    state.apply_action(move)
    assert state.is_terminal() and state.end_reason == "full-board"


def test_lifting_is_a_house_rule_off_by_default_and_old_saves_keep_their_game() -> None:
    assert Rules().lifts == 0 and Rules.from_dict({"target": 3}).lifts == 0
    record = record_dict(play_out(Rules(columns=3, rows=3, target=40, lifts=0), 1))
    del record["rules"]["lifts"]  # a record saved before the option existed
    assert Rules.from_saved(record["rules"]).lifts == 0
    assert parse_record(record).replay().end_reason == "full-board"  # the game it was: over on the first full frame
    lifted = record_dict(play_out(Rules(columns=3, rows=3, target=40, lifts=3), 1))
    assert lifted["rules"]["lifts"] == 3  # written out, so the default can never change a saved game
    assert parse_record(lifted).replay().lifted == 3


def play_out(rules: Rules, seed: int) -> State:
    rng = random.Random(seed)
    state = Game(rules).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_lifted_game_still_ends_at_the_target_and_replays() -> None:
    rules = Rules(columns=4, rows=3, target=5, lifts=20)
    games = [play_out(rules, seed) for seed in range(30)]
    lifted = [g for g in games if g.lifted > 0 and g.end_reason == "target"]
    assert lifted, "no random game on a 4×3 frame reached 5 cards after a lift"
    for game in lifted[:5]:
        assert max(game.scores()) == rules.target and game.winner == game.scores().index(rules.target)
        again = replay(lambda: State(rules), game.history())
        assert again == game and again.lifted == game.lifted
        record = parse_record(json.loads(json.dumps(record_dict(game, seats=["me", "greedy"], seed=3))))
        assert record.rules.lifts == 20 and record.replay() == game
        assert State.from_json(game.to_json()) == game


def test_every_lifted_game_ends() -> None:
    for seed in range(10):
        state = play_out(Rules(columns=3, rows=3, target=40, lifts=2), seed)
        assert state.end_reason == "full-board" and state.lifted == 2


def test_a_saved_state_from_before_the_option_still_loads() -> None:
    state = position(["B......."], ["p01", "p02"])
    doc = state.to_dict()
    del doc["lifted"], doc["rules"]["lifts"]
    assert State.from_dict(doc).lifted == 0


@pytest.mark.parametrize("lifts", [-1, 100, "3", True])
def test_a_bad_lifts_value_is_refused(lifts: object) -> None:
    with pytest.raises(DoubleSpotRulesError, match="lifts"):
        Rules(lifts=lifts)  # type: ignore[arg-type]


def test_a_state_lifted_more_often_than_its_rules_allow_is_refused() -> None:
    doc = position(["B......."], ["p01", "p02"], rules=Rules(lifts=0)).to_dict()
    doc["lifted"] = 1
    with pytest.raises(StateFormatError, match="lifted"):
        State.from_dict(doc)


def test_the_terminal_offers_the_option_and_narrates_a_lift(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "greedy", "--seat", "greedy", "--seed", "2", "--columns", "3", "--rows", "3",
                  "--target", "5", "--lifts", "2")
    said = "The frame is full: it is lifted, the discs fall out, and play goes on."
    child.expect(r"\s+".join(re.escape(word) for word in said.split()))  # the terminal may wrap the line
    child.expect(pexpect.EOF)
    saved = json.loads((tmp_path / "double-spot-autosave.json").read_text())
    assert saved["rules"]["lifts"] == 2
    state = replay(lambda: State(Rules.from_dict(saved["rules"])), saved["moves"])
    assert state.is_terminal() and state.lifted >= 1


def test_the_terminal_refuses_a_bad_lifts_value(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "greedy", "--seat", "greedy", "--lifts", "-1")
    child.expect_exact("lifts must be from 0 to 99, not -1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


@pytest.mark.parametrize(("args", "house_rule"), [((), None), (("--lifts", "3"), "(up to 3 times)")])
def test_the_terminal_rules_give_the_default_ending_and_name_the_house_rule_only_when_chosen(
        tmp_path: Path, args: tuple[str, ...], house_rule: str | None) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "1", *args)
    child.expect(PROMPT)
    child.sendline("rules")
    child.expect(r"if\s+the\s+board\s+fills\s+first,\s+more\s+cards\s+wins\s+and\s+equal\s+counts\s+draw\.")
    child.expect(PROMPT)
    assert ("House rule" in child.before) == (house_rule is not None)
    if house_rule:
        assert house_rule in " ".join(child.before.split())
    child.sendline("quit")
    child.expect(pexpect.EOF)
    assert json.loads((tmp_path / "double-spot-autosave.json").read_text())["rules"]["lifts"] == (3 if args else 0)
