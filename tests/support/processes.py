"""Child processes and browsers the tests drive: their environment, patience, and a terminal's wait for input."""

from __future__ import annotations

import platform
import signal
import time
from pathlib import Path
from typing import Any

import spots

CHILD_ENV = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(spots.__file__).resolve().parents[1]), "NO_COLOR": "1"}

CHROMIUM = "/usr/bin/chromium"  # Debian's package; Playwright's own browser download does not work here
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def as_at_a_terminal() -> None:
    """In a spawned program (pexpect's ``preexec_fn``): Ctrl-C interrupts it, as a shell's foreground job.

    A program started in the background of a script (``nohup``, ``cmd &`` without job control) inherits
    SIGINT ignored, and Python then installs no KeyboardInterrupt handler: the tests that press Ctrl-C
    must not depend on how the test run itself was started.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# The system calls a program makes to wait for a line from its terminal (read, select, poll and their kin),
# by the numbers Linux gives them on each machine.
_READING_CALLS = {"x86_64": {"0", "7", "23", "270", "271"}, "aarch64": {"63", "72", "73"}}


def waiting_for_input(pid: int) -> None:
    """Wait until the program ``pid`` is asleep reading its terminal, as a person sees a prompt wait.

    A prompt is printed a moment before the program begins to read. Ctrl-C pressed in that moment is
    noted by Python but not acted on until the next signal (CPython checks for it only when the read
    is interrupted), which no person at a keyboard can hit but a test that presses Ctrl-C as soon as
    the prompt appears does, about once in ten runs on a loaded machine. On a system without Linux's
    ``/proc`` this returns at once.
    """
    calls = _READING_CALLS.get(platform.machine())
    deadline = time.monotonic() + PATIENT_S
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            call = Path(f"/proc/{pid}/syscall").read_text().split()[0]
        except (OSError, IndexError):
            return
        if state == "S" and (calls is None or call in calls):
            return
        time.sleep(0.005)  # a poll of the process's state, not a pace: it returns as soon as the read begins
    raise AssertionError(f"process {pid} did not begin to read its terminal within {PATIENT_S:.0f} s")


# How long a test waits for the event it needs before it fails. A safety net for a loaded machine (CI, a CPU
# hog beside the suite, several servers and browsers at once), never a pace: every wait ends as soon as its
# event happens, so a quiet machine never spends it.
PATIENT_S = 60.0
PATIENT_MS = int(PATIENT_S * 1000)
# A finished game's coach report is worked out in a worker process at a lower priority than everything else on the
# machine (workers.NICE): beside busy programs it gets a small share of a core, so a wait for one allows more.
PATIENT_REPORT_S = 3 * PATIENT_S  # within the browser and server tests' 300 s limit per test
PATIENT_REPORT_MS = int(PATIENT_REPORT_S * 1000)


class PatientBrowser:
    """A Playwright browser whose contexts and pages wait up to PATIENT_MS for what they are asked to find."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.set_default_timeout(PATIENT_MS)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)  # a page with a context of its own, closed with it
        page.context.set_default_timeout(PATIENT_MS)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)
