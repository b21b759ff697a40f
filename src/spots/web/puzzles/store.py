"""The puzzles' half of the store (mixed into ``TableStore``): puzzle and solver ratings, and who tried what.

A signed-in solver's first try of a puzzle is one Glicko-2 game between them (``spots.puzzles.progress.rate``):
both ratings move in one transaction, so two processes never lose each other's update. A puzzle tried again moves
nothing (its answer is known by then). The tables come from ``store/migrations/0017_puzzles.sql``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ...puzzles.progress import SOLVER, Rated, rate

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

    def rate_try(self, account: str, game: str, puzzle: str, start: Rated, solved: bool
                 ) -> tuple[Rated, Rated, Rated, bool]:
        """A signed-in solver's try: (their rating before, after, the puzzle's after, whether it counted). A puzzle
        the solver has tried before counts for nothing."""

        def work(run: Run) -> tuple[Rated, Rated, Rated, bool]:
            lock = self.for_update
            row = run(f"SELECT rating, rd, vol FROM puzzle_solvers WHERE account = ? AND game = ?{lock}",
                      (account, game))
            before = Rated(*map(float, row[0])) if row else Rated(*SOLVER)
            found = run(f"SELECT rating, rd, vol FROM puzzle_ratings WHERE puzzle = ?{lock}", (puzzle,))
            theirs = Rated(*map(float, found[0])) if found else start
            if run("SELECT 1 FROM puzzle_tries WHERE account = ? AND puzzle = ?", (account, puzzle)):
                return before, before, theirs, False
            after, moved = rate(before, theirs, solved)
            won = int(solved)
            run("INSERT INTO puzzle_tries (account, puzzle, solved, at) VALUES (?, ?, ?, ?) RETURNING puzzle",
                (account, puzzle, won, time.time()))
            run("INSERT INTO puzzle_solvers (account, game, rating, rd, vol, tries, solved)"
                " VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (account, game) DO UPDATE SET rating = excluded.rating,"
                " rd = excluded.rd, vol = excluded.vol, tries = puzzle_solvers.tries + 1,"
                " solved = puzzle_solvers.solved + excluded.solved RETURNING account", (account, game, *after, won))
            run("INSERT INTO puzzle_ratings (puzzle, game, rating, rd, vol, tries, solved)"
                " VALUES (?, ?, ?, ?, ?, 1, ?) ON CONFLICT (puzzle) DO UPDATE SET rating = excluded.rating,"
                " rd = excluded.rd, vol = excluded.vol, tries = puzzle_ratings.tries + 1,"
                " solved = puzzle_ratings.solved + excluded.solved RETURNING puzzle", (puzzle, game, *moved, won))
            return before, after, moved, True

        return self._transact(work)

    def tried_puzzles(self, account: str) -> set[str]:
        """The puzzles a solver has tried (the next ones are new to them)."""
        return {r[0] for r in self._query("SELECT puzzle FROM puzzle_tries WHERE account = ?", (account,))}
