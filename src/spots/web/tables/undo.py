"""Undo at a live table: the game's rule (``GameSpec.takeback``), the record shortened, every viewer told.

Why here and not in the room: the room plays moves forward; an undo is the one change that takes
the record back, so it has its own path. The rule is the game's (``spots.core.undo``): the player
to move may take back their own moves of this turn since the last roll or reveal, one at a time,
never a chance event and never another player's move. The room keeps the steps since the last
chance event (``recent``) as moves are played, so asking costs nothing however long the game.

An undone move leaves the record as if never played: its row is deleted from the store (both
stores, ``TableStore.take_back``), the log loses its line, and every viewer (spectators too) is
sent the whole table again. Other server processes on PostgreSQL hear ``u <table> <moves>`` and
read the record back (``reload_moves``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from ... import i18n
from ...core.undo import Step, Takeback, follow, steps
from ..clocks.clock import Clock
from ..store import Conflict
from ..writer import Unavailable
from .labels import labels_in

if TYPE_CHECKING:
    from ..clocks.timing import Timekeeper
    from ..games import GameKind
    from ..store import TableRow
    from .hub import Hub
    from .rooms import Unsaid

log = logging.getLogger("spots.web")


class Takebacks:
    """What a ``Room`` adds for undo (a mixin: the room's lock, record, viewers and store are its own)."""

    hub: Hub
    id: str
    row: TableRow
    kind: GameKind
    state: Any
    log: list[str]
    logs: dict[str, list[str]]
    lock: asyncio.Lock
    _recent: list[Step] | None = None  # the steps since the last chance event (None: not read from the record yet)
    _clocks: dict[int, str] | None = None  # a clocked table's clock before each of those steps, by move number
    timekeeper: Timekeeper | None
    could_act: set[int]
    changed_at: float

    if TYPE_CHECKING:  # the room's own
        def _infer(self, unsaid: Unsaid, seat: int, lang: str) -> int: ...
        def changed(self, full: bool = False) -> None: ...
        def schedule_bot(self) -> None: ...
        def _follow(self, moves: list[str]) -> None: ...

    def recent(self) -> list[Step]:
        """The steps since the last chance event (replayed from the record the first time they are needed)."""
        if self._recent is None:
            self._recent = spec_steps(self.kind.spec, self.state)
        return self._recent

    def followed(self, before: Any, moves: list[str], chance_last: bool = False) -> None:
        """``moves`` were played at ``before`` (``chance_last``: the last is a chance event): keep the steps, and
        on a clocked table the clock as it was before them (an undo gives back no time: ``_clock_back``)."""
        if self._recent is not None:
            self._recent = [] if chance_last else follow(self._recent, before, moves, self.kind.spec.turn)
        if chance_last or not self.timekeeper:
            self._clocks = None
        elif moves:
            self._clocks = {**(self._clocks or {}), len(self.log): self.timekeeper.clock.to_json()}

    def takeback(self) -> Takeback:
        """What the player to move may take back now (a bot seat never takes back)."""
        if not any(s.kind == "human" for s in self.row.seats):
            return Takeback(None, (), "other")
        offer = self.kind.spec.takeback(self.state, self.recent())
        if offer.seat is not None and self.row.seats[offer.seat].kind != "human":
            return Takeback(None, (), offer.why)
        return offer

    def undo_offer(self) -> dict[str, int] | None:
        """The view's ``undo``: who may take back how many moves now, or None (the page shows its button)."""
        offer = self.takeback()
        return {"seat": offer.seat, "moves": offer.count} if offer.seat is not None and offer.moves else None

    async def undo(self, seat: int, at: int | Unsaid | None, lang: str = "en") -> int:
        """Take back ``seat``'s last move; the number of moves left. Raises MoveError and changes nothing when
        refused (the message says why and what the game allows). Without ``at`` it is taken for the current
        position as a move is (``Room._infer``), so a double click cannot take back two moves."""
        from .rooms import MoveError, Unsaid

        tr = i18n.translator(lang)
        _ = tr.gettext
        async with self.lock:
            if isinstance(at, Unsaid):
                at = self._infer(at, seat, lang)
            count = len(self.log)
            if at is not None and at != count:
                raise MoveError("stale", _("the table has moved on: {n} moves, you sent 'at': {at}").format(
                    n=count, at=at))
            offer = self.takeback()
            if not offer.allows(seat):
                state = self.state
                mover = None if state.is_terminal() or state.is_chance_node() else state.current_player()
                why = "over" if state.is_terminal() else offer.why if mover == seat else "not-yours"
                raise MoveError("undo-refused", i18n.undo_refused(why, self.kind.spec.undo_rule, tr), [])
            after = self.kind.spec.take_back(self.state, seat, 1, self.recent())
            clock = self._clock_back(after, seat, count - 1)
            try:  # the record first: durable before anyone hears
                await self.hub.writer.run(self.hub.store.take_back, self.id, count, count - 1,
                                          None if clock is None else clock.to_json())
            except Unavailable as exc:
                raise MoveError("server-error", f"the undo could not be saved ({exc.why}); nothing changed,"
                                " try again", retry=exc.retry) from None
            except Conflict:
                await self._reload_locked()
                raise MoveError("stale", _("the table has moved on: {n} moves, you sent 'at': {at}").format(
                    n=len(self.log), at=count)) from None
            if clock is not None and self.timekeeper is not None:
                self.timekeeper.moved(clock)
            self._rewound(after, self.recent()[:-1], seat)
            return len(self.log)

    def _clock_back(self, after: Any, seat: int, index: int) -> Clock | None:
        """The clock once move ``index`` is taken back: the mover's time runs on from where it stood before that
        move, so a move and its undo give back no time (neither a move's added seconds nor a fresh day)."""
        keeper = self.timekeeper
        if keeper is None:
            return None
        now = time.time()
        clock = keeper.clock.copy()
        clock.start(keeper.clock_seat(after, clock), now)
        before = (self._clocks or {}).get(index)
        if before is not None:
            clock.left[seat] = min(clock.left[seat], Clock.from_json(before).left_at(seat, now))
        elif clock.pace.mode == "real-time" and clock.pace.per == "move":  # a table loaded since: take back the
            clock.left[seat] = max(0.0, clock.left[seat] - clock.pace.increment)  # seconds the move added
        return clock

    def _rewound(self, after: Any, recent: list[Step], seat: int | None) -> None:
        """Make ``after`` (a shorter record) the position: the log loses its end; everyone gets the whole table."""
        keep = len(after.history())
        self.state, self._recent = after, recent
        del self.log[keep:]
        for lines in self.logs.values():
            del lines[keep:]
        self.could_act = set() if seat is None else {seat}
        self.changed_at = time.monotonic()
        self.row.updated = time.time()
        self.changed(full=True)  # a viewer's log must lose its last lines too: send it whole
        self.schedule_bot()

    async def reload_moves(self) -> None:
        """Another server process took moves back: read the record and follow it (back, then forward)."""
        async with self.lock:
            await self._reload_locked()

    async def _reload_locked(self) -> None:
        stored = await self.hub.writer.run(self.hub.store.moves_since, self.id, 0)
        history = self.state.history()
        same = 0
        while same < min(len(stored), len(history)) and stored[same] == history[same]:
            same += 1
        if same < len(history):
            from .rooms import replay_with_log

            names = labels_in(self.row.seats, i18n.DEFAULT)
            state, lines = replay_with_log(self.kind, self.state.rules, stored[:same], names)
            self.log[:] = lines
            self.logs = {}
            self._rewound(state, spec_steps(self.kind.spec, state), None)
            log.info("table %s: another server process took back moves; %d kept", self.id, same)
        if len(stored) > same:
            self._follow(stored[same:])


def spec_steps(spec: Any, state: Any) -> list[Step]:
    """The steps since the last chance event of ``state``'s record, replayed (a table loaded or rewound)."""
    return steps(lambda: spec.new_state(state.rules), state.history(), spec.turn)
