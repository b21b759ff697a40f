"""Shared helpers: build positions through the notation, then adjust them for a scenario."""

from __future__ import annotations

import importlib.util
import os
import platform
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import spots
from spots.games.spots.state import State


def start(
    deal: list[list[str]] | None = None,
    top: str = "burt",
    first: list[int] | None = None,
    **options: Any,
) -> State:
    """A game driven through the notation to the first turn.

    ``deal``: each seat's dogs (default: seat 0 wilbur+doog, seat 1 ursula+missy, ...);
    ``top``: the deck's top card; ``first``: each seat's first buried die (default
    seat 0 highest, so seat 0 starts). Other keywords are rules options.
    """
    options.setdefault("players", 2)
    rules = spots.Rules(**options)
    n = rules.players
    deal = deal or [["wilbur", "doog"], ["ursula", "missy"], ["gumbo", "frankie"], ["raya", "bitsy"]][:n]
    first = first or [n + 1 - s for s in range(n)]
    state = spots.Game(rules).new_initial_state()
    for dogs in deal:
        for dog in dogs:
            state.apply_action(f"reveal {dog}")
    state.apply_action(f"reveal {top}")
    for value in first:
        state.apply_action(f"roll {value}")
    return state


def adjust(
    state: State,
    seat: int | None = None,
    *,
    yard: list[int] | None = None,
    treats: int | None = None,
    filled: dict[str, list[int]] | None = None,
    scored: list[str] | None = None,
    dogs: list[str] | None = None,
    supply_dice: int | None = None,
) -> State:
    """A copy of a state with one seat's table changed, the supplies kept consistent.

    Dice and treats moved onto the table come from the supply (and go back to it).
    ``dogs`` replaces the seat's pack (cards are taken from the deck's remainder).
    ``supply_dice`` sets the dice supply by removing dice from the game total
    (used for running-out scenarios: the rules' dice option is changed to match).
    """
    doc = state.to_dict()
    seat = state.seat if seat is None else seat
    p = doc["players"][seat]
    if dogs is not None:
        old = [d["name"] for d in p["dogs"]]
        for d in p["dogs"]:
            doc["supply"]["dice"] += len(d["filled"])
        rest = [c for c in doc["deck"]["rest"] if c not in dogs] + [c for c in old if c not in dogs]
        # A card wanted here but held by another seat or on top of the deck is swapped for a spare one.
        for other in doc["players"]:
            for d in other["dogs"]:
                if other is not p and d["name"] in dogs:
                    doc["supply"]["dice"] += len(d["filled"])
                    d["name"], d["filled"] = rest.pop(0), []
        if doc["deck"]["top"] in dogs:
            doc["deck"]["top"] = rest.pop(0)
        doc["deck"]["rest"] = rest
        p["dogs"] = [{"name": name, "filled": [], "scored": False} for name in dogs]
    if yard is not None:
        doc["supply"]["dice"] += len(p["yard"]) - len(yard)
        p["yard"] = list(yard)
    if treats is not None:
        doc["supply"]["treats"] += p["treats"] - treats
        p["treats"] = treats
    for d in p["dogs"]:
        if filled is not None and d["name"] in filled:
            doc["supply"]["dice"] += len(d["filled"]) - len(filled[d["name"]])
            d["filled"] = sorted(filled[d["name"]])
        if scored is not None and d["name"] in scored:
            doc["supply"]["dice"] += len(d["filled"])
            d["filled"], d["scored"] = [], True
    if supply_dice is not None:
        doc["rules"]["dice"] -= doc["supply"]["dice"] - supply_dice
        doc["supply"]["dice"] = supply_dice
    return State.from_dict(doc)


def random_play(seed: int, players: int, tricks: str = "all", max_steps: int = 1500, **options: Any) -> Iterator[State]:
    """The positions of one seeded random game (the same object, advanced in place)."""
    rng = random.Random(seed)
    state = spots.Game(spots.Rules(players=players, tricks=tricks, **options)).new_initial_state()
    yield state
    for _ in range(max_steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def play(state: State, *moves: str) -> State:
    for move in moves:
        state.apply_action(move)
    return state


def seat_of(state: State, dog: str) -> dict[str, Any]:
    for p in state.to_dict()["players"]:
        for d in p["dogs"]:
            if d["name"] == dog:
                return d
    raise KeyError(dog)


# the environment of a spawned `spots` program: this checkout's code when the tests run it (PYTHONPATH)
# A child process (pexpect, subprocess) runs the code under test, whichever copy pytest imported.
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium driven by Playwright, one per test module (the browser tests)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield PatientBrowser(b)
        b.close()


@pytest.fixture(scope="module")
def axe() -> Any:
    """axe-core's accessibility checker, for the browser tests that read a page as a screen reader would."""
    module = pytest.importorskip("axe_playwright_python.sync_playwright", reason="pip install axe-playwright-python")
    return module.Axe()


@pytest.fixture
def beginner() -> State:
    return start()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """One real PostgreSQL server for the whole session (Debian's package; skipped without it, except in CI)."""
    from pgcluster import Cluster, binaries

    found = binaries()
    if found is None or importlib.util.find_spec("psycopg") is None:
        why = ("PostgreSQL is not installed (apt-get install postgresql)" if found is None
               else "the psycopg driver is not installed (pip install 'spots[postgres]')")
        if os.environ.get("CI"):
            pytest.fail(f"{why}: CI must run the PostgreSQL tests")
        pytest.skip(why)
    cluster = Cluster(found).start()
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(postgres: Any) -> str:
    """A fresh, empty PostgreSQL database for one test."""
    return str(postgres.database())
