"""Live tables: the position in memory, its viewers, and the bots that play its bot seats.

Why a room owns everything about one table: every change goes through
``Room.submit``, which checks the move with the engine on a copy, plays the
chance events that follow with an unpredictable generator, writes the moves
to the database, and only then swaps the copy in and tells the viewers. A
move refused anywhere on that path changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

from .. import i18n
from ..core.errors import IllegalMoveError
from .games import GAMES, GameKind
from .store import Store, TableRow

log = logging.getLogger("spots.web")

DICE = random.SystemRandom()  # online dice: the OS's entropy, never a seed a client could learn


class MoveError(Exception):
    """A refused message: ``code`` for programs, ``message`` for people, ``legal`` when it helps."""

    def __init__(self, code: str, message: str, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.legal = code, message, legal


@dataclass(eq=False)
class Conn:
    """One WebSocket viewer. Outgoing messages go through a bounded queue so a slow client never stalls a table."""

    seat: int | None
    lang: str = "en"
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=500))
    log_sent: int = 0
    tokens: float = 0.0
    refilled: float = 0.0
    dropped: bool = False

    def send(self, text: str) -> None:
        if self.dropped:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:  # the client stopped reading: let it go
            self.dropped = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.get_nowait()
                self.queue.put_nowait(None)

    def allow(self, rate: float, burst: float) -> bool:
        """A token bucket: ``burst`` messages at once, then ``rate`` per second."""
        now = time.monotonic()
        if not self.refilled:
            self.tokens, self.refilled = burst, now
        self.tokens = min(burst, self.tokens + (now - self.refilled) * rate)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Room:
    """One table: its rules, seats, position, log and viewers."""

    def __init__(self, hub: Hub, row: TableRow, state: Any, log_lines: list[str]) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.kind: GameKind = GAMES[row.game]
        self.state = state
        self.log = log_lines  # English; other languages are narrated on first need (self.logs)
        self.logs: dict[str, list[str]] = {}
        self.conns: set[Conn] = set()
        self.bots: dict[int, Any] = {
            s.seat: self.kind.make_bot(s.bot or "random", DICE.randrange(2**32)) for s in row.seats if s.kind == "bot"
        }
        self.bot_task: asyncio.Task[None] | None = None
        self.dice: random.Random = DICE  # a tutorial table rolls seeded dice (web/tutorial.py)
        self._views: dict[tuple[str, int | None], dict[str, Any]] = {}

    # -------------------------------------------------------------- queries

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.row.seats]

    def seat_info(self) -> list[dict[str, Any]]:
        online = {c.seat for c in self.conns}
        return [
            {"name": s.name, "kind": s.kind, "bot": s.bot, "claimed": s.claimed or s.kind == "bot",
             "online": s.kind == "bot" or s.seat in online}
            for s in self.row.seats
        ]

    def current_view(self, lang: str = "en", seat: int | None = None) -> dict[str, Any]:
        """The position as ``seat`` sees it (for Spots every viewer sees the same), in one language."""
        key = (i18n.resolve(lang), seat if self.kind.per_seat_view else None)
        if key not in self._views:
            self._views[key] = self.kind.view(self.state, self.seat_info(), len(self.log), i18n.translator(key[0]),
                                              key[1], True)
            self._views[key]["table"] = self.id
        return self._views[key]

    def log_in(self, lang: str = "en") -> list[str]:
        """The game log in one language (narrated from the record the first time it is asked for)."""
        lang = i18n.resolve(lang)
        if lang == i18n.DEFAULT:
            return self.log
        if lang not in self.logs:
            self.logs[lang] = replay_with_log(self.kind, self.state.rules, self.state.history(), self.names,
                                              i18n.translator(lang))[1]
        return self.logs[lang]

    def _narrate(self, before: Any, move: str, after: Any) -> dict[str, str]:
        return {lang: self.kind.narrate(before, move, after, self.names, i18n.translator(lang))
                for lang in [i18n.DEFAULT, *self.logs]}

    def summary(self) -> dict[str, Any]:
        """A lobby row."""
        st = self.state
        names = self.names
        free = [s.seat for s in self.row.seats if s.kind == "human" and not s.claimed]
        scores = self.kind.scores(st)
        return {
            "id": self.id, "game": self.kind.name, "title": self.kind.title,
            "status": "over" if st.is_terminal() else ("open" if free else "playing"),
            "created": self.row.created, "updated": self.row.updated,
            "players": [
                {"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot, "free": s.seat in free,
                 "scored": scores[s.seat]}
                for s in self.row.seats
            ],
            "target": self.kind.target(st), "tricks": list(getattr(st.rules, "tricks", ())), "moves": len(self.log),
            "turn": st.turn,
            "to_move": None if st.is_terminal() or self.kind.racers(st) else names[st.seat],
            "winner": None if st.winner is None else names[st.winner], "viewers": len(self.conns),
        }

    # -------------------------------------------------------------- changes

    def submit(self, move: Any, seat: int, at: int | None = None, lang: str = "en") -> tuple[int, str]:
        """Apply a seat's move, then the chance events it leads to; persist; broadcast.

        Returns the move's index in the record and its canonical text.
        Raises MoveError and changes nothing when refused.
        """
        _ = i18n.translator(lang).gettext
        state = self.state
        if not isinstance(move, str) or not move.strip():
            raise MoveError("bad-message", _("'move' must be a non-empty string in the move notation"))
        if at is not None and at != len(self.log):
            raise MoveError("stale", _("the table has moved on: {n} moves, you sent 'at': {at}").format(
                n=len(self.log), at=at))
        if state.is_terminal():
            raise MoveError("game-over", _("the game is over; no move is accepted"))
        if seat in self.kind.racers(state):
            return self._claim(move, seat, lang)
        if state.current_player() != seat:
            who = self.names[state.seat]
            raise MoveError("not-your-turn", _("it is {who}'s turn, not seat {seat}'s").format(
                who=who, seat=seat + 1), [])  # people count seats from 1
        after = state.clone()
        try:
            after.apply_action(move, player=seat)
        except IllegalMoveError as exc:
            message = i18n.refused_move(exc, move, state.legal_actions(), i18n.translator(lang))
            raise MoveError("illegal-move", message, state.legal_actions()) from None
        index, text = len(self.log), after.history()[-1]
        self._commit(state, after, [(text, seat)])
        return index, text

    def _claim(self, move: str, seat: int, lang: str) -> tuple[int, str]:
        """A claim race (Double Spot's ``first`` rule): the first seat to send ``claim <its seat>`` takes the card."""
        _ = i18n.translator(lang).gettext
        wanted = f"claim {seat}"
        if " ".join(move.lower().split()) != wanted:
            raise MoveError("illegal-move", _("a card is being claimed: the only move now is {move}").format(
                move=repr(wanted)), [wanted])
        after = self.state.clone()
        after.apply_action(wanted)
        index = len(self.log)
        self._commit(self.state, after, [(wanted, seat)])
        return index, wanted

    def _commit(self, before: Any, after: Any, moves: list[tuple[str, int]]) -> None:
        """Play chance events up to the next decision, write everything, then swap and tell everyone."""
        lines = [self._narrate(before, moves[0][0], after)] if moves else []
        while self.kind.draws_chance(after):
            prior = after.clone()
            text = after.sample_chance(self.dice)
            moves.append((text, -1))
            lines.append(self._narrate(prior, text, after))
        start = len(self.log)
        status = "over" if after.is_terminal() else "playing"
        try:
            self.hub.store.append_moves(self.id, start, moves, status, after.winner)  # durable before anyone hears
        except sqlite3.Error as exc:
            log.error("table %s: a move could not be saved: %s", self.id, exc)
            raise MoveError("server-error", "the move could not be saved; nothing changed, try again") from None
        self.state = after
        self.log.extend(line[i18n.DEFAULT] for line in lines)
        for lang, other in self.logs.items():
            other.extend(line[lang] for line in lines)
        self.row.updated = time.time()
        self.row.status = status
        self._views = {}
        self.broadcast()
        self.schedule_bot()

    def renamed(self) -> None:
        """A seat has a new name: tell the whole log again with it, and resend it to every viewer."""
        self.log[:] = replay_with_log(self.kind, self.state.rules, self.state.history(), self.names)[1]
        self.logs = {}
        for conn in self.conns:
            conn.log_sent = 0

    def broadcast(self) -> None:
        """Send the new view and the new log lines to every viewer (one serialised message per language)."""
        self._views = {}
        payloads: dict[tuple[str, int | None], str] = {}
        for conn in list(self.conns):
            key = (conn.lang, conn.seat)
            if key not in payloads:
                payloads[key] = json.dumps({"type": "state", "view": self.current_view(conn.lang, conn.seat)})
            payload = payloads[key]
            start = conn.log_sent
            lines = self.log_in(conn.lang)[start:]
            conn.log_sent = len(self.log)
            conn.send(payload[:-1] + f', "log_start": {start}, "log": {json.dumps(lines)}}}')

    def full_state(self, conn: Conn) -> None:
        """Resend everything to one viewer (on connect, or when it asks to resync)."""
        conn.log_sent = len(self.log)
        conn.send(json.dumps({"type": "state", "view": self.current_view(conn.lang, conn.seat), "log_start": 0,
                              "log": self.log_in(conn.lang)}))

    # -------------------------------------------------------------- viewers

    def join(self, conn: Conn) -> None:
        self.conns.add(conn)
        self._views = {}
        self.full_state(conn)
        self.broadcast_presence()

    def leave(self, conn: Conn) -> None:
        self.conns.discard(conn)
        self.broadcast_presence()

    def broadcast_presence(self) -> None:
        if not self.hub.closing:
            self.broadcast()

    # -------------------------------------------------------------- bots

    def bot_to_act(self) -> int | None:
        """The bot seat that acts next: the one to move, or a bot in a claim race."""
        st = self.state
        if st.is_terminal():
            return None
        racers = [s for s in self.kind.racers(st) if s in self.bots]
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
        so a person watching the board has a fair chance to claim first.
        """
        while not self.hub.closing:
            st = self.state
            seat = self.bot_to_act()
            if seat is None:
                return
            racing = bool(self.kind.racers(st))
            # even with no bot delay, a person gets at least 1.5 s to claim first
            pause = max(self.hub.bot_delay, 1.0) * (1.5 + DICE.random()) if racing else self.hub.bot_delay
            await asyncio.sleep(pause)
            if self.state is not st:
                continue
            try:
                if racing:
                    move = f"claim {seat}"
                else:
                    move = await asyncio.to_thread(self.bots[seat].choose, st.clone())
                if self.state is st:
                    self.submit(move, seat)
            except MoveError as exc:  # a bot bug must not stop the table
                log.error("table %s: bot move refused: %s", self.id, exc.message)
                return
            except Exception:
                log.exception("table %s: bot failed", self.id)
                return


class Hub:
    """Every table of the server, loaded from the store at start-up."""

    def __init__(self, store: Store, bot_delay: float = 1.0) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self.by_token: dict[str, tuple[str, int]] = {}
        self.by_host: dict[str, str] = {}
        self.closing = False

    def load(self) -> None:
        """Rebuild every table by replaying its recorded moves (the moves are the truth)."""
        for row in self.store.load_tables():
            try:
                names = [s.name for s in row.seats]
                kind = GAMES[row.game]
                state, lines = replay_with_log(kind, kind.rules_from_dict(row.rules), row.moves, names)
            except Exception:
                log.exception("table %s cannot be rebuilt; it is left out", row.id)
                continue
            self._add(Room(self, row, state, lines))

    def _add(self, room: Room) -> None:
        self.rooms[room.id] = room
        self.by_host[room.row.host_token] = room.id
        for s in room.row.seats:
            if s.token:
                self.by_token[s.token] = (room.id, s.seat)

    def start(self) -> None:
        """After loading: finish any pending chance events and wake the bots."""
        for room in self.rooms.values():
            if room.kind.draws_chance(room.state):
                room._commit(room.state, room.state.clone(), [])
            room.schedule_bot()

    async def stop(self) -> None:
        self.closing = True
        tasks = [r.bot_task for r in self.rooms.values() if r.bot_task and not r.bot_task.done()]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t

    def create(self, kind: GameKind, rules: Any, seats: list[dict[str, Any]], dice: random.Random = DICE) -> Room:
        """A new table: deal and roll the opening chance events, store it all, start the bots.

        ``dice``: online tables use the OS's entropy; only the tutorial passes a seeded generator.
        """
        state = kind.new_state(rules)
        names = [s["name"] for s in seats]
        moves: list[tuple[str, int]] = []
        lines: list[str] = []
        while kind.draws_chance(state):
            prior = state.clone()
            text = state.sample_chance(dice)
            moves.append((text, -1))
            lines.append(kind.narrate(prior, text, state, names, None))
        row = self.store.create_table(kind.name, rules.to_dict(), seats, moves)
        room = Room(self, row, state, lines)
        room.dice = dice
        self._add(room)
        room.schedule_bot()
        return room

    def claim(self, token: str) -> tuple[Room, int] | None:
        found = self.by_token.get(token)
        if found is None:
            return None
        room = self.rooms[found[0]]
        seat = room.row.seats[found[1]]
        if not seat.claimed:
            self.store.claim_seat(room.id, seat.seat, rotate=False)
            seat.claimed = True
            room.broadcast_presence()
        return room, found[1]

    def join_free(self, room: Room, seat_no: int, name: str | None) -> str | None:
        """Take a free human seat from the lobby: a fresh token, so older links to it stop working."""
        token = self.store.claim_seat(room.id, seat_no, rotate=True, name=name)
        if token is None:
            return None
        seat = room.row.seats[seat_no]
        if seat.token:
            self.by_token.pop(seat.token, None)
        seat.token, seat.claimed = token, True
        self.by_token[token] = (room.id, seat_no)
        if name and name != seat.name:
            seat.name = name
            room.renamed()
        room.broadcast_presence()
        return token


def replay_with_log(kind: GameKind, rules: Any, moves: list[str], names: list[str], tr: Any = None
                    ) -> tuple[Any, list[str]]:
    """Replay a table's moves from the start, narrating each (the same check as ``spots.replay``)."""
    state = kind.new_state(rules)
    lines = []
    for move in moves:
        before = state.clone()
        state.apply_action(move)
        lines.append(kind.narrate(before, move, state, names, tr))
    return state, lines


def state_at(kind: GameKind, rules: Any, moves: list[str], count: int) -> Any:
    """The position after the first ``count`` moves (for the replay viewer)."""
    state = kind.new_state(rules)
    for move in moves[:count]:
        state.apply_action(move)
    return state
