"""Double Spot in the terminal, driven as a player would: the real `spots play --game double-spot` program."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect

PROMPT = re.compile(r"Seat (\d) > ")
END = re.compile(r"wins!|A draw")


def spawn(tmp_path: Path, *args: str) -> pexpect.spawn:
    cmd = [sys.executable, "-m", "spots.cli", "play", "--game", "double-spot", "--fast", "--plain", *args]
    child = pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), encoding="utf-8", timeout=30,
                          dimensions=(50, 140), env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "LANG": "C.UTF-8"})
    return child


def test_a_whole_game_against_greedy_to_the_end(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "4")
    child.expect("Double Spot")
    for _ in range(200):
        if child.expect([PROMPT, END]) == 1:
            break
        assert child.match.group(1) == "0"  # the human sits in seat 0
        assert "Cards of Seat 0 (you)" in child.before and "Die: " in child.before
        child.sendline("1")
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_bad_move_gets_the_engines_message_and_the_same_prompt(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--seat", "me", "--seat", "greedy", "--seed", "1")
    child.expect(PROMPT)
    seat = child.match.group(1)
    for typo, message in [
        ("drop 99 blue", "illegal drop"),
        ("flibber", "not Double Spot notation"),
        ("99", "There is no move 99"),
    ]:
        child.sendline(typo)
        child.expect(message)
        child.expect(PROMPT)
        assert child.match.group(1) == seat
    child.sendline("quit")
    child.expect("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_default_game_is_still_spots(tmp_path: Path) -> None:
    child = pexpect.spawn(sys.executable, ["-m", "spots.cli", "play", "--fast", "--plain", "--seat", "me", "--seat",
                                           "greedy", "--seed", "1"], cwd=str(tmp_path), encoding="utf-8",
                          timeout=30, dimensions=(50, 140),
                          env={"PATH": "/usr/bin:/bin", "NO_COLOR": "1", "LANG": "C.UTF-8"})
    child.expect("Spots: 2 players")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
