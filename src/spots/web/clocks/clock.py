"""Clocks: a table's pace, each player's time, and what happens to a seat whose time runs out.

Why it is pure data: a table's clock is one JSON document stored with the table (``tables.clock``),
written with every move and changed elsewhere only by a compare-and-set on that text, so any number
of server processes on one database agree on it, and exactly one of them acts on an expiry (the
others' compare-and-set fails and they read the stored clock back). Times are wall-clock seconds
(``time.time()``): a deadline means the same moment to every process and after a restart.

Two paces. **Real-time**: each player has a bank (``base`` seconds) that runs only while they are
the one to move, plus ``increment`` seconds added after each of their moves (``per="move"``) or
each of their turns (``per="turn"``). **Turn-based**: each move may take ``base`` seconds (days,
typically); the time left is filled again after each move.

When a clock runs out the seat is ``out``: the table's other humans choose ``bot`` (a bot plays
for them until they come back) or ``skip`` (their turns are played the shortest way the rules
allow). With nobody left to choose, or when nobody chooses within the grace time, a bot plays.
A player who comes back takes the seat again with the grace time on their clock, the first time only:
after that they come back to the time they have left, and when it runs out again the stand-in the
table had for them takes over at once, with no new choice to wait for. (Before, every return gave the
grace time again and every time-out a new choice window, so a player could stall a table for ever.)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from ...i18n import N_

DAY = 24 * 3600.0
MODES = ("real-time", "turn-based")
STAND_INS = ("bot", "skip")  # what the others may choose for a seat out of time
GRACE_REAL_TIME = 60.0  # seconds: the choice window, and the time a returning player gets (at most the base)
LIMITS = {  # (low, high) in seconds, for custom paces sent through the API
    "real-time": (1.0, 600 * 60.0),
    "turn-based": (1.0, 30 * DAY),
    "increment": (0.0, 3600.0),
}


@dataclass(frozen=True)
class Pace:
    """How fast a table plays: ``mode``, ``base`` seconds, ``increment`` seconds added ``per`` move or turn."""

    mode: str
    base: float
    increment: float = 0.0
    per: str = "move"
    profile: str = "custom"

    @property
    def grace(self) -> float:
        """How long the others have to choose for a seat out of time, and what a returning player gets."""
        return self.base if self.mode == "turn-based" else min(self.base, GRACE_REAL_TIME)

    def to_dict(self) -> dict[str, Any]:
        return {"mode": self.mode, "base": self.base, "increment": self.increment, "per": self.per,
                "profile": self.profile}

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> Pace:
        return cls(str(doc["mode"]), float(doc["base"]), float(doc.get("increment", 0.0)),
                   str(doc.get("per", "move")), str(doc.get("profile", "custom")))


# The lobby's named speeds: (name, label, pace).
PROFILES: dict[str, tuple[str, Pace]] = {
    "blitz": (N_("Real-time: 3 minutes + 2 seconds a move"), Pace("real-time", 180.0, 2.0, "move", "blitz")),
    "rapid": (N_("Real-time: 10 minutes + 5 seconds a move"), Pace("real-time", 600.0, 5.0, "move", "rapid")),
    "relaxed": (N_("Real-time: 30 minutes + 1 minute a turn"), Pace("real-time", 1800.0, 60.0, "turn", "relaxed")),
    "day": (N_("Turn-based: 1 day a move"), Pace("turn-based", DAY, 0.0, "move", "day")),
    "three-days": (N_("Turn-based: 3 days a move"), Pace("turn-based", 3 * DAY, 0.0, "move", "three-days")),
    "week": (N_("Turn-based: 7 days a move"), Pace("turn-based", 7 * DAY, 0.0, "move", "week")),
}
NO_CLOCK = "none"


def pace_menu(gettext: Any) -> list[dict[str, str]]:
    """The lobby's pace menu: no clock, then each named profile, translated."""
    return [{"value": NO_CLOCK, "label": gettext("No clock")},
            *({"value": name, "label": gettext(label)} for name, (label, _) in PROFILES.items())]


def pace_names(gettext: Any) -> dict[str, str]:
    """What the lobby's rows call each table's pace (by profile; ``custom``: values set through the API)."""
    return {**{name: gettext(label) for name, (label, _) in PROFILES.items()}, "custom": gettext("Custom clock")}


