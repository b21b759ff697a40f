"""A live table's clock: timing it, acting on an expiry, the others' choice and a player's return.

Why a separate keeper: the clock's rules are ``clocks.Clock`` (pure data); this is the part that
lives with a ``Room``: one timer on the event loop for the next deadline, the compare-and-set that
makes one server process the one that acts (``TableStore.swap_clock``), and the stand-ins it puts in
the room's bot seats. Every change happens under the room's lock, like a move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from ... import i18n
from ..writer import Unavailable
from .clock import STAND_INS, Clock, Pace

if TYPE_CHECKING:
    from ..tables.rooms import Room

log = logging.getLogger("spots.web")
SKIP = "\0skip"  # the room's bot name for a seat whose turns are skipped (clocks.skip_move)
RETRY = 1.0  # seconds before acting again on a clock the database could not store


def stand_in_bot(room: Room) -> str:
    """The bot that plays for a seat out of time: the quick greedy bot where the game has one."""
    return "greedy" if "greedy" in room.kind.bots else room.kind.bots[0]


def new_clock(pace: Pace, seats: int, first: int | None, now: float) -> Clock:
    """A new table's clock, running for the seat to move first."""
    clock = Clock.new(pace, seats)
    clock.start(first, now)
    return clock


class Timekeeper:
    """The clock of one room and the timer for its next deadline."""

    def __init__(self, room: Room, clock: Clock) -> None:
        self.room, self.clock = room, clock
        self.handle: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        self.seat_bots()

    # -------------------------------------------------------------- who

    def stood_in(self, seat: int) -> bool:
        return self.clock.stand_in(seat) is not None

    def in_person(self, seat: int, clock: Clock) -> bool:
        """Whether a person plays ``seat``: a human seat with no stand-in, for time or for a resignation."""
        row = self.room.row
        return row.seats[seat].kind == "human" and clock.stand_in(seat) is None and not row.resign_stand_in(seat)

    def clock_seat(self, state: Any, clock: Clock | None = None) -> int | None:
        """The seat whose clock runs in ``state``: the human to move (in a claim race, the one the rules
        would give it to, else the first human racer), unless the seat is out of time."""
        clock = clock or self.clock
        if state.is_terminal():
            return None
        racers = self.room.kind.web.racers(state)
        if racers:
            humans = [s for s in racers if self.in_person(s, clock)]
            mover = self.room.kind.spec.summarize(state).seat
            return mover if mover in humans else (humans[0] if humans else None)
        if state.is_chance_node():
            return None
        seat = state.current_player()
        return seat if self.in_person(seat, clock) else None

    def choosers(self, clock: Clock) -> list[int]:
        """The humans who may choose for a seat out of time: the others who took their seats and are not away."""
        return [s.seat for s in self.room.row.seats if s.claimed and self.in_person(s.seat, clock)]

    def seat_bots(self) -> None:
        """Put the stand-ins in the room's bot seats (and take them out for seats that are back)."""
        bots = self.room.bots
        for seat in self.room.row.seats:
            if seat.kind != "human" or self.room.row.resign_stand_in(seat.seat):  # (resigned: its stand-in stays)
                continue
            kind = self.clock.stand_in(seat.seat)
            if kind in STAND_INS:
                bots[seat.seat] = SKIP if kind == "skip" else stand_in_bot(self.room)
            else:
                bots.pop(seat.seat, None)

    # -------------------------------------------------------------- moves (called by the room, under its lock)

    def after(self, after: Any, mover: int | None, now: float, index: int | None = None) -> Clock:
        """The clock once ``mover``'s decision (move ``index``; None: only chance events) has led to ``after``."""
        clock = self.clock.copy()
        clock.moved(mover, self.clock_seat(after, clock), now, index)
        return clock

    def moved(self, clock: Clock) -> None:
        """The move is stored: its clock is the table's."""
        self.clock = clock
        self.arm()

    # -------------------------------------------------------------- the timer

    def arm(self) -> None:
        """Time the next deadline (an expiry, or the end of a choice's grace time)."""
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        when = self.clock.deadline()
        if when is None or self.room.hub.closing or self.room.state.is_terminal():
            return
        self.handle = asyncio.get_running_loop().call_later(max(0.0, when - time.time()), self._fire)

    def _fire(self) -> None:
        self.handle = None
        if not self.room.hub.closing:
            self.task = asyncio.get_running_loop().create_task(self.due())

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
        if self.task is not None:
            self.task.cancel()

    async def due(self) -> None:
        """Act on the deadline that has come: a seat out of time, or a choice nobody made in time."""
        try:
            async with self.room.lock:
                if self.room.state.is_terminal():
                    return
                now = time.time()
                clock = self.clock.copy()
                changed = clock.expire(now, self.choosers(clock))
                if not changed:
                    self.arm()  # woken a moment early
                    return
                clock.start(self.clock_seat(self.room.state, clock), now)
                if await self._store(clock):
                    log.info("table %s: seat %s out of time: %s", self.room.id, changed,
                             [clock.stand_in(s) for s in changed])
        except Exception:
            log.exception("table %s: acting on the clock failed", self.room.id)

    async def _store(self, clock: Clock) -> bool:
        """Compare-and-set the clock; on losing, take the stored one (another process acted first)."""
        store, writer = self.room.hub.store, self.room.hub.writer
        try:
            won = await writer.run(store.swap_clock, self.room.id, self.clock.to_json(), clock.to_json())
        except Unavailable as exc:
            log.warning("table %s: the clock could not be stored (%s); trying again", self.room.id, exc.why)
            self.handle = asyncio.get_running_loop().call_later(RETRY, self._fire)
            return False
        if won:
            self._take(clock)
            return True
        stored = await writer.run(store.clock_of, self.room.id)
        if stored is not None:
            self._take(Clock.from_json(stored))
        return False

    def _take(self, clock: Clock) -> None:
        """Make ``clock`` the table's: the stand-ins take their seats, everyone sees it, the bots wake."""
        self.clock = clock
        self.seat_bots()
        self.room.changed()
        self.room.schedule_bot()
        self.arm()

    async def restart(self) -> None:
        """Who plays a seat changed (a resignation): run the clock of whoever is to move now (under the room's
        lock)."""
        now = time.time()
        clock = self.clock.copy()
        clock.start(self.clock_seat(self.room.state, clock), now)
        await self._store(clock)

    # -------------------------------------------------------------- people

    async def choose(self, chooser: int, seat: Any, choice: Any, lang: str = "en") -> str | None:
        """Another player's choice for a seat out of time; the refusal's words, or None when done."""
        _ = i18n.translator(lang).gettext
        names = self.room.names
        if choice not in STAND_INS:
            return _("'choice' must be bot (a bot plays for them) or skip (their turns are skipped)")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(names):
            return _("'for' must be the number of a seat of this table (counting from 0)")
        async with self.room.lock:
            if self.stood_in(chooser) or chooser == seat:
                return _("only the other players may choose for a seat out of time")
            if not self.stood_in(seat):
                return _("{who} still has time; nothing to choose").format(who=names[seat])
            now = time.time()
            clock = self.clock.copy()
            clock.choose(seat, choice, now)
            clock.start(self.clock_seat(self.room.state, clock), now)
            await self._store(clock)
        return None

    async def back(self, seat: int) -> None:
        """The seat's player has come back: the seat is theirs again (a stand-in stops at once)."""
        async with self.room.lock:
            if not self.stood_in(seat) or self.room.state.is_terminal():
                return
            now = time.time()
            clock = self.clock.copy()
            clock.back(seat, now)
            clock.start(self.clock_seat(self.room.state, clock), now)
            await self._store(clock)

    async def heard(self) -> None:
        """Another server process changed the clock (a move, an expiry, a choice): read it back."""
        try:
            stored = await self.room.hub.writer.run(self.room.hub.store.clock_of, self.room.id)
        except Unavailable:
            return
        async with self.room.lock:
            if stored is not None and stored != self.clock.to_json():
                self._take(Clock.from_json(stored))

    # -------------------------------------------------------------- what viewers see

    def view(self, seat: int | None, lang: str) -> dict[str, Any]:
        """The clocks for a viewer: every seat's time, who runs, and what this viewer may do about absences."""
        doc = self.clock.view(self.room.names_in(lang), time.time())
        doc["may_choose"] = seat is not None and not self.stood_in(seat) and self.room.row.seats[seat].kind == "human"
        return doc

    def summary(self) -> dict[str, Any]:
        """The lobby row's part: the pace, since when the table waits, and who ran out of time."""
        return {"clock": self.clock.pace.profile, "pace": self.clock.pace.mode, "ran_out": list(self.clock.ran_out)}
