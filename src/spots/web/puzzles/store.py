"""The puzzles' half of the store (mixed into ``TableStore``): puzzle and solver ratings, and who tried what.

A signed-in solver's first try of a puzzle is one Glicko-2 game between them (``spots.puzzles.progress.rate``):
both ratings move in one transaction, so two processes never lose each other's update. A puzzle tried again moves
nothing (its answer is known by then), nor does one first met in a streak or a timed run (unrated, but tried: its
answer is known). The drill deck holds each player's own mistakes that make puzzles, scheduled by FSRS
(``Progress``'s scheduler). The tables come from ``store/migrations/0017_puzzles.sql`` and ``0018``.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from ...puzzles.judge import Puzzle
from ...puzzles.progress import SOLVER, Rated, new_card, rate, review

T = TypeVar("T")
Run = Callable[[str, Sequence[Any]], list[Any]]


class PuzzleStore:
    lock: threading.Lock
    for_update: str

    def _transact(self, work: Callable[[Run], T], note: tuple[str, str, str] | None = None) -> T:
        raise NotImplementedError

    def _query(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    def solver_rating(self, account: str, game: str) -> tuple[Rated, int, int]:
        """A solver's rating in a game, with their tries and puzzles solved (a new solver: Glicko-2's start)."""
        rows = self._query("SELECT rating, rd, vol, tries, solved FROM puzzle_solvers WHERE account = ? AND game = ?",
                           (account, game))
        return (Rated(*map(float, rows[0][:3])), int(rows[0][3]), int(rows[0][4])) if rows else (Rated(*SOLVER), 0, 0)

    def puzzle_rating(self, puzzle: str, start: Rated) -> Rated:
        """A puzzle's rating as solvers' tries moved it (``start``: its rating from its margin, before any try)."""
        rows = self._query("SELECT rating, rd, vol FROM puzzle_ratings WHERE puzzle = ?", (puzzle,))
        return Rated(*map(float, rows[0])) if rows else start

    def rate_try(self, account: str, game: str, puzzle: str, start: Rated, solved: bool, rated: bool = True
                 ) -> tuple[Rated, Rated, Rated, bool]:
        """A signed-in solver's try: (their rating before, after, the puzzle's after, whether it counted). A puzzle
        the solver has tried before counts for nothing; an unrated try (a streak's, a run's) is only noted."""

        if not rated:  # noted as tried (its answer is known from now on), nothing moves
            self._transact(lambda run: run("INSERT INTO puzzle_tries (account, puzzle, solved, at) VALUES (?, ?, ?, ?)"
                                           " ON CONFLICT (account, puzzle) DO NOTHING RETURNING puzzle",
                                           (account, puzzle, int(solved), time.time())))
            mine = self.solver_rating(account, game)[0]
            return mine, mine, self.puzzle_rating(puzzle, start), False

        def work(run: Run) -> tuple[Rated, Rated, Rated, bool]:
            now = time.time()
            # Both rows exist before they are locked: two processes rating a puzzle's first tries at once then wait
            # for each other, and neither update is lost (a lock on a row not there yet would lock nothing).
            run("INSERT INTO puzzle_solvers (account, game, rating, rd, vol, tries, solved) VALUES (?, ?, ?, ?, ?, 0,"
                " 0) ON CONFLICT (account, game) DO NOTHING RETURNING account", (account, game, *SOLVER))
            run("INSERT INTO puzzle_ratings (puzzle, game, rating, rd, vol, tries, solved) VALUES (?, ?, ?, ?, ?, 0,"
                " 0) ON CONFLICT (puzzle) DO NOTHING RETURNING puzzle", (puzzle, game, *start))
            lock = self.for_update
            before = Rated(*map(float, run(f"SELECT rating, rd, vol FROM puzzle_solvers WHERE account = ? AND"
                                           f" game = ?{lock}", (account, game))[0]))
            theirs = Rated(*map(float, run(f"SELECT rating, rd, vol FROM puzzle_ratings WHERE puzzle = ?{lock}",
                                           (puzzle,))[0]))
            if not run("INSERT INTO puzzle_tries (account, puzzle, solved, at) VALUES (?, ?, ?, ?) ON CONFLICT"
                       " (account, puzzle) DO NOTHING RETURNING puzzle", (account, puzzle, int(solved), now)):
                return before, before, theirs, False  # tried before: its answer was known
            after, moved = rate(before, theirs, solved)
            won = int(solved)
            run("UPDATE puzzle_solvers SET rating = ?, rd = ?, vol = ?, tries = tries + 1, solved = solved + ?"
                " WHERE account = ? AND game = ? RETURNING account", (*after, won, account, game))
            run("UPDATE puzzle_ratings SET rating = ?, rd = ?, vol = ?, tries = tries + 1, solved = solved + ?"
                " WHERE puzzle = ? RETURNING puzzle", (*moved, won, puzzle))
            return before, after, moved, True

        return self._transact(work)

    def tried_puzzles(self, account: str) -> set[str]:
        """The puzzles a solver has tried (the next ones are new to them)."""
        return {r[0] for r in self._query("SELECT puzzle FROM puzzle_tries WHERE account = ?", (account,))}

    # ---------------------------------------------------------------- streaks and timed runs

    def best_of(self, account: str, game: str) -> dict[str, int]:
        """A solver's best streak and best timed run in a game (0 where none yet)."""
        rows = self._query("SELECT mode, best FROM puzzle_bests WHERE account = ? AND game = ?", (account, game))
        return {"streak": 0, "timed": 0} | {str(r[0]): int(r[1]) for r in rows}

    def set_best(self, account: str, game: str, mode: str, score: int) -> int:
        """A streak or run ended at ``score``: kept where it beats the solver's best; returns the best."""

        def work(run: Run) -> int:
            found = run(f"SELECT best FROM puzzle_bests WHERE account = ? AND game = ? AND mode = ?{self.for_update}",
                        (account, game, mode))
            if found and int(found[0][0]) >= score:
                return int(found[0][0])
            run("INSERT INTO puzzle_bests (account, game, mode, best, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT"
                " (account, game, mode) DO UPDATE SET best = excluded.best, at = excluded.at RETURNING best",
                (account, game, mode, score, time.time()))
            return score

        return self._transact(work)

    # ---------------------------------------------------------------- the drill deck

    def add_drills(self, account: str, table_id: str, puzzles: Sequence[Puzzle]) -> int:
        """A player's own mistakes from one game join their deck, due at once (one already there keeps its
        schedule); returns how many are new."""
        now = time.time()

        def work(run: Run) -> int:
            added = 0
            for p in puzzles:
                card = new_card(p, datetime.fromtimestamp(now, UTC))
                added += len(run("INSERT INTO drill_cards (account, game, puzzle, line, card, due, table_id, added)"
                                 " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account, puzzle) DO NOTHING"
                                 " RETURNING puzzle", (account, p.game, p.id, p.to_line(), json.dumps(card), now,
                                                       table_id, now)))
            return added

        return self._transact(work)

    def drills_due(self, account: str, game: str | None = None) -> dict[str, int]:
        """How many of a player's drills are due now, per game (a game with none due is left out)."""
        sql = "SELECT game, COUNT(*) FROM drill_cards WHERE account = ? AND due <= ?"
        args: list[Any] = [account, time.time()]
        if game is not None:
            sql, args = sql + " AND game = ?", [*args, game]
        return {str(r[0]): int(r[1]) for r in self._query(sql + " GROUP BY game", args)}

    def next_drill(self, account: str, game: str) -> tuple[Puzzle | None, float | None, int, int]:
        """The longest-overdue drill (None where none is due), when the next one falls due, the deck's size and how
        many are due now."""
        now = time.time()
        due = self._query("SELECT line FROM drill_cards WHERE account = ? AND game = ? AND due <= ? ORDER BY due,"
                          " puzzle LIMIT 1", (account, game, now))
        deck = self._query("SELECT MIN(due), COUNT(*), SUM(CASE WHEN due <= ? THEN 1 ELSE 0 END) FROM drill_cards"
                           " WHERE account = ? AND game = ?", (now, account, game))
        soonest, size, waiting = deck[0] if deck else (None, 0, 0)
        return ((Puzzle.from_line(due[0][0]) if due else None), None if soonest is None else float(soonest),
                int(size or 0), int(waiting or 0))

    def drill(self, account: str, game: str, puzzle: str) -> Puzzle | None:
        rows = self._query("SELECT line FROM drill_cards WHERE account = ? AND game = ? AND puzzle = ?",
                           (account, game, puzzle))
        return Puzzle.from_line(rows[0][0]) if rows else None

    def review_drill(self, account: str, game: str, puzzle: str, solved: bool) -> float | None:
        """A drill answered: FSRS schedules it again (sooner when missed); returns when it is next due (None: not in
        the deck). Two answers at once are one review each, in turn (the row is locked)."""

        def work(run: Run) -> float | None:
            found = run(f"SELECT card FROM drill_cards WHERE account = ? AND game = ? AND puzzle = ?"
                        f"{self.for_update}", (account, game, puzzle))
            if not found:
                return None
            card = review(json.loads(found[0][0]), solved, datetime.now(UTC))
            due = datetime.fromisoformat(card["due"]).timestamp()
            run("UPDATE drill_cards SET card = ?, due = ? WHERE account = ? AND puzzle = ? RETURNING puzzle",
                (json.dumps(card), due, account, puzzle))
            return due

        return self._transact(work)
