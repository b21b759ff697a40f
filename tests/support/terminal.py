"""The terminal in a pseudo-terminal (pexpect): a game started, and a stop by Ctrl-C checked."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pexpect

from support.processes import CHILD_ENV, PATIENT_S, as_at_a_terminal


def stopped_cleanly(child: pexpect.spawn, autosave: str = "spots-autosave.json") -> str:
    """What the program printed after Ctrl-C, checked: the stop, the autosave by name, no traceback, status 130."""
    child.expect_exact("Stopped (Ctrl-C).")
    child.expect_exact(f"Saved to {autosave}; continue with: spots play --load {autosave}")
    child.expect(pexpect.EOF)
    shown = child.before
    child.close()
    assert "Traceback" not in shown and "KeyboardInterrupt" not in shown
    assert child.exitstatus == 130  # the shell's usual status for Ctrl-C
    return shown


PROMPT = re.compile(r"Seat (\d) > ")


def spawn(tmp_path: Path, *args: str, game: bool = True) -> pexpect.spawn:
    cmd = [sys.executable, "-m", "spots.cli", "play", *(["--game", "double-spot"] if game else []), "--fast",
           "--plain", *args]
    child = pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), encoding="utf-8", timeout=PATIENT_S,
                          preexec_fn=as_at_a_terminal,
                          dimensions=(50, 140), env={**CHILD_ENV, "LANG": "C.UTF-8"})
    child.delaybeforesend = None  # the program reads whole lines: no need to wait before typing
    return child