def _seconds(value: Any, what: str, low: float, high: float, scale: float, unit: str) -> float:
    """A number of ``unit`` given for ``what``, in seconds, within [low, high] seconds (else a clear error)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"clock: '{what}' must be a number of {unit}")
    seconds = float(value) * scale
    if not low <= seconds <= high:
        raise ValueError(f"clock: '{what}' must be from {low / scale:g} to {high / scale:g} {unit}")
    return seconds


def _amount(doc: dict[str, Any], names: dict[str, float], what: str, low: float, high: float,
            default: float | None = None) -> float:
    """Exactly one of ``names`` (a unit each, its size in seconds) given, in seconds."""
    given = [n for n in names if n in doc]
    if len(given) > 1:
        raise ValueError(f"clock: give the {what} once, as one of {', '.join(names)}")
    if not given:
        if default is not None:
            return default
        raise ValueError(f"clock: the {what} is missing: give one of {', '.join(names)}")
    name = given[0]
    return _seconds(doc[name], name, low, high, names[name], name)


def parse_pace(value: Any) -> Pace | None:
    """The ``clock`` of a create-table request: none, a profile's name, or custom values (raises ValueError).

    Custom: ``{"pace": "real-time", "minutes" or "seconds": bank, "add_seconds": n, "per": "move" or "turn"}``
    or ``{"pace": "turn-based", "days" or "hours" or "seconds": time per move}``.
    """
    if value is None or value == NO_CLOCK:
        return None
    if isinstance(value, str):
        if value not in PROFILES:
            raise ValueError(f"unknown clock {value!r}; the clocks are {NO_CLOCK}, {', '.join(PROFILES)},"
                             " or an object with custom values")
        return PROFILES[value][1]
    if not isinstance(value, dict):
        raise ValueError("'clock' must be a profile's name or an object with 'pace' and custom values")
    mode = value.get("pace")
    if mode not in MODES:
        raise ValueError(f"clock: 'pace' must be {' or '.join(MODES)}")
    known = {"pace", "minutes", "seconds", "add_seconds", "per"} if mode == "real-time" else {
        "pace", "days", "hours", "seconds"}
    unknown = sorted(set(value) - known)
    if unknown:
        raise ValueError(f"clock: {', '.join(map(repr, unknown))} is not a {mode} setting; they are"
                         f" {', '.join(sorted(known))}")
    low, high = LIMITS[mode]
    if mode == "turn-based":
        base = _amount(value, {"days": DAY, "hours": 3600.0, "seconds": 1.0}, "time per move", low, high)
        return Pace(mode, base)
    base = _amount(value, {"minutes": 60.0, "seconds": 1.0}, "time per player", low, high)
    increment = _amount(value, {"add_seconds": 1.0}, "time added", *LIMITS["increment"], default=0.0)
    per = value.get("per", "move")
    if per not in ("move", "turn"):
        raise ValueError("clock: 'per' must be move or turn (when the time is added)")
    return Pace(mode, base, increment, per)


@dataclass
class Clock:
    """Every seat's time left, whose clock runs since when, and the seats out of time (``away``)."""

    pace: Pace
    left: list[float]  # seconds left per seat, as of ``since`` for the running seat
    running: int | None = None
    since: float = 0.0
    away: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {"as": out|bot|skip, "since": t}
    ran_out: list[int] = field(default_factory=list)  # seats that ran out of time, in order (finish last)
    covered: list[list[int]] = field(default_factory=list)  # [seat, first move, last move] a stand-in played
    returned: dict[int, str] = field(default_factory=dict)  # seat -> its stand-in when it first came back

    @classmethod
    def new(cls, pace: Pace, seats: int) -> Clock:
        return cls(pace, [pace.base] * seats)

    # -------------------------------------------------------------- stored as JSON text

    def to_json(self) -> str:
        return json.dumps({"pace": self.pace.to_dict(), "left": [round(x, 3) for x in self.left],
                           "running": self.running, "since": self.since,
                           "away": {str(s): a for s, a in sorted(self.away.items())}, "ran_out": self.ran_out,
                           "covered": self.covered, "returned": {str(s): a for s, a in sorted(self.returned.items())}},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Clock:
        doc = json.loads(text)
        return cls(Pace.from_dict(doc["pace"]), [float(x) for x in doc["left"]], doc.get("running"),
                   float(doc.get("since", 0.0)), {int(s): dict(a) for s, a in doc.get("away", {}).items()},
                   [int(s) for s in doc.get("ran_out", [])], [[int(x) for x in row] for row in doc.get("covered", [])],
                   {int(s): str(a) for s, a in doc.get("returned", {}).items()})

    def copy(self) -> Clock:
        return Clock.from_json(self.to_json())

    # -------------------------------------------------------------- reading

    def left_at(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (its clock may be running)."""
        used = now - self.since if seat == self.running else 0.0
        return max(0.0, self.left[seat] - used)

    def stand_in(self, seat: int) -> str | None:
        """``out``, ``bot`` or ``skip`` for a seat out of time, else None."""
        found = self.away.get(seat)
        return None if found is None else str(found["as"])

    def deadline(self) -> float | None:
        """When something is due: the running clock's end, or a choice for a seat out of time."""
        due = [a["since"] + self.pace.grace for a in self.away.values() if a["as"] == "out"]
        if self.running is not None:
            due.append(self.since + self.left[self.running])
        return min(due) if due else None

    # -------------------------------------------------------------- changes (each returns nothing; copy first)

    def _stop(self, now: float) -> None:
        if self.running is not None:
            self.left[self.running] = self.left_at(self.running, now)
        self.running = None

    def moved(self, mover: int | None, to_move: int | None, now: float, index: int | None = None) -> None:
        """A decision by ``mover`` (move number ``index`` of the record) was played; ``to_move`` is the seat whose
        clock runs next (None: no clock). A stand-in's move is noted in ``covered``: it is not the person's."""
        if mover is not None and index is not None and self.stand_in(mover) in STAND_INS:
            self._cover(mover, index)
        was = self.running
        self._stop(now)
        pace = self.pace
        if mover is not None and mover == was:
            if pace.mode == "turn-based":
                self.left[mover] = pace.base
            elif pace.per == "move" or to_move != mover:
                self.left[mover] += pace.increment
        if to_move is not None and to_move != was and pace.mode == "turn-based":
            self.left[to_move] = pace.base
        self.start(to_move, now)

    def _cover(self, seat: int, index: int) -> None:
        """Move ``index`` was a stand-in's for ``seat``: it extends the seat's current absence, or starts one."""
        away = self.away[seat]
        row = away.get("covered")
        if row is None or row >= len(self.covered):
            away["covered"] = len(self.covered)
            self.covered.append([seat, index, index])
        else:
            self.covered[row][2] = index

    def start(self, seat: int | None, now: float) -> None:
        """Run ``seat``'s clock from ``now`` (None: none runs)."""
        self._stop(now)
        self.running, self.since = seat, now

    def expire(self, now: float, choosers: list[int]) -> list[int]:
        """Act on what is due at ``now``; the seats whose stand-in changed.

        The running seat out of time becomes ``out`` (the ``choosers`` decide), or a bot plays it when
        there is nobody to choose; a seat ``out`` for longer than the grace time gets a bot.
        """
        changed = []
        seat = self.running
        if seat is not None and self.since + self.left[seat] <= now:
            self._stop(now)
            self.left[seat] = 0.0
            others = [c for c in choosers if c != seat]
            again = self.returned.get(seat)  # out of time again after coming back: that stand-in, at once
            self.away[seat] = {"as": again or ("out" if others else "bot"), "since": now}
            if seat not in self.ran_out:
                self.ran_out.append(seat)
            changed.append(seat)
        for s, a in self.away.items():
            if a["as"] == "out" and a["since"] + self.pace.grace <= now:
                self.away[s] = {"as": "bot", "since": now}
                changed.append(s)
        return changed

    def choose(self, seat: int, choice: str, now: float) -> None:
        """The others' choice for a seat out of time: ``bot`` or ``skip``."""
        self.away[seat] = {"as": choice, "since": now}

    def back(self, seat: int, now: float) -> None:
        """The seat's player is back: the seat is theirs again, the first time with at least the grace time."""
        was = self.away.pop(seat, {}).get("as")
        if seat not in self.returned:
            self.left[seat] = max(self.left[seat], self.pace.grace)
            self.returned[seat] = "skip" if was == "skip" else "bot"

    # -------------------------------------------------------------- what the table shows

    def view(self, names: list[str], now: float) -> dict[str, Any]:
        """The clocks as a viewer is sent them: seconds left as of now, the running seat, the stand-ins."""
        running = self.running
        return {"mode": self.pace.mode, "profile": self.pace.profile, "running": running,
                "grace": self.pace.grace, "deadline": None if running is None else self.since + self.left[running],
                "seats": [{"name": name, "left": round(self.left_at(i, now), 2), "away": self.stand_in(i),
                           "away_since": self.away[i]["since"] if i in self.away else None,
                           "choose_by": (self.away[i]["since"] + self.pace.grace) if self.stand_in(i) == "out"
                           else None} for i, name in enumerate(names)]}


def skip_move(legal: list[str]) -> str:
    """The move a skipped seat plays: the rules have no pass, so the shortest way through a turn.

    Stop when the rules allow it, else bury (give up the die), else the first legal move in
    the rules' order (a drop in Double Spot, the first trick or choice in Spots).
    """
    for prefix in ("stop", "bury", "skip", "pass"):
        found = [m for m in legal if m == prefix or m.startswith(prefix + " ")]
        if found:
            return found[0]
    return legal[0]
