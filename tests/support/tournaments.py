"""Waiting for a tournament: its director acts on its own every second, so a test polls the event's JSON."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .processes import PATIENT_S

View = dict[str, Any]


def until_event(read: Callable[[str], View], tournament: str, ready: Callable[[View], bool],
                seconds: float = 6 * PATIENT_S) -> View:
    """Poll ``read(tournament)`` until ``ready(view)``; on a timeout, say where the event stands."""
    deadline = time.time() + seconds
    while True:
        found = read(tournament)
        if ready(found):
            return found
        if time.time() > deadline:
            raise AssertionError(f"waited {seconds:.0f} s; the event is {found['status']} at round {found['round']}")
        time.sleep(0.3)
