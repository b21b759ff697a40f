"""What table talk, rematches and ratings keep in the database, written once for both stores.

Why one place: the SQL is the same in SQLite and PostgreSQL, so the queries live
here and each store only says how it runs a transaction (``_transact``: SQLite's
``BEGIN IMMEDIATE``, PostgreSQL's transaction with a ``NOTIFY`` for the other
processes). The tables come from ``store/migrations/0007_talk.sql``.

Chat lines go through a database connection of their own (``_chat_write``,
``_chat_query``) on a writer thread of their own (``chatlog.py``): measured at
150 tables, a move otherwise waited behind the chat lines queued before it on the
one writer thread.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")
Run = Callable[[str, Sequence[Any]], list[Any]]  # one statement with ``?`` placeholders -> its rows


@dataclass(frozen=True)
class Rating:
    """One player's rating in one game: OpenSkill's mean and uncertainty, and the rated games behind it."""

    player: str
    mu: float
    sigma: float
    games: int = 0
    name: str = ""  # a person's account name (the key holds the account's id, which never changes)


@dataclass(frozen=True)
class Change:
    """One rated table's effect on one player (a row of its history)."""

    table_id: str
    player: str
    game: str
    at: float
    place: int
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    ending: str = "finished"  # how the game ended for the player: finished, resigned, time (ran out) or left


