"""What the web app asks of its database (``TableStore``), written once for SQLite and PostgreSQL.

A table's position is never stored; it is rebuilt by replaying its moves, so the moves are the single
source of truth and a restart cannot disagree with the log. Each feature adds its half of the store as a
mixin (``accounts.store``, ``talk.store``, ...); ``sqlite.Store`` and ``postgres.PgStore`` are the two
databases. The calls are synchronous: the app runs them on one writer thread (``Writer``).
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ...core.commitment import Commitment, salts_text
from ..accounts.store import AccountStore
from ..botapi.store import BotStore
from ..clubs.store import ClubStore
from ..coach.store import AnalysisStore
from ..fairplay.store import FairPlayStore
from ..invitations.store import InviteStore
from ..notices.store import PushStore
from ..puzzles.store import PuzzleStore
from ..talk.store import TalkStore
from ..tournaments.store import TournamentStore
from .migrate import SCHEMA_VERSION

T = TypeVar("T")


class StoreError(Exception):
    """The database cannot be used; the message is one line naming it and what is wrong."""


class Conflict(Exception):
    """Another writer already stored a move at that index: another server process won the race."""


@dataclass
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    name: str
    token: str | None
    claimed: bool
    open: bool = False
    account: str | None = None  # the account holding the seat (accounts.py); None: a guest's or a bot's


@dataclass
class TableRow:
    id: str
    host_token: str
    created: float
    updated: float
    rules: Any  # a dict once read; a quarantined table's may be the raw text
    status: str
    winner: int | None
    game: str = "spots"
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    summary: dict[str, Any] | None = None
    owner: str = ""
    clock: str | None = None  # the clock's JSON (web/clocks.py), None for a table without one
    rated: bool = False  # its result changes ratings (ratings.py)
    hints: bool = True  # the creator let the advisor answer (never at a rated table: ``advisor_refusal``)
    dice: Commitment | None = None  # the committed dice (the seed is secret until the end: ``fairplay/dice.py``)
    resigned: list[tuple[int, int]] = field(default_factory=list)  # [seat, moves when it resigned], in order
    min_finished: int | None = None  # the share (%) of rated games its players must have finished (ratings.py)
    bots_join: bool = False  # a bot account may take an open seat through the bot API (botapi/stream.py)

    # Resigning (``fairplay/resign.py``): a stand-in plays a resigned seat to the end.

    def resigned_seats(self) -> list[int]:
        """The seats that resigned, the first first."""
        return [seat for seat, _ in self.resigned]

    def played_out(self) -> bool:
        """Whether the game is over for everyone who counts: at most one seat has not resigned, or no person has."""
        left = [s for s in self.seats if s.seat not in self.resigned_seats()]
        return bool(self.resigned) and (len(left) <= 1 or all(s.kind != "human" for s in left))

    def resign_stand_in(self, seat: int) -> bool:
        """Whether a stand-in plays ``seat`` because of a resignation (its own, or everyone's once played out)."""
        return seat in self.resigned_seats() or (self.played_out() and self.seats[seat].kind == "human")


def stored_dice(commitment: str | None, seed: str | None, salts: str | None, deal: int, reveal: str | None
                ) -> Commitment | None:
    """A table's committed dice as the database keeps them (None: a table with no commitment)."""
    if commitment is None:
        return None
    dice = Commitment.parse({"commitment": commitment, "seed": seed, "salts": json.loads(salts or "[]"),
                             "deal": bool(deal)}, "the table's dice")
    return replace(dice, reveal_from=reveal)


def resigned_of(text: str | None) -> list[tuple[int, int]]:
    """The stored ``resigned`` column: the seats that resigned, in order, with the moves played when each did."""
    return [(int(seat), int(moves)) for seat, moves in json.loads(text)] if text else []


def dice_columns(dice: Commitment | None) -> tuple[str | None, str | None, str | None, int, str | None]:
    """``dice_commitment``, ``dice_seed``, ``dice_salts``, ``dice_deal`` and ``dice_reveal`` of a new table."""
    if dice is None:
        return None, None, None, 0, None
    return dice.commitment, dice.seed, salts_text(dice.salts), int(dice.deal), dice.reveal_from


def new_token() -> str:
    """An unguessable secret for a link (128 bits from the OS)."""
    return secrets.token_urlsafe(16)


class TableStore(TalkStore, AccountStore, InviteStore, PushStore, AnalysisStore, FairPlayStore, PuzzleStore, BotStore,
                 TournamentStore, ClubStore, ABC):
    """What the web app asks of its database. The calls are synchronous (the app runs them on ``Writer``).

    ``shared``: other server processes may change the tables too (then ``listen`` reports their
    changes and ``bot_lease`` says which process plays a table's bots). ``errors``: the driver's
    exceptions that mean "the database cannot do this now" (``Writer`` turns them into ``Unavailable``).
    """

    shared = False
    errors: tuple[type[BaseException], ...] = ()
    name = ""

    @abstractmethod
    def create_table(self, game: str, rules: dict[str, Any], seats: list[dict[str, Any]],
                     moves: list[tuple[str, int]], owner: str = "", clock: str | None = None,
                     rated: bool = False, hints: bool = True, dice: Commitment | None = None,
                     min_finished: int | None = None, bots_join: bool = False) -> TableRow:
        """A new table with its seats, opening moves and invitations (seats with ``invited``), in one
        transaction."""

    @abstractmethod
    def append_moves(self, table_id: str, start: int, moves: list[tuple[str, int]], status: str,
                     winner: int | None, summary: dict[str, Any] | None = None, clock: str | None = None,
                     salts: str | None = None) -> None:
        """Append moves at index ``start`` (and store the table's ``clock`` when given); raises ``Conflict``
        (changing nothing) when it is taken, or when the table's salts are no longer ``salts`` (the chance
        events were drawn without a salt stored meanwhile: ``fairplay/dice.py``)."""

    @abstractmethod
    def swap_clock(self, table_id: str, old: str, new: str) -> bool:
        """Store a table's clock ``new`` if it still is ``old`` (compare-and-set); whether it was stored.

        Why compare-and-set: every server process times every clock, and only the first to act on an
        expiry (or a choice) may; the others find the clock changed and read it back (``clock_of``)."""

    def clock_of(self, table_id: str) -> str | None:
        """A table's clock as stored (after another process changed it)."""
        with self.lock:
            found = self._read("SELECT clock FROM tables WHERE id = ?", (table_id,))
        return found[0][0] if found else None

    @abstractmethod
    def take_back(self, table_id: str, count: int, keep: int, clock: str | None = None) -> None:
        """Remove a table's moves from index ``keep`` on (an undo: the record as if they were never played), and
        store its ``clock`` when given; raises ``Conflict`` (changing nothing) when it does not hold ``count``."""

    @abstractmethod
    def claim_seat(self, table_id: str, seat: int, rotate: bool, name: str | None = None) -> str | None: ...

    @abstractmethod
    def set_status(self, table_id: str, status: str, problem: str | None = None) -> None: ...

    lock: threading.Lock  # every call holds it: one connection, used by one thread at a time

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of one query written with ``?`` placeholders (the store's dialect takes over); under ``lock``."""

    @abstractmethod
    def _among(self, ids: list[str]) -> tuple[str, Sequence[Any]]:
        """A condition "``table_id`` is one of ``ids``" and its arguments, in the store's dialect."""

    # The reads below are the same SQL in both dialects, so they are written once.

    def _rows(self, where: str, args: Sequence[Any]) -> dict[str, TableRow]:
        """The tables matching ``where`` with their seats and moves (rules stay text when not JSON: a
        quarantined table's)."""
        found: dict[str, TableRow] = {}
        for r in self._read("SELECT id, host_token, created, updated, rules, status, winner, game, summary, owner,"
                            " clock, rated, hints, dice_commitment, dice_seed, dice_salts, dice_deal, dice_reveal,"
                            " resigned, min_finished, bots_join"
                            f" FROM tables WHERE {where} ORDER BY created", args):
            try:
                rules: Any = json.loads(r[4])
            except ValueError:
                rules = r[4]
            summary = json.loads(r[8]) if r[8] else None
            found[r[0]] = TableRow(r[0], r[1], r[2], r[3], rules, r[5], r[6], r[7], summary=summary, owner=r[9] or "",
                                   clock=r[10], rated=bool(r[11]), hints=bool(r[12]),
                                   dice=stored_dice(*r[13:18]), resigned=resigned_of(r[18]),
                                   min_finished=r[19], bots_join=bool(r[20]))
        if not found:
            return found
        among, ids = self._among(list(found))
        for r in self._read("SELECT table_id, seat, kind, bot, name, token, claimed, open, account FROM seats"
                            f" WHERE {among} ORDER BY seat", ids):
            found[r[0]].seats.append(SeatRow(r[1], r[2], r[3], r[4], r[5], bool(r[6]), bool(r[7]), r[8]))
        for table_id, move in self._read(f"SELECT table_id, move FROM moves WHERE {among} ORDER BY table_id, idx", ids):
            found[table_id].moves.append(move)
        return found

    def load_tables(self) -> list[TableRow]:
        """Every live table with its seats and moves, oldest first (for start-up)."""
        with self.lock:
            return list(self._rows("status = 'playing'", ()).values())

    def load_table(self, table_id: str) -> TableRow | None:
        """One table of any status (a finished one asked for by its replay or final page)."""
        with self.lock:
            return self._rows("id = ?", (table_id,)).get(table_id)

    def finished(self, offset: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """A page of finished tables' lobby rows, newest first, and how many there are."""
        over = "FROM tables WHERE status = 'over' AND summary IS NOT NULL"
        with self.lock:
            rows = self._read(f"SELECT summary {over} ORDER BY updated DESC LIMIT ? OFFSET ?", (limit, offset))
            ((count,),) = self._read(f"SELECT COUNT(*) {over}")
        return [json.loads(r[0]) for r in rows], int(count)

    def status_of(self, table_id: str) -> tuple[str, str | None] | None:
        with self.lock:
            found = self._read("SELECT status, problem FROM tables WHERE id = ?", (table_id,))
        return (found[0][0], found[0][1]) if found else None

    def move_count(self, table_id: str) -> int:
        with self.lock:
            ((count,),) = self._read("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,))
        return int(count)

    def moves_since(self, table_id: str, start: int) -> list[str]:
        """A table's moves from index ``start`` on (catching up with another process's moves)."""
        with self.lock:
            return [m for (m,) in self._read(
                "SELECT move FROM moves WHERE table_id = ? AND idx >= ? ORDER BY idx", (table_id, start))]

    def table_of_link(self, token: str) -> str | None:
        """The table a seat or host link belongs to (a table another process created moments ago)."""
        with self.lock:
            found = self._read("SELECT table_id FROM seats WHERE token = ? UNION ALL"
                               " SELECT id FROM tables WHERE host_token = ? LIMIT 1", (token, token))
        return str(found[0][0]) if found else None

    def deal_of(self, table_id: str) -> str | None:
        """The named deal a table was made for (``tables.deal``: a game's daily deal or challenge), or None."""
        with self.lock:
            found = self._read("SELECT deal FROM tables WHERE id = ?", (table_id,))
        return found[0][0] if found else None

    def add_salt(self, table_id: str, old: str, new: str, moves: int) -> bool:
        """Store a table's salts ``new`` if they still are ``old`` and the table still has ``moves`` moves
        (compare-and-set: a salt counts from the next move, so no chance event may be drawn meanwhile)."""
        (changed,) = self._write([("UPDATE tables SET dice_salts = ? WHERE id = ? AND coalesce(dice_salts, '[]') = ?"
                                   " AND moves = ?", (new, table_id, old, moves))])
        return changed == 1

    # What a game's own tables (its ``WebView.migrations``) are reached by: SQL with ``?`` placeholders that
    # both databases run, the store's lock and dialect taken care of.

    def read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of one query."""
        with self.lock:
            return self._read(sql, args)

    def write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Several statements in one transaction; each one's count of rows changed."""
        return self._write(statements)

    @abstractmethod
    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]:
        """Several statements in one transaction (``seats_of``: tables whose seats other processes must re-read)."""

    @abstractmethod
    def close(self) -> None: ...

    def schema_version(self) -> int:
        return SCHEMA_VERSION

    def listen(self, callback: Callable[[str | None], None]) -> None:
        """Report other processes' changes (``"m <table> <moves>"``, ``"n"``ew, ``"s"``eats, ``"x"`` status;
        None: some may have been missed). One process alone on its database has nothing to report."""
        return None

    def bot_lease(self, table_id: str) -> bool:
        """Whether this process may play the table's bots (alone on the database: always)."""
        return True

    def holds(self, table_id: str) -> bool:
        return True

    def leases(self) -> list[str]:
        """The tables whose bots this process holds the lease of (only tracked when ``shared``)."""
        return []

    def bot_release(self, table_id: str) -> None:
        """Let another process play the table's bots."""
        return None


def redact(url: str) -> str:
    """A database address without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)
