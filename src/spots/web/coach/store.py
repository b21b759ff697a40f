"""The coach's half of the store (mixed into ``TableStore``): its reports, one per record and budget.

Why in the database: a report is computed once, by whichever server process claims its row first, and read
by every process (coach.py). A row whose process stopped saying how far it got for ``STALE`` seconds may be
taken over. The table comes from ``store/migrations/0006_analysis.sql``. The calls run on the writer thread.
"""

from __future__ import annotations

import threading
import time
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

STALE = 120.0  # seconds without news from the process computing a report before another may take it over

Key = tuple[str, str]  # (record digest, budget)


class AnalysisStore:
    lock: threading.Lock
    shared: bool

    @abstractmethod
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

    def claim_analysis(self, key: Key, table_id: str, total: int) -> bool:
        """Take the report's row to compute it: a new row, or one left stale. True when this process has it."""
        now = time.time()
        with self.lock:
            if self._read("INSERT INTO analyses (record, budget, table_id, status, done, total, claimed)"
                          " VALUES (?, ?, ?, 'computing', 0, ?, ?) ON CONFLICT (record, budget) DO NOTHING"
                          " RETURNING record", (*key, table_id, total, now)):
                return True
            stale = now - STALE if self.shared else now + 1  # alone on the file: nobody else computes it
            return bool(self._read("UPDATE analyses SET status = 'computing', done = 0, claimed = ? WHERE record = ?"
                                   " AND budget = ? AND status <> 'ready' AND claimed < ? RETURNING record",
                                   (now, *key, stale)))

    def analysis(self, key: Key) -> tuple[str, int, int, str | None, float] | None:
        """A report's row: status, steps done, steps in all, the report (once ready), when last heard of."""
        with self.lock:
            found = self._read("SELECT status, done, total, report, claimed FROM analyses WHERE record = ? AND"
                               " budget = ?", key)
        return (str(found[0][0]), int(found[0][1]), int(found[0][2]), found[0][3], float(found[0][4])) if found \
            else None

    def analysis_progress(self, key: Key, done: int) -> None:
        with self.lock:
            self._read("UPDATE analyses SET done = ?, claimed = ? WHERE record = ? AND budget = ? AND"
                       " status = 'computing' RETURNING record", (done, time.time(), *key))

    def settle_analysis(self, key: Key, status: str, text: str) -> None:
        with self.lock:
            self._read("UPDATE analyses SET status = ?, report = ?, done = total, claimed = ? WHERE record = ? AND"
                       " budget = ? RETURNING record", (status, text, time.time(), *key))
