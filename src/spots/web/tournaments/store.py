"""The tournaments' half of the store (mixed into ``TableStore``): events, entrants and games, from
``store/migrations/0020_tournaments.sql``. Every change that moves an event on (start it, open a round, end it) is
a compare-and-set on its status and round, so two server processes never open one round twice."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

ACTIVE = ("open", "playing")
WAITING = "waiting:"  # a game's table id until its table is made


@dataclass(frozen=True)
class TournamentRow:
    id: str
    name: str
    game: str
    owner: str
    settings: dict[str, Any]
    starts: float
    status: str  # open (taking sign-ups), playing, over, cancelled
    round: int
    created: float
    ended: float | None
    secret: str = ""
    club: str | None = None  # a club's event: made by its admins, for its members

    @classmethod
    def of(cls, r: Sequence[Any]) -> TournamentRow:
        return cls(r[0], r[1], r[2], r[3], json.loads(r[4]), float(r[5]), r[6], int(r[7]), float(r[8]),
                   None if r[9] is None else float(r[9]), r[10], r[11])


@dataclass(frozen=True)
class EntrantRow:
    entrant: str
    name: str
    account: str | None
    bot: str | None
    joined: float
    withdrawn: bool


@dataclass(frozen=True)
class TournamentGame:
    table_id: str
    round: int
    players: tuple[str, ...]
    places: tuple[int, ...] | None
    created: float
    finished: float | None
    scores: tuple[float, ...] | None = None  # every seat's score (the entrants', then the filled seats')
    luck: tuple[float, ...] | None = None  # the coach's luck of each entrant, when the event asks for it


COLUMNS = "id, name, game, owner, settings, starts, status, round, created, ended, secret, club"


class TournamentStore:
    lock: threading.Lock

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], seats_of: Sequence[str] = ()) -> list[int]:
        raise NotImplementedError

    def create_tournament(self, row: TournamentRow) -> None:
        self._write([(f"INSERT INTO tournaments ({COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                      (row.id, row.name, row.game, row.owner, json.dumps(row.settings), row.starts, row.status,
                       row.round, row.created, row.ended, row.secret, row.club))])

    def tournament(self, tournament_id: str) -> TournamentRow | None:
        with self.lock:
            rows = self._read(f"SELECT {COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
        return TournamentRow.of(rows[0]) if rows else None

    def tournaments(self, statuses: Sequence[str], limit: int = 50) -> list[TournamentRow]:
        """Events of these statuses: the coming ones soonest first, the others newest first."""
        marks = ",".join("?" * len(statuses))
        with self.lock:
            rows = self._read(f"SELECT {COLUMNS} FROM tournaments WHERE status IN ({marks})"
                              " ORDER BY starts DESC LIMIT ?", (*statuses, limit))
        return [TournamentRow.of(r) for r in rows]

    def club_tournaments(self, club: str, limit: int = 100) -> list[TournamentRow]:
        """A club's events, newest start first."""
        with self.lock:
            rows = self._read(f"SELECT {COLUMNS} FROM tournaments WHERE club = ? ORDER BY starts DESC LIMIT ?",
                              (club, limit))
        return [TournamentRow.of(r) for r in rows]

    def move_tournament(self, tournament_id: str, status: str, round_: int, new_status: str, new_round: int,
                        now: float | None = None) -> bool:
        """Move an event on from (status, round) to the new ones; False when it is no longer where it was."""
        ended = (time.time() if now is None else now) if new_status in ("over", "cancelled") else None
        return self._write([("UPDATE tournaments SET status = ?, round = ?, ended = ? WHERE id = ? AND status = ?"
                             " AND round = ?", (new_status, new_round, ended, tournament_id, status, round_))])[0] > 0

    def entrants(self, tournament_id: str) -> list[EntrantRow]:
        """An event's entrants in sign-up order."""
        with self.lock:
            rows = self._read("SELECT entrant, name, account, bot, joined, withdrawn FROM tournament_entrants"
                              " WHERE tournament = ? ORDER BY joined, entrant", (tournament_id,))
        return [EntrantRow(r[0], r[1], r[2], r[3], float(r[4]), bool(r[5])) for r in rows]

    def enter(self, tournament_id: str, entrant: str, name: str, account: str | None, bot: str | None,
              now: float | None = None) -> bool:
        """Sign an entrant up; False when the event no longer takes sign-ups (or it is signed up already)."""
        now = time.time() if now is None else now
        return self._write([
            ("INSERT INTO tournament_entrants (tournament, entrant, name, account, bot, joined, withdrawn)"
             " SELECT ?, ?, ?, ?, ?, ?, 0 WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')"
             " AND NOT EXISTS (SELECT 1 FROM tournament_entrants WHERE tournament = ? AND entrant = ?)",
             (tournament_id, entrant, name, account, bot, now, tournament_id, tournament_id, entrant))])[0] > 0

    def join_late(self, tournament_id: str, entrant: str, name: str, account: str | None, now: float) -> bool:
        """An arena takes players while it is played: sign up, or come back after withdrawing."""
        counts = self._write([
            ("UPDATE tournament_entrants SET withdrawn = 0 WHERE tournament = ? AND entrant = ?",
             (tournament_id, entrant)),
            ("INSERT INTO tournament_entrants (tournament, entrant, name, account, bot, joined, withdrawn)"
             " SELECT ?, ?, ?, ?, NULL, ?, 0 WHERE NOT EXISTS (SELECT 1 FROM tournament_entrants"
             " WHERE tournament = ? AND entrant = ?)", (tournament_id, entrant, name, account, now, tournament_id,
                                                        entrant))])
        return sum(counts) > 0

    def withdraw(self, tournament_id: str, entrant: str) -> bool:
        """Take an entrant out: before the start, off the list; after, not paired again (results kept)."""
        counts = self._write([
            ("DELETE FROM tournament_entrants WHERE tournament = ? AND entrant = ? AND EXISTS (SELECT 1 FROM"
             " tournaments WHERE id = ? AND status = 'open')", (tournament_id, entrant, tournament_id)),
            ("UPDATE tournament_entrants SET withdrawn = 1 WHERE tournament = ? AND entrant = ?",
             (tournament_id, entrant))])
        return sum(counts) > 0

    def tournament_games(self, tournament_id: str) -> list[TournamentGame]:
        with self.lock:
            rows = self._read("SELECT table_id, round, players, places, created, finished, scores, luck"
                              " FROM tournament_games WHERE tournament = ? ORDER BY round, created, table_id",
                              (tournament_id,))
        return [TournamentGame(r[0], int(r[1]), tuple(json.loads(r[2])), _numbers(r[3]), float(r[4]),
                               None if r[5] is None else float(r[5]), _numbers(r[6]), _numbers(r[7]))
                for r in rows]

    def move_with_games(self, tournament_id: str, status: str, round_: int, new_status: str, new_round: int,
                        games: Sequence[tuple[str, int, Sequence[str], Sequence[int] | None]], now: float) -> bool:
        """Move an event on and write the games it opens (table id, round, players, places: a bye's are known) in
        one transaction; False, writing nothing, when the event was no longer at (status, round).

        A game's table id is a placeholder (``WAITING``...) until its table is made (``table_made``): so a process
        that stops between the two leaves the round's pairing stored, and the next pass makes the tables left."""
        ended = now if new_status in ("over", "cancelled") else None
        moved = ("UPDATE tournaments SET status = ?, round = ?, ended = ? WHERE id = ? AND status = ? AND round = ?",
                 (new_status, new_round, ended, tournament_id, status, round_))
        inserts = [("INSERT INTO tournament_games (table_id, tournament, round, players, places, created, finished)"
                    " SELECT ?,?,?,?,?,?,? WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = ?"
                    " AND round = ?)",
                    (table_id, tournament_id, number, json.dumps(list(players)),
                     None if places is None else json.dumps(list(places)), now, None if places is None else now,
                     tournament_id, new_status, new_round))
                   for table_id, number, players, places in games]
        return self._write([moved, *inserts])[0] > 0

    def table_made(self, placeholder: str, table_id: str) -> bool:
        return self._write([("UPDATE tournament_games SET table_id = ? WHERE table_id = ?",
                             (table_id, placeholder))])[0] > 0

    def finish_tournament_game(self, table_id: str, places: Sequence[int], now: float,
                               scores: Sequence[float] | None = None) -> bool:
        return self._write([("UPDATE tournament_games SET places = ?, finished = ?, scores = ? WHERE table_id = ?"
                             " AND places IS NULL", (json.dumps(list(places)), now,
                                                     None if scores is None else json.dumps(list(scores)),
                                                     table_id))])[0] > 0

    def measure_luck(self, table_id: str, luck: Sequence[float]) -> bool:
        """Store the coach's luck of a finished game's entrants (once)."""
        return self._write([("UPDATE tournament_games SET luck = ? WHERE table_id = ? AND luck IS NULL"
                             " AND places IS NOT NULL", (json.dumps(list(luck)), table_id))])[0] > 0

    def unfinished_games(self) -> list[tuple[str, str, int]]:
        """The games of events being played that have no places yet: (table, its status, its players)."""
        with self.lock:
            rows = self._read("SELECT g.table_id, t.status, g.players FROM tournament_games g"
                              " JOIN tables t ON t.id = g.table_id JOIN tournaments e ON e.id = g.tournament"
                              " WHERE g.places IS NULL AND e.status = 'playing'")
        return [(r[0], r[1], len(json.loads(r[2]))) for r in rows]

    def tournament_of_table(self, table_id: str) -> str | None:
        with self.lock:
            rows = self._read("SELECT tournament FROM tournament_games WHERE table_id = ?", (table_id,))
        return rows[0][0] if rows else None


def _numbers(text: str | None) -> tuple[Any, ...] | None:
    return None if text is None else tuple(json.loads(text))
