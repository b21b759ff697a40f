"""Double Spot in the terminal, driven as a player would: the real `spots play --game double-spot` program.

Also the Double Spot record format the terminal saves (round trip, tampering), as unit tests.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from spots import cli
from spots.core.errors import ReplayError, StateFormatError
from spots.games.double_spot import Rules, State, replay
from spots.games.double_spot.bots import make
from spots.games.double_spot.record import (
    RECORD_FORMAT,
    load_record,
    open_record,
    parse_record,
    read_record,
    record_dict,
    save_record,
)
from spots.games.double_spot.terminal import DoubleSpotGame, new_table, parse_claim
from support.processes import waiting_for_input
from support.terminal import PROMPT, spawn, stopped_cleanly

CLAIM = re.compile(r"Who claimed it first, seat 1 or 2\? > ")
END = re.compile(r"wins!|A draw")
BOARD = re.compile(r"Turn \d+.*?(?=\n\s*1\. )", re.S)  # the picture, up to the numbered moves


def play_to_end(child: pexpect.spawn, answer: str = "1", limit: int = 200) -> str:
    """Answer every prompt with ``answer`` until the game ends; return everything shown meanwhile."""
    seen = []
    for _ in range(limit):
        index = child.expect([PROMPT, CLAIM, END])
        seen.append(child.before)
        if index == 2:
            child.expect(pexpect.EOF)
            return "".join(seen)
        child.sendline(answer if index == 0 else "1")
    raise AssertionError("the game did not end")


def autosaved(tmp_path: Path, name: str = "double-spot-autosave.json") -> dict:
    return json.loads((tmp_path / name).read_text())


# --------------------------------------------------------------------------- whole games


def test_a_whole_game_against_greedy_to_the_end(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "4")
    child.expect("Double Spot: 8 columns × 5 rows, first to 5 cards wins")
    for _ in range(200):
        if child.expect([PROMPT, END]) == 1:
            break
        assert child.match.group(1) == "1"  # the human sits in the first seat (seat 1 to people, 0 in notation)
        screen = child.before
        assert "The board as Seat 1 (you) sees it:" in screen and "1 2 3 4 5 6 7 8" in screen
        assert "Cards of Seat 1 (you)" in screen and "Die: " in screen and "Holder 1: p" in screen
        child.sendline("1")
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    record = autosaved(tmp_path)  # the record is saved after every move: here the whole game
    assert record["format"] == RECORD_FORMAT and record["seats"] == ["me", "greedy"] and record["seed"] == 4
    state = replay(record["moves"], Rules.from_dict(record["rules"]))
    assert state.is_terminal()


def test_the_log_tells_each_move_in_plain_words(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "greedy", "--seat", "greedy", "--seed", "2", "--target", "1")
    shown = " ".join((play_to_end(child) + child.before).split())  # long lines are wrapped to the terminal
    assert re.search(r"Card p\d+ goes into holder 1\.", shown)
    assert re.search(r"Seat 1 \(greedy bot\) rolls (blue|green|pink|yellow|blue/green|pink/yellow)\.", shown)
    assert re.search(r"Seat \d \(greedy bot\) drops a disc into column \d from their side, showing \w+ to them\.",
                     shown)
    assert re.search(r"Seat \d \(greedy bot\) takes card p\d+\. Seat \d \(greedy bot\) wins with 1 card\.", shown)


def test_options_are_accepted_and_the_first_claim_rule_asks_who_claimed(tmp_path: Path) -> None:
    # Seed 34 with these options reaches a card already on the board at the 7th prompt (answering 1).
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "34", "--columns", "5", "--rows", "4",
                  "--target", "3", "--claim", "first")
    child.expect("Double Spot: 5 columns × 4 rows, first to 3 cards wins")
    child.expect("goes to whoever claims it first")
    for _ in range(30):
        if child.expect([PROMPT, CLAIM]) == 1:
            break
        assert re.search(r"\n1 2 3 4 5(?! 6)", child.before)  # five columns
        child.sendline("1")
    else:
        pytest.fail("no claim came up")
    assert re.search(r"Card p\d+ is already on the board", child.before)
    child.sendline("3")
    child.expect("Please answer 1 or 2")
    child.expect(CLAIM)
    child.sendline("claim 1")
    child.expect(r"Seat 2 \(greedy bot\) claims the card first\. Seat 2 \(greedy bot\) takes card p\d+\.")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect_exact("Saved to double-spot-autosave.json; continue with: spots play --load double-spot-autosave.json")
    child.expect(pexpect.EOF)
    record = autosaved(tmp_path)
    assert record["rules"] == {"columns": 5, "rows": 4, "discs": 10, "target": 3, "claim": "first", "lifts": 0}
    assert "claim 1" in record["moves"]


def test_ctrl_c_stops_cleanly_and_names_the_autosave(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "3")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    moves = autosaved(tmp_path)["moves"]
    waiting_for_input(child.pid)
    child.sendintr()
    stopped_cleanly(child, "double-spot-autosave.json")
    assert autosaved(tmp_path)["moves"] == moves


@pytest.mark.parametrize(("answer", "seat"), [("1", 0), ("2", 1), (" claim 1 ", 1), ("claim 0", 0), ("Seat 1", 0),
                                              ("seat 2", 1), ("0", None), ("3", None), ("claim 2", None),
                                              ("claim", None), ("me", None), ("", None)])
def test_the_claim_answer(answer: str, seat: int | None) -> None:
    assert parse_claim(answer) == seat


def test_with_bots_only_claims_are_drawn_not_asked() -> None:
    asked: list[str] = []
    for seed in range(34, 80):  # some seeded game has a claim; none may ask anyone
        table = new_table(Rules(claim="first", columns=5, rows=4, target=3), ["greedy", "greedy"], seed, None)
        game = DoubleSpotGame(table, Console(file=io.StringIO()), fast=True, plain=True, ask=asked.append)
        assert game.run() == 0 and game.state.is_terminal()
        if any(m.startswith("claim") for m in game.state.history()):
            break
    else:
        pytest.fail("no claim in these games")
    assert asked == []


# --------------------------------------------------------------------------- commands


def test_commands_and_bad_input_keep_the_same_prompt(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "1")
    child.expect(PROMPT)
    seat = child.match.group(1)
    for typo, message in [
        ("drop 99 blue", "illegal drop"),
        ("flibber", "not Double Spot notation"),
        ("99", "There is no move 99"),
        ("save", "Say where"),
        ("undo", "a drop cannot be taken back"),
        ("rules", "The first player to take 5 cards wins"),
        ("help", "Commands: hint"),
    ]:
        child.sendline(typo)
        child.expect(message)
        child.expect(PROMPT)
        assert child.match.group(1) == seat
    child.sendline("quit")
    child.expect_exact("Saved to double-spot-autosave.json; continue with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not any("99" in m or "flibber" in m for m in autosaved(tmp_path)["moves"])


def test_hint_ranks_the_drops_the_same_way_each_time(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "5")
    for _ in range(6):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    hints = []
    for _ in range(2):
        child.sendline("hint")
        child.expect(r"rank\s+move\s+value\s+what it does")
        child.expect(PROMPT)
        hints.append(child.before.split(" 1. drop")[0])
    assert hints[0] == hints[1]
    rows = re.findall(r"^\s+\d\s+(drop \d+ \w+)\s+(\d+)%\s+(.*)$", hints[0].replace("\r", ""), re.M)
    assert 1 <= len(rows) <= 5 and all(0 <= int(v) <= 100 for _, v, _ in rows)
    assert all("card" in what for _, _, what in rows)
    child.sendline(rows[0][0])  # the hinted drop is a legal move
    child.expect(r"Seat 1 \(you\) drops a disc")
    child.sendline("quit")
    child.expect(pexpect.EOF)


# --------------------------------------------------------------------------- saving and loading


def test_save_and_load_continue_the_same_position(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "7")
    for _ in range(5):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    before = BOARD.search(child.before).group(0)
    child.sendline("save saved.json")
    child.expect("Saved to saved.json; continue with: spots play --load saved.json")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    saved = json.loads((tmp_path / "saved.json").read_text())
    assert saved["seats"] == ["me", "greedy"] and saved["moves"][-1].startswith("roll")
    child = spawn(tmp_path, "--load", "saved.json", game=False)  # the file says which game it is
    child.expect("The game is saved after every move to saved.json")
    child.expect(PROMPT)
    assert BOARD.search(child.before).group(0) == before  # the same board, cards and die
    child.sendline("1")
    play_to_end(child)
    finished = json.loads((tmp_path / "saved.json").read_text())  # the loaded game autosaves to its file
    assert finished["moves"][: len(saved["moves"])] == saved["moves"]
    assert replay(finished["moves"], Rules.from_dict(finished["rules"])).is_terminal()


@pytest.mark.parametrize(("content", "message"), [
    ('{"format": "double-spot-record", "version": 1, "moves": [', "not valid JSON"),
    (json.dumps({"format": "double-spot-record", "version": 1, "rules": {"rows": 99}, "moves": []}),
     "bad rules in record: rows must be from 3 to 10"),
    (json.dumps({"format": "double-spot-record", "version": 1, "rules": {}, "moves": ["reveal p01", "drop 1 blue"]}),
     "move 2 of the record"),
])
def test_a_corrupt_or_tampered_file_is_refused_and_left_alone(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "bad.json").write_text(content)
    child = spawn(tmp_path, "--load", "bad.json")
    child.expect(message)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert (tmp_path / "bad.json").read_text() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize(("options", "message"), [
    (["--columns", "2"], "columns must be from 3 to 12, not 2"),
    (["--rows", "21"], "rows must be from 3 to 10, not 21"),
    (["--target", "0"], "target must be from 1 to 40, not 0"),
    (["--claim", "last"], "claim must be one of mover, first, not 'last'"),
    (["--tricks", "hunting"], "--tricks is a Spots option"),
    (["--seat", "me", "--seat", "hal9000"], "unknown seat 'hal9000'"),
])
def test_bad_options_are_refused_before_anything_happens(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch, options: list[str],
                                                         message: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert cli.main(["play", "--game", "double-spot", "--fast", *options]) == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_double_spot_options_need_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--columns", "5"]) == 2
    assert "--columns is a Double Spot option: add --game double-spot" in capsys.readouterr().err


def test_default_game_is_still_spots(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "1", game=False)
    child.expect("Spots: 2 players")
    child.expect(r"Seat 1 > ")
    child.sendline("quit")
    child.expect(pexpect.EOF)


# --------------------------------------------------------------------------- the record format


def played(seed: int, moves: int, **options: object) -> State:
    """A seeded bot game stopped after ``moves`` moves."""
    state = State(Rules(**options))  # type: ignore[arg-type]
    rng, bots = random.Random(seed), [make("greedy", seed=1), make("greedy", seed=2)]
    while not state.is_terminal() and len(state.history()) < moves:
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(bots[state.current_player()].choose(state))
    return state


def test_a_record_round_trips(tmp_path: Path) -> None:
    state = played(3, 40, columns=6, rows=4, target=4, claim="first")
    save_record(state, tmp_path / "game.json", seats=["me", "mcts"], seed=12)
    record, again = open_record(tmp_path / "game.json"), load_record(tmp_path / "game.json")
    assert again == state and again.history() == state.history()
    assert record.seats == ["me", "mcts"] and record.seed == 12 and record.rules == state.rules
    bare = read_record(json.dumps(record_dict(state)))
    assert bare.seats is None and bare.seed is None and bare.replay() == state
    assert parse_record(json.loads(state.to_json())).replay() == state  # a saved state reads as a record too


@pytest.mark.parametrize(("change", "error", "message"), [
    (lambda d: d["moves"].__setitem__(12, "drop 1 pink-yellow"), ReplayError, "move 13 of the record"),
    (lambda d: d["moves"].insert(3, "roll blue"), ReplayError, "move 4 of the record"),
    (lambda d: d["rules"].__setitem__("columns", 2), StateFormatError, "bad rules in record: columns"),
    (lambda d: d["rules"].__setitem__("colour", "red"), StateFormatError, "unknown option(s) colour"),
    (lambda d: d.pop("rules"), StateFormatError, 'no "rules"'),
    (lambda d: d.__setitem__("moves", "reveal p01"), StateFormatError, 'the moves must be a list of strings'),
    (lambda d: d["moves"].append(7), StateFormatError, 'the moves must be a list of strings'),
    (lambda d: d.__setitem__("seats", "me"), StateFormatError, 'the seats must be a list of strings'),
    (lambda d: d.__setitem__("seed", 1.5), StateFormatError, 'the seed must be a whole number'),
    (lambda d: d.__setitem__("version", 2), StateFormatError, "unsupported record version 2"),
    (lambda d: d.__setitem__("format", "spots-record"), StateFormatError, "not a Double Spot record"),
])
def test_a_tampered_record_is_refused_with_a_clear_message(tmp_path: Path, change, error: type, message: str) -> None:
    doc = record_dict(played(5, 30), seats=["me", "greedy"], seed=1)
    change(doc)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(error, match=re.escape(message)) as caught:
        load_record(path)
    assert str(path) in str(caught.value)


def test_spots_replay_checks_a_double_spot_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = played(8, 50)
    save_record(state, tmp_path / "game.json")
    assert cli.main(["replay", str(tmp_path / "game.json")]) == 0
    out = capsys.readouterr().out
    assert f"{len(state.history())} moves, all legal." in out and "1 2 3 4 5 6 7 8" in out
    doc = record_dict(state)
    doc["moves"][20] = "drop 9 blue"
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    assert cli.main(["replay", str(tmp_path / "bad.json")]) == 2
    assert "move 21 of the record" in capsys.readouterr().err
