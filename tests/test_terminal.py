"""The terminal game driven as a player would: the real `spots play` program in a pseudo-terminal."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pexpect
import pytest

import spots
from support.processes import CHILD_ENV, PATIENT_S, as_at_a_terminal, waiting_for_input
from support.terminal import stopped_cleanly

PROMPT = re.compile(r"Seat (\d) > ")
END = re.compile(r"wins!|The turn limit ended the game")


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    cmd = [sys.executable, "-m", "spots.cli", "play", "--fast", "--plain", *args]
    child = pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), encoding="utf-8", timeout=PATIENT_S,
                          preexec_fn=as_at_a_terminal,
                          dimensions=(50, 140), env={**CHILD_ENV, "LANG": "C.UTF-8"})
    return child


def play_to_end(child: pexpect.spawn, answer: str = "1", limit: int = 3000) -> str:
    """Answer every prompt with ``answer`` until the game ends; return the end text."""
    for _ in range(limit):
        if child.expect([PROMPT, END]) == 1:
            child.expect(pexpect.EOF)
            return child.before
        child.sendline(answer)
    raise AssertionError("the game did not end")


def test_a_whole_game_against_a_bot_to_the_end(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "4", "--target", "2")
    summary = play_to_end(child)
    assert "turns." in summary and "dogs scored" in summary and "busts" in summary
    child.close()
    assert child.exitstatus == 0
    record = json.loads((tmp_path / "spots-autosave.json").read_text())
    state = spots.replay(record["moves"], record["rules"])  # the autosaved record is the whole game
    assert state.is_terminal() and record["seats"] == ["me", "greedy"]


def test_bad_input_gets_a_clear_message_and_the_same_prompt(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "me", "--seed", "1")
    child.expect(PROMPT)
    for typo, message in [
        ("place 9 wilbur", "malformed move"),
        ("trick nosuch", "illegal move"),
        ("flibber", "unknown move"),
        ("99", "There is no move 99"),
        ("save", "Say where"),
    ]:
        child.sendline(typo)
        child.expect(message)
        child.expect(PROMPT)
    child.sendline("rules")
    child.expect("Walk: Roll 2 dice")
    child.expect(PROMPT)
    child.sendline("hint")
    child.expect("estimate")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    record = json.loads((tmp_path / "spots-autosave.json").read_text())
    assert not any("nosuch" in m or "wilbur" in m for m in record["moves"][-1:])


def test_undo_takes_back_own_moves_since_the_last_roll(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "me", "--seed", "2", "--tricks", "hunting")
    # Play until a roll of several dice is being resolved, place one, then undo it.
    for _ in range(400):
        child.expect(PROMPT)
        screen = child.before
        hand = re.search(r"In hand: [^(]*\(([\d ]+)\)", screen)
        if hand and len(hand.group(1).split()) >= 2 and "resolve the roll" in screen and " 1. reroll" not in screen:
            dice = hand.group(1)
            break
        child.sendline("1")
    else:
        pytest.fail("no multi-dice roll came up")
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect("Took back your last move")
    child.expect(PROMPT)
    assert f"({dice})" in child.before  # the same dice are back in hand: dice already seen stay seen
    child.sendline("undo")
    child.expect("Nothing to undo")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_save_and_load_continue_the_game(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "7", "--target", "2")
    for _ in range(12):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline("save saved.json")
    child.expect("Saved to saved.json")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    saved = json.loads((tmp_path / "saved.json").read_text())
    assert saved["seats"] == ["me", "greedy"] and saved["rules"]["target"] == 2
    child = spawn(tmp_path, "--load", "saved.json")
    play_to_end(child)
    finished = json.loads((tmp_path / "saved.json").read_text())  # the loaded game autosaves to its file
    assert finished["moves"][: len(saved["moves"])] == saved["moves"]
    assert spots.replay(finished["moves"], finished["rules"]).is_terminal()


def test_closing_the_terminal_loses_nothing(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "9")
    for _ in range(10):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.close(force=True)  # the window is closed mid-game
    record = json.loads((tmp_path / "spots-autosave.json").read_text())
    state = spots.replay(record["moves"], record["rules"])
    assert not state.is_terminal() and state.current_player() == 0
    child = spawn(tmp_path, "--load", "spots-autosave.json")
    child.expect(PROMPT)
    assert f"Turn {state.turn} " in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)


AUTOSAVE_NAMED = "Saved to spots-autosave.json; continue with: spots play --load spots-autosave.json"


def test_ctrl_c_at_the_prompt_stops_cleanly_and_names_the_autosave(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "5")
    for _ in range(4):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    played = json.loads((tmp_path / "spots-autosave.json").read_text())["moves"]
    waiting_for_input(child.pid)
    child.sendintr()
    stopped_cleanly(child)
    record = json.loads((tmp_path / "spots-autosave.json").read_text())
    assert record["moves"] == played  # nothing lost, nothing half-written
    child = spawn(tmp_path, "--load", "spots-autosave.json")  # the command it named continues the game
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect_exact(AUTOSAVE_NAMED)
    child.expect(pexpect.EOF)


def test_ctrl_c_while_the_bots_play_stops_cleanly_and_names_the_autosave(tmp_path: Path) -> None:
    # Without --fast the table pauses after each bot move, as a person watching would see it.
    cmd = [sys.executable, "-m", "spots.cli", "play", "--plain", "--seat", "greedy", "--seat", "expectimax",
           "--seed", "6"]
    child = pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), encoding="utf-8", timeout=PATIENT_S,
                          preexec_fn=as_at_a_terminal,
                          dimensions=(50, 140), env={**CHILD_ENV, "LANG": "C.UTF-8"})
    child.expect(r"Seat \d \((greedy|expectimax) bot\) does ")
    child.sendintr()
    stopped_cleanly(child)
    record = json.loads((tmp_path / "spots-autosave.json").read_text())
    state = spots.replay(record["moves"], record["rules"])
    assert not state.is_terminal() and any(m.startswith("trick ") for m in record["moves"])


def test_quit_names_the_file_that_continues_the_game(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "5", "--autosave", "mine.json")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect_exact("Saved to mine.json; continue with: spots play --load mine.json")
    child.expect(pexpect.EOF)
    assert json.loads((tmp_path / "mine.json").read_text())["seats"] == ["me", "greedy"]


def test_a_bare_trick_name_is_accepted_at_the_prompt(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "5")
    child.expect(PROMPT)
    assert "choose a trick or score" in child.before
    child.sendline("walk")
    child.expect(r"Seat 1 \(you\) does Walk\.")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    moves = json.loads((tmp_path / "spots-autosave.json").read_text())["moves"]
    assert "trick walk" in moves and "walk" not in moves  # recorded in the canonical notation


def test_the_status_line_counts_seats_as_the_panels_do(tmp_path: Path) -> None:
    """People count seats from 1 everywhere on the screen (panels, status line, prompt); the notation from 0."""
    child = spawn(tmp_path, "--seat", "greedy", "--seat", "me", "--seed", "5")
    child.expect(PROMPT)
    assert child.match.group(1) == "2"
    screen = child.before
    assert "Seat 2 (you)" in screen and "Seat 1 (greedy bot)" in screen
    assert re.search(r"Seat 2 \(you\) to move(, doing \w+ \(step \d\))?: ", screen), screen
    assert not re.search(r"Seat [01] to move", screen)
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_interactive_setup_and_rules_options(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "spots.cli", "play", "--fast", "--plain", "--seed", "3", "--target", "1",
           "--tricks", "dog-park"]
    child = pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), encoding="utf-8", timeout=PATIENT_S,
                          preexec_fn=as_at_a_terminal,
                          env=CHILD_ENV)
    child.expect(r"How many players")
    child.sendline("9")
    child.expect("Please answer")
    child.sendline("3")
    child.expect(r"Seat 1: 'me' or a bot")  # people count seats from 1
    child.sendline("")
    child.expect(r"Seat 2: 'me' or a bot")
    child.sendline("skynet")
    child.expect("unknown seat")
    child.sendline("greedy")
    child.expect(r"Seat 3: 'me' or a bot")
    child.sendline("random")
    child.expect("Spots: 3 players, tricks Howl, Roll Over, Dig, Chase, Chew, Guard, target 1")
    play_to_end(child)


def test_ctrl_c_during_the_setup_questions_stops_cleanly(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "spots.cli", "play", "--plain", "--seed", "3"]
    child = pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), encoding="utf-8", timeout=PATIENT_S,
                          preexec_fn=as_at_a_terminal, env=CHILD_ENV)
    child.expect("How many players")
    waiting_for_input(child.pid)
    child.sendintr()
    child.expect_exact("Stopped (Ctrl-C).")
    child.expect(pexpect.EOF)
    assert "Traceback" not in child.before
    child.close()
    assert child.exitstatus == 130
    assert not (tmp_path / "spots-autosave.json").exists()  # no game began, so nothing is said to be saved


def test_bad_seats_and_options_are_refused(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "hal9000")
    child.expect("unknown seat 'hal9000'")
    child.expect(pexpect.EOF)
    child = spawn(tmp_path, "--seat", "me", "--target", "0")
    child.expect("target must be")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
