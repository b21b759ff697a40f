"""Live tables: the position in memory, its viewers, and the bots that play its bot seats.

Why a room owns everything about one table: every change goes through
``Room.submit``, which (holding the room's lock) checks the move with the
engine on a copy, plays the chance events that follow with an unpredictable
generator, writes the moves to the database on the writer thread, and only
then swaps the copy in and tells the viewers. A move refused anywhere on that
path changes nothing, and a move meant for an earlier position is refused.
With several server processes on one PostgreSQL database, a move another
process stored first makes ours stale too, and the moves stored elsewhere are
played here by ``catch_up`` (see ``cluster.py``).

Viewers are told lazily: a change marks each viewer "state due" and its
writer builds the message from the current position when it sends, so a slow
viewer is owed at most one state, never a backlog; one that stops reading is
dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ... import i18n
from ...core.errors import IllegalMoveError
from ..accounts.store import DELETED
from ..clocks.clock import Clock, skip_move
from ..clocks.timing import SKIP, Timekeeper
from ..fairplay import resign
from ..fairplay.advisor import hints_word
from ..fairplay.dice import chance_dice, drawn_with, fresh_salts, shown
from ..games import GameKind, hosted
from ..guard import Bucket
from ..store import Conflict, TableRow
from ..writer import Unavailable
from .labels import labels_in
from .undo import Takebacks
from .workers import Stopped

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("spots.web")

DICE = random.SystemRandom()  # online dice: the OS's entropy, never a seed a client could learn
STATE = "\0state"  # the outbox marker for "send the current state here"
PRESENCE_DELAY = 0.5  # seconds: a seat coming and going is told to the table at most this often
REACTION = 0.3  # seconds: a move without 'at' that arrives this soon after a change may be meant for before it


@dataclass(frozen=True)
class Unsaid:
    """A move sent without ``at``: when it arrived, and the first position its connection was shown."""

    arrived: float
    first_seen: int | None


class MoveError(Exception):
    """A refused message: ``code`` for programs, ``message`` for people, ``legal`` when it helps."""

    def __init__(self, code: str, message: str, legal: list[str] | None = None, retry: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.legal, self.retry = code, message, legal, retry


@dataclass(eq=False)
class Conn:
    """One WebSocket viewer: a small outbox, and at most one state owed (built when it is sent)."""

    seat: int | None
    lang: str = "en"
    client: str = ""
    limit: int = 16
    outbox: deque[str] = field(default_factory=deque)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    drained: asyncio.Event = field(default_factory=asyncio.Event)  # set by the writer whenever the outbox empties
    state_due: bool = False
    full_due: bool = True  # the next state carries the whole log
    log_sent: int = 0
    first_seen: int | None = None  # moves in the first state this viewer was sent
    bucket: Bucket | None = None
    dropped: bool = False
    closed: bool = False
    session: str | None = None  # the session token it was opened under (signed in), re-checked before each act
    account: str | None = None  # that session's account id
    hung_up: bool = False  # its session ended: the writer sends what is queued, then closes (4401)

    def send(self, text: str) -> None:
        """Queue a message; a viewer that lets ``limit`` messages pile up is dropped."""
        if self.dropped or self.closed:
            return
        if len(self.outbox) >= self.limit:
            self.dropped = True
        else:
            self.outbox.append(text)
        self.wake.set()

    async def make_room(self, timeout: float) -> None:
        """Before queuing a reply, wait while half the outbox is unsent: a client that floods the server is
        read more slowly (its own replies pile up no further), not dropped; one that stops reading is dropped."""
        if len(self.outbox) < self.limit // 2 or self.dropped:
            return
        self.drained.clear()
        try:
            await asyncio.wait_for(self.drained.wait(), timeout)
        except TimeoutError:
            self.dropped = True
            self.wake.set()  # the writer closes the connection

    def state_changed(self, full: bool = False) -> None:
        """The table changed: owe this viewer the current state (once, however many changes)."""
        self.full_due = self.full_due or full
        if not self.state_due:
            self.state_due = True
            self.send(STATE)

    def close(self) -> None:
        self.closed = True
        self.wake.set()

    def hang_up(self, farewell: str) -> None:
        """Its session ended: send ``farewell`` (an error saying so), then the writer closes the socket."""
        self.send(farewell)
        self.hung_up = True
        self.wake.set()

    def allow(self, rate: float, burst: float) -> bool:
        """A token bucket: ``burst`` messages at once, then ``rate`` per second."""
        if self.bucket is None:
            self.bucket = Bucket(rate, burst)
        return self.bucket.take() == 0


class Room(Takebacks):
    """One table: its rules, seats, position, log and viewers (and undo: ``Takebacks``)."""

    def __init__(self, hub: Hub, row: TableRow, state: Any, log_lines: list[str]) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.kind: GameKind = hosted()[row.game]
        self.state = state
        self.log = log_lines  # English; other languages are narrated on first need (self.logs)
        self.logs: dict[str, list[str]] = {}
        self.conns: set[Conn] = set()
        self.bots = {s.seat: s.bot or "random" for s in row.seats if s.kind == "bot"}
        self.bot_only = all(s.kind == "bot" for s in row.seats)
        self.bot_task: asyncio.Task[None] | None = None
        self.dice: random.Random = DICE  # a tutorial table rolls seeded dice (web/tutorial.py)
        self.lock = asyncio.Lock()
        self.touched = time.time()  # the last sign of a person: a viewer, a human move
        # the last sign of the seat to move: its move, or its own page opened or closed (never a spectator's)
        self.awaited_since = self.touched
        self._views: dict[tuple[str, int | None], str] = {}
        self._summary: dict[str, Any] | None = None
        self._presence: asyncio.TimerHandle | None = None
        self.changed_at = 0.0  # when the position last changed (monotonic) ...
        self.could_act: set[int] = set()  # ... and the seats that could act in the position before
        self.timekeeper = Timekeeper(self, Clock.from_json(row.clock)) if row.clock else None  # a clocked table's
        resign.seat_stand_ins(self)  # a resigned seat's stand-in (every person's, once the game is played out)
        self.langs: dict[int, str] = {}  # each seat's language when last seen here (for its notices: notices.py)

    # -------------------------------------------------------------- queries

    @property
    def names(self) -> list[str]:
        """The seats' names in the server's language (the record, the stored log)."""
        return self.names_in(i18n.DEFAULT)

    def names_in(self, lang: str) -> list[str]:
        """The seats' names as shown in one language: an unnamed seat's label and a deleted account's, translated."""
        return labels_in(self.row.seats, lang)

    def seat_info(self, lang: str = i18n.DEFAULT) -> list[dict[str, Any]]:
        online = {c.seat for c in self.conns}
        return [
            {"name": name, "kind": s.kind, "bot": s.bot, "claimed": s.claimed or s.kind == "bot",
             "online": s.kind == "bot" or s.seat in online}
            for s, name in zip(self.row.seats, self.names_in(lang), strict=True)
        ]

    def record(self, state: Any = None) -> Any:
        """The table's record: its moves, who sat where (names, which seats were bots) and the moves a stand-in
        played for someone out of time."""
        covered = self.timekeeper.clock.covered if self.timekeeper is not None else []
        state = state or self.state
        resigned = resign.covered(self.row, len(state.history()))
        return self.kind.spec.record(state, self.names, None,
                                     [s.bot or "random" if s.kind == "bot" else None for s in self.row.seats],
                                     [*((seat, first, last) for seat, first, last in covered), *resigned],
                                     shown(self.row, state.is_terminal()))  # the seed only once it is over

    def current_view(self, lang: str = "en", seat: int | None = None) -> dict[str, Any]:
        """The position as ``seat`` sees it (for Spots every viewer sees the same), in one language."""
        return dict(json.loads(self._view_text(lang, seat)))

    def _view_text(self, lang: str, seat: int | None) -> str:
        """The view as JSON text, made once per position, language and side."""
        key = (i18n.resolve(lang), seat if self.kind.web.per_seat_view else None)
        if key not in self._views:
            tr = i18n.translator(key[0])
            view = self.kind.web.view(self.state, self.seat_info(key[0]), len(self.log), tr, key[1], True)
            view["table"] = self.id
            view["undo"] = self.undo_offer()  # who may take back a move now (the page's Undo button)
            view["absent"] = resign.absences(self, key[0])  # who is rated last and why, once over
            view["resigned"] = resign.words(self, key[0])  # who resigned (the page says so while the game goes on)
            view["resigned_seats"] = self.row.resigned_seats()
            self._views[key] = json.dumps(view)
        return self._views[key]

    def state_message(self, conn: Conn) -> str:
        """The state message a viewer is owed now: the view and the log lines it has not had."""
        start = 0 if conn.full_due else conn.log_sent
        conn.full_due = False
        lines = self.log_in(conn.lang)[start:]
        conn.log_sent = len(self.log)
        if conn.first_seen is None:
            conn.first_seen = conn.log_sent
        view = self._view_text(conn.lang, conn.seat)
        times = None if self.timekeeper is None else self.timekeeper.view(conn.seat, conn.lang)
        clock = "" if times is None else f', "clock": {json.dumps(times)}'
        return f'{{"type": "state", "view": {view}, "log_start": {start}, "log": {json.dumps(lines)}{clock}}}'

    def log_in(self, lang: str = "en") -> list[str]:
        """The game log in one language (narrated from the record the first time it is asked for)."""
        lang = i18n.resolve(lang)
        if lang == i18n.DEFAULT:
            return self.log
        if lang not in self.logs:
            self.logs[lang] = replay_with_log(self.kind, self.state.rules, self.state.history(), self.names_in(lang),
                                              i18n.translator(lang))[1]
        return self.logs[lang]

    def _narrate(self, before: Any, move: str, after: Any) -> dict[str, str]:
        return {lang: self.kind.spec.describe_move(before, move, after, self.names_in(lang), i18n.translator(lang))
                for lang in [i18n.DEFAULT, *self.logs]}

    def status(self) -> str:
        """``open`` (a seat may be taken from the lobby), ``playing`` or ``over``."""
        if self.state.is_terminal():
            return "over"
        return "open" if any(s.open and not s.claimed for s in self.row.seats) else "playing"

    def summary(self) -> dict[str, Any]:
        """A lobby row (cached until the table changes)."""
        if self._summary is None:
            self._summary = self._make_summary()
        return {**self._summary, "viewers": len(self.conns)}

    def _make_summary(self, st: Any = None, moves: int | None = None) -> dict[str, Any]:
        """The lobby row for position ``st`` after ``moves`` moves (default: the table as it is)."""
        st = self.state if st is None else st
        names = self.names
        summary = self.kind.spec.summarize(st)
        return {
            "id": self.id, "game": self.kind.spec.name, "title": self.kind.spec.title,
            "status": "over" if st.is_terminal() else self.status(),
            "created": self.row.created, "updated": self.row.updated,
            "players": [
                {"seat": s.seat, "name": names[s.seat], "kind": s.kind, "bot": s.bot,
                 # the lobby names these in the reader's language: a deleted account's seat, a seat nobody named
                 "deleted": s.name == DELETED and s.account is None, "unnamed": not s.name,
                 "free": s.kind == "human" and s.open and not s.claimed,
                 "invited": s.kind == "human" and not s.open and not s.claimed, "scored": summary.scores[s.seat]}
                for s in self.row.seats
            ],
            "target": summary.target, **summary.details,
            "moves": len(self.log) if moves is None else moves,
            "turn": summary.turn,
            "to_move": None if summary.seat is None or self.kind.web.racers(st) else names[summary.seat],
            "winner": None if summary.winner is None else names[summary.winner], "viewers": 0,
            # the seats themselves, for the lobby to name them in the reader's words (an unnamed or deleted seat)
            "to_move_seat": None if summary.seat is None or self.kind.web.racers(st) else summary.seat,
            "winner_seat": summary.winner,
            "hints": hints_word(self.row),  # the lobby says "no hints: rated" or "no hints"
            "min_finished": self.row.min_finished,  # a rated table's minimum share of finished games, if any
            "bots_join": self.row.bots_join,  # a bot account may take an open seat (the bot API)
            **({} if self.timekeeper is None else self.timekeeper.summary()),
        }

    # -------------------------------------------------------------- changes

    async def submit(self, move: Any, seat: int, at: int | Unsaid | None = None, lang: str = "en"
                     ) -> tuple[int, str]:
        """Apply a seat's move to the position it was meant for, then the chance events; persist; broadcast.

        ``at`` is the number of moves the sender had seen; a move for any other position is
        refused (``stale``). Without it (``Unsaid``) the move is taken for the current position
        unless that is ambiguous (see ``_infer``). Returns the move's index in the record and its
        canonical text. Raises MoveError and changes nothing when refused.
        """
        async with self.lock:
            if isinstance(at, Unsaid):
                at = self._infer(at, seat, lang)
            after, text = self._check(move, seat, at, lang)
            index = len(self.log)
            await self._commit(self.state, after, [(text, seat)], lang)
            if self.row.seats[seat].kind == "human":
                self.touched = time.time()
            return index, text

    def _infer(self, unsaid: Unsaid, seat: int, lang: str) -> int:
        """The position a move without ``at`` was meant for, or ``stale`` when it may have been the one before.

        It is ambiguous when the position changed just before the move arrived (or while it waited),
        the sender's connection had been shown the position before, and this seat could act there
        too (a second connection of the same seat, a double click, a claim race that just ended).
        """
        shown_before = unsaid.first_seen is not None and unsaid.first_seen < len(self.log)
        if shown_before and seat in self.could_act and self.changed_at > unsaid.arrived - REACTION:
            _ = i18n.translator(lang).gettext
            raise MoveError("stale", _("the table has just moved on ({n} moves); send 'at' with the number of moves"
                                       " you have seen").format(n=len(self.log)))
        return len(self.log)

    def _check(self, move: Any, seat: int, at: int | None, lang: str) -> tuple[Any, str]:
        """The position after ``move`` (on a copy) and its canonical text, or a MoveError."""
        _ = i18n.translator(lang).gettext
        state = self.state
        if not isinstance(move, str) or not move.strip():
            raise MoveError("bad-message", _("'move' must be a non-empty string in the move notation"))
        if at is not None and at != len(self.log):
            raise MoveError("stale", _("the table has moved on: {n} moves, you sent 'at': {at}").format(
                n=len(self.log), at=at))
        if state.is_terminal():
            raise MoveError("game-over", _("the game is over; no move is accepted"))
        after = state.clone()
        if seat in self.kind.web.racers(state):  # a claim race: the first seat to send ``claim <its seat>`` wins
            wanted = f"claim {seat}"
            if " ".join(move.lower().split()) != wanted:
                raise MoveError("illegal-move", _("a card is being claimed: the only move now is {move}").format(
                    move=repr(wanted)), [wanted])
            after.apply_action(wanted)
            return after, wanted
        if state.current_player() != seat:
            who = self.names[self.kind.spec.summarize(state).seat or 0]
            raise MoveError("not-your-turn", _("it is {who}'s turn, not seat {seat}'s").format(
                who=who, seat=seat + 1), [])  # people count seats from 1
        try:
            after.apply_action(move, player=seat)
        except IllegalMoveError as exc:
            message = i18n.refused_move(exc, move, state.legal_actions(), i18n.translator(lang))
            raise MoveError("illegal-move", message, state.legal_actions()) from None
        return after, after.history()[-1]

    async def _commit(self, before: Any, after: Any, moves: list[tuple[str, int]], lang: str = "en") -> None:
        """Play chance events up to the next decision, write everything, then swap and tell everyone.

        When another server process stored a move here first (``Conflict``), catch up with it and
        refuse this one as stale: the table changes only as the database says.
        """
        lines = [self._narrate(before, moves[0][0], after)] if moves else []
        start = len(self.log)
        await fresh_salts(self, after)
        while self.kind.draws_chance(after):
            prior = after.clone()
            text = after.sample_chance(chance_dice(self.row.dice, self.dice, start + len(moves)))  # committed dice
            moves.append((text, -1))
            lines.append(self._narrate(prior, text, after))
        status = "over" if after.is_terminal() else "playing"
        final = None
        if after.is_terminal():
            final = {**self._make_summary(after, start + len(moves)), "updated": time.time()}
        mover = moves[0][1] if moves else None
        clock = None if self.timekeeper is None else self.timekeeper.after(after, mover, time.time(), start)
        try:  # durable before anyone hears
            await self.hub.writer.run(self.hub.store.append_moves, self.id, start, moves, status,
                                      self.kind.spec.summarize(after).winner, final, clock and clock.to_json(),
                                      drawn_with(self.row))
        except Unavailable as exc:
            raise MoveError("server-error", f"the move could not be saved ({exc.why}); nothing changed,"
                            " try again", retry=exc.retry) from None
        except Conflict:
            log.info("table %s: another server process stored move %d first; this one is refused", self.id, start)
            await self._catch_up_locked()
            _ = i18n.translator(lang).gettext
            raise MoveError("stale", _("the table has moved on: {n} moves, you sent 'at': {at}").format(
                n=len(self.log), at=start)) from None
        self.followed(before, [m for m, _ in moves], chance_last=bool(moves) and moves[-1][1] == -1)
        if self.timekeeper is not None and clock is not None:
            self.timekeeper.moved(clock)
        self._swap(before, after, lines, final)
        self.hub.turn_changed(self, before)
        if final is not None:
            self.hub.ratings.finished(self)  # only the process that stored the last move rates the table

    def _swap(self, before: Any, after: Any, lines: list[dict[str, str]], final: dict[str, Any] | None) -> None:
        """Make ``after`` (with its narrated ``lines``) the table's position and tell everyone."""
        status = "over" if after.is_terminal() else "playing"
        self.could_act = set(self.kind.web.racers(before)) or (
            set() if before.is_terminal() or before.is_chance_node() else {before.current_player()})
        self.changed_at = time.monotonic()
        self.state = after
        self.log.extend(line[i18n.DEFAULT] for line in lines)
        for lang in list(self.logs):
            if all(lang in line for line in lines):
                self.logs[lang].extend(line[lang] for line in lines)
            else:  # first asked for while these moves were being stored: narrated from the record when next needed
                del self.logs[lang]
        self.row.updated = time.time()
        self.row.status = status
        self.changed()
        for listener in self.hub.on_moved:  # (the coach analyses a game as it is played)
            listener(self)
        if final is not None:
            self.hub.finished_game(self, final)
        self.schedule_bot()

    def renamed(self) -> None:
        """A seat has a new name: tell the whole log again with it (the caller resends it: ``changed(full=True)``)."""
        self.log[:] = replay_with_log(self.kind, self.state.rules, self.state.history(), self.names)[1]
        self.logs = {}

    def changed(self, full: bool = False) -> None:
        """The position or the seats changed: every viewer is owed the new state; the lobby row is stale."""
        self._views = {}
        self._summary = None
        self.hub.lobby_changed(self)
        for conn in list(self.conns):
            conn.state_changed(full)

    async def settle(self) -> None:
        """Draw any chance event left pending (a table loaded mid-deal), then wake the bots."""
        async with self.lock:
            if self.kind.draws_chance(self.state):
                try:
                    await self._commit(self.state, self.state.clone(), [])
                except MoveError as exc:
                    if exc.code != "stale":  # stale: another server process drew it first
                        raise
        self.schedule_bot()

    # -------------------------------------------------------------- other server processes

    async def catch_up(self, end: int | None = None, moves: list[str] | None = None) -> None:
        """Play the moves another server process stored since this copy of the table last changed.

        ``moves``, when the notification carried them, are the moves that end at ``end``: when they
        follow on from this copy they are played without reading them back from the database.
        """
        async with self.lock:
            if end is not None and moves is not None and end - len(moves) == len(self.log):
                self._follow(moves)
            elif end is None or end > len(self.log):
                await self._catch_up_locked()

    async def _catch_up_locked(self) -> None:
        moves = await self.hub.writer.run(self.hub.store.moves_since, self.id, len(self.log))
        if moves:
            self._follow(moves)

    def _follow(self, moves: list[str]) -> None:
        """Apply moves already stored (by another process): narrate them, swap, tell the viewers."""
        before, after = self.state, self.state.clone()
        lines = []
        for move in moves:
            prior = after.clone()
            after.apply_action(move)
            lines.append(self._narrate(prior, move, after))
        final = None
        if after.is_terminal():
            final = {**self._make_summary(after, len(self.log) + len(moves)), "updated": time.time()}
        if not self.bot_only:
            self.touched = time.time()
        self.awaited_since = time.time()  # a new seat to move, or the same one again: awaited from now
        self.followed(before, moves)
        self._swap(before, after, lines, final)
        if self.timekeeper is not None:  # the process that stored the moves stored their clock too
            asyncio.get_running_loop().create_task(self.timekeeper.heard())

    # -------------------------------------------------------------- viewers

    def join(self, conn: Conn) -> None:
        """A new viewer gets the whole state; the others hear only that a player came (coalesced)."""
        was_online = conn.seat is not None and any(c.seat == conn.seat for c in self.conns)
        if conn.seat is not None:
            self.langs[conn.seat] = conn.lang
        self.conns.add(conn)
        self._seen(conn)
        conn.state_changed(full=True)
        if conn.seat is not None and not was_online:
            self._presence_changed()
        if conn.seat is not None and self.timekeeper is not None and self.timekeeper.stood_in(conn.seat):
            asyncio.get_running_loop().create_task(self.timekeeper.back(conn.seat))  # back: the seat is theirs

    def leave(self, conn: Conn) -> None:
        self.conns.discard(conn)
        self._seen(conn)
        if conn.seat is not None and not any(c.seat == conn.seat for c in self.conns):
            self._presence_changed()

    def _seen(self, conn: Conn) -> None:
        """A page opened or closed: a person was here; the seat to move, if it was theirs."""
        self.touched = time.time()
        st = self.state
        if conn.seat is not None and not st.is_terminal() and conn.seat == self.kind.spec.summarize(st).seat:
            self.awaited_since = self.touched

    def _presence_changed(self) -> None:
        """A seat came online or went away: tell the table once, shortly, however often it flickers."""
        self._views = {}  # a view asked for now shows who is online; the viewers hear it shortly
        if self.hub.closing or self._presence is not None:
            return

        def tell() -> None:
            self._presence = None
            self.changed()

        self._presence = asyncio.get_running_loop().call_later(PRESENCE_DELAY, tell)

    # -------------------------------------------------------------- bots

    def bot_to_act(self) -> int | None:
        """The bot seat that acts next: the one to move, or a bot in a claim race."""
        st = self.state
        if st.is_terminal():
            return None
        racers = [s for s in self.kind.web.racers(st) if s in self.bots]
        if racers:
            return racers[int(DICE.random() * len(racers))]
        seat = st.current_player()
        return seat if seat in self.bots else None

    def schedule_bot(self) -> None:
        """Start the bot runner if a bot seat is to act and none is running."""
        if self.hub.closing or self.bot_to_act() is None:
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        """Play bot seats one move at a time, at a pace people can follow.

        In a claim race a bot waits a human's reaction time (1.5 to 2.5 bot delays, and at least 1.5 s),
        so a person watching the board has a fair chance to claim first. When a move cannot be saved
        (a locked database, a full disk) the bot waits and tries again, longer each time, so the table
        carries on by itself once the fault clears.
        """
        backoff = 0.5
        if not await self.hub.follower.lease(self):
            return  # another server process plays this table's bots
        while not self.hub.closing:
            st = self.state
            seat = self.bot_to_act()
            if seat is None:
                return
            racing = bool(self.kind.web.racers(st))
            # even with no bot delay, a person gets at least 1.5 s to claim first
            delay = 0.0 if self.row.played_out() else self.hub.bot_delay  # played out: nobody is left to wait for
            await asyncio.sleep(max(delay, 1.0) * (1.5 + DICE.random()) if racing else delay)
            if self.state is not st:
                continue
            try:
                if racing:
                    move = f"claim {seat}"
                elif self.bots[seat] == SKIP:  # a seat out of time whose turns the others chose to skip
                    move = skip_move(st.legal_actions())
                else:
                    move = await self.hub.workers.bot_move(
                        self.kind.spec.name, self.bots[seat], self.dice.randrange(2**32), st.clone(), self.bot_only)
                if self.state is st and seat in self.bots:  # (a seat's player may have come back meanwhile)
                    await self.submit(move, seat, len(self.log))
                backoff = 0.5
            except MoveError as exc:
                if exc.code == "stale":
                    continue
                if exc.code != "server-error":  # a bot bug must not stop the server
                    log.error("table %s: bot move refused: %s", self.id, exc.message)
                    return
                log.warning("table %s: bot move not saved (%s); trying again in %.1f s", self.id, exc.message, backoff)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 30.0)
            except Stopped:
                return  # the server is stopping: the bot moves after a restart
            except Exception:
                log.exception("table %s: bot failed", self.id)
                return


def replay_with_log(kind: GameKind, rules: Any, moves: list[str], names: list[str], tr: Any = None
                    ) -> tuple[Any, list[str]]:
    """Replay a table's moves from the start, narrating each (the same check as ``spots.replay``)."""
    state = kind.spec.new_state(rules)
    lines = []
    for move in moves:
        before = state.clone()
        state.apply_action(move)
        lines.append(kind.spec.describe_move(before, move, state, names, tr))
    return state, lines