class TalkStore:
    """The chat, mutes, rematches and ratings queries (mixed into ``TableStore``)."""

    for_update = ""  # how a read locks the rows it will change (PostgreSQL: FOR UPDATE)

    lock: threading.Lock

    def _transact(self, work: Callable[[Run], T], note: tuple[str, str, str] | None = None) -> T:
        """Run ``work`` in one write transaction; ``note`` (kind, table, extra) is announced when it commits."""
        raise NotImplementedError

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read (no transaction needed)."""
        with self.lock:
            return self._read(sql, args)

    # -------------------------------------------------------------- chat

    CHAT_BATCH = 50  # lines stored by one statement at most (10 values each: far under SQLite's 999)

    def _chat_write(self, sql: str, args: Sequence[Any], notes: Sequence[tuple[str, str, str]]) -> None:
        """Run one statement of table talk as a transaction of its own, on the store's chat connection (so
        that talk never waits for moves nor moves for talk), and announce ``notes`` when it commits."""
        raise NotImplementedError

    def _chat_query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read of table talk, on the chat connection."""
        raise NotImplementedError

    def add_chat(self, table_id: str, line: dict[str, Any]) -> dict[str, Any]:
        """Store one chat line (its id and time are given here) and announce it; the line as stored."""
        return self.add_chats([(table_id, line)])[0]

    def add_chats(self, lines: Sequence[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
        """Store chat lines of any tables at once (each given its id and time here, in their order) and announce
        each; the lines as stored. One statement per ``CHAT_BATCH`` lines, each stored whole or not at all."""
        now = time.time()
        stored = [(table_id, {**line, "id": secrets.token_hex(6), "at": now + i * 1e-6})
                  for i, (table_id, line) in enumerate(lines)]
        for start in range(0, len(stored), self.CHAT_BATCH):
            batch = stored[start:start + self.CHAT_BATCH]
            values = ",".join(["(?,?,?,?,?,?,?,?,?,?)"] * len(batch))
            args = [value for table_id, s in batch for value in (
                table_id, s["id"], s["at"], s["moves"], s["channel"], s["seat"], s["author"], s["name"], s["phrase"],
                s["text"])]
            self._chat_write("INSERT INTO chat (table_id, id, at, moves, channel, seat, author, name, phrase, text)"
                             f" VALUES {values}", args, [("c", table_id, json.dumps(s)) for table_id, s in batch])
        return [s for _, s in stored]

    def chat_of(self, table_id: str) -> list[dict[str, Any]]:
        """Every chat line of a table, oldest first."""
        rows = self._chat_query(
            "SELECT id, at, moves, channel, seat, author, name, phrase, text FROM chat WHERE table_id = ?"
            " ORDER BY at, id", (table_id,))
        keys = ("id", "at", "moves", "channel", "seat", "author", "name", "phrase", "text")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def mutes_of(self, table_id: str) -> set[str]:
        return {r[0] for r in self._chat_query(
            "SELECT author FROM chat_mutes WHERE table_id = ?", (table_id,))}

    def set_mute(self, table_id: str, author: str, muted: bool) -> None:
        def work(run: Run) -> None:
            if muted:
                run("INSERT INTO chat_mutes (table_id, author) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (table_id, author))
            else:
                run("DELETE FROM chat_mutes WHERE table_id = ? AND author = ?", (table_id, author))

        self._transact(work, ("k", table_id, ""))

    # -------------------------------------------------------------- rematch

    def accept_rematch(self, table_id: str, seat: int, humans: Sequence[int]) -> tuple[list[int], bool]:
        """Record that ``seat`` wants a rematch; the seats that do, and whether this call completed the set.

        Only one call can complete it (the row is locked while it is read and changed), so only one
        process creates the new table.
        """
        def work(run: Run) -> tuple[list[int], bool]:
            run("INSERT INTO rematches (table_id, accepted) VALUES (?, '[]') ON CONFLICT DO NOTHING", (table_id,))
            ((text, following),) = run(
                f"SELECT accepted, next_table FROM rematches WHERE table_id = ?{self.for_update}", (table_id,))
            accepted = sorted(set(json.loads(text)) | {seat})
            was_complete = set(humans) <= set(json.loads(text))
            run("UPDATE rematches SET accepted = ? WHERE table_id = ?", (json.dumps(accepted), table_id))
            return accepted, following is None and not was_complete and set(humans) <= set(accepted)

        return self._transact(work, ("r", table_id, ""))

    def withdraw_rematch(self, table_id: str, seat: int) -> None:
        """Take a seat's yes back (the new table could not be made: it may ask again)."""
        def work(run: Run) -> None:
            found = run(f"SELECT accepted FROM rematches WHERE table_id = ?{self.for_update}", (table_id,))
            if found:
                left = [s for s in json.loads(found[0][0]) if s != seat]
                run("UPDATE rematches SET accepted = ? WHERE table_id = ?", (json.dumps(left), table_id))

        self._transact(work, ("r", table_id, ""))

    def link_rematch(self, table_id: str, next_table: str) -> None:
        """The old table points at its rematch, in its rematch row and in its lobby row."""
        def work(run: Run) -> None:
            run("UPDATE rematches SET next_table = ? WHERE table_id = ?", (next_table, table_id))
            found = run("SELECT summary FROM tables WHERE id = ?", (table_id,))
            if found and found[0][0]:
                summary = {**json.loads(found[0][0]), "next": next_table}
                run("UPDATE tables SET summary = ? WHERE id = ?", (json.dumps(summary), table_id))

        self._transact(work, ("r", table_id, ""))

    def rematch_of(self, table_id: str) -> tuple[list[int], str | None]:
        """The seats that want a rematch, and the new table once there is one."""
        found = self._query(
            "SELECT accepted, next_table FROM rematches WHERE table_id = ?", (table_id,))
        return (json.loads(found[0][0]), found[0][1]) if found else ([], None)

    # -------------------------------------------------------------- ratings

    def ratings_of(self, game: str, players: Sequence[str]) -> dict[str, Rating]:
        """The stored ratings of some players in one game (a player without one is missing)."""
        if not players:
            return {}
        marks = ",".join("?" * len(players))
        rows = self._query(
            f"SELECT player, mu, sigma, games FROM ratings WHERE game = ? AND player IN ({marks})",
            (game, *players))
        return {r[0]: Rating(r[0], float(r[1]), float(r[2]), int(r[3])) for r in rows}

    def record_ratings(self, table_id: str, changes: Sequence[Change], anchored: set[str]) -> bool:
        """Store one table's rating changes and the new ratings (not of ``anchored`` players, whose
        rating is fixed); False, changing nothing, when this table was already rated."""
        def work(run: Run) -> bool:
            if run("SELECT 1 FROM rating_changes WHERE table_id = ? LIMIT 1", (table_id,)):
                return False
            for c in changes:
                run("INSERT INTO rating_changes (table_id, player, game, at, place, mu_before, sigma_before, mu,"
                    " sigma, ending) VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (table_id, c.player, c.game, c.at, c.place, c.mu_before, c.sigma_before, c.mu, c.sigma, c.ending))
                if c.player in anchored:
                    continue
                run("INSERT INTO ratings (game, player, mu, sigma, games, updated) VALUES (?,?,?,?,1,?)"
                    " ON CONFLICT (game, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                    " games = ratings.games + 1, updated = excluded.updated",
                    (c.game, c.player, c.mu, c.sigma, c.at))
            return True

        return self._transact(work, ("g", table_id, ""))

    def rating_changes(self, where: str, args: Sequence[Any]) -> list[Change]:
        """Rating changes matching ``where`` (on ``rating_changes``), oldest first."""
        rows = self._query(
            "SELECT table_id, player, game, at, place, mu_before, sigma_before, mu, sigma, ending FROM rating_changes"
            f" WHERE {where} ORDER BY at, player", args)
        return [Change(r[0], r[1], r[2], float(r[3]), int(r[4]), float(r[5]), float(r[6]), float(r[7]),
                       float(r[8]), str(r[9])) for r in rows]

    def endings(self, player: str, last: int) -> list[str]:
        """How a player's latest ``last`` rated games ended for them, newest first (the reliability figure)."""
        return [str(r[0]) for r in self._query("SELECT ending FROM rating_changes WHERE player = ? ORDER BY at DESC"
                                               " LIMIT ?", (player, last))]

    def leaderboard(self, game: str, min_games: int, limit: int) -> list[Rating]:
        """The people of one game with at least ``min_games`` rated games, best (mu - 2 sigma) first (a
        disabled account is left out)."""
        rows = self._query(
            "SELECT r.player, r.mu, r.sigma, r.games, a.name FROM ratings r JOIN accounts a"
            " ON r.player = 'user:' || a.id WHERE r.game = ? AND r.games >= ? AND a.disabled = 0"
            " ORDER BY r.mu - 2 * r.sigma DESC, r.player LIMIT ?", (game, min_games, limit))
        return [Rating(r[0], float(r[1]), float(r[2]), int(r[3]), r[4]) for r in rows]
