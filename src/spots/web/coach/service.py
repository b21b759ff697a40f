"""The coach on the web: "How did it go?" for a finished table, computed once, away from the server, kept in the store.

Why this shape:

- The analysis (``spots.analysis``) is seconds of pure Python, so it runs in a worker process of its own (at
  the workers' lower priority, ``workers.start_worker``), never in the server and never in the pool the bots
  use: a table waiting for a bot's move must not wait for somebody's report.
- One report per record and budget (``analyses`` in the store: ``analysis_store.py``; keyed by a digest of the
  game, rules and moves, and by the evaluator's budget in words), computed once even when several server
  processes share a PostgreSQL database: the first to insert the row computes it; the others read its progress
  from the row and the report when it is there. A row whose process stopped saying how far it got for
  ``STALE`` seconds (or, alone on a SQLite file, any row no task of this process computes) is taken over.
- A game with a person at it is analysed while it is played (a step's numbers depend only on its position and
  its move), so when it ends only its last moves are left and the report is ready while the players look at
  the end screen; a replay of an older game, or of a bots' game, starts it on the first request.
- The report is stored without words (message ids, move notation, numbers); each answer is put in the asker's
  language, with the table's names as they are now.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ... import i18n
from ...analysis import Analyser, Report, evaluator_of
from ...analysis.words import LEFT, band, percent
from ..context import request_lang
from ..guard import Refused
from ..store import TableStore
from ..tables.workers import Stopped, start_worker, stop_searches, stoppable
from ..writer import Writer
from .store import STALE

__all__ = ["Coach", "compute", "in_words", "report_document", "routes"]

if TYPE_CHECKING:
    from ..context import Context
    from ..tables.rooms import Room

log = logging.getLogger("spots.web")
T = TypeVar("T")
REPORT_VERSION = 4  # part of the budget key: a change to the stored document computes the reports again
AT_ONCE = 8  # reports this process computes or queues at once; more are refused with "try again"
HEARD_EVERY = 1.0  # seconds between progress notes in the shared store
KEPT = 64  # finished reports kept in memory (more are read back from the store)

LIVE = 2  # games a worker analyses while they are played (their analysers are kept between moves)
LIVE_WAIT = 2.0  # seconds an analysis while played may hold the worker (then it goes on only on the idle thread)
_SINK: Any = None  # in a worker process: the queue its progress goes to
_LIVE: OrderedDict[str, Analyser] = OrderedDict()  # in a worker: by table, the games analysed so far
_LIVE_LOCK = threading.Lock()  # (the idle thread keeps analysers in _LIVE; the worker's own thread takes them)
_IDLE_JOB: Future[Any] | None = None  # in a worker: the analysis on the idle thread (on_idle_thread)


# ------------------------------------------------------------------ in the worker


def start_coach_worker(server: int, sink: Any) -> None:
    """A coach worker's set-up: the workers' lower priority and watch on the server, and where progress goes."""
    global _SINK
    start_worker(server)
    _SINK = sink


def on_idle_thread(work: Callable[..., T], *args: Any) -> tuple[bool, T | None]:
    """``work(*args)`` on this worker's idle thread, waited for at most ``LIVE_WAIT`` seconds: (whether it finished
    in time, its result). The thread gets the CPU only when nothing else wants it (Linux's SCHED_IDLE; elsewhere
    it runs at the workers' nice); work not finished in time goes on there while the worker takes its next job.

    Why: the coach analyses every game with a person at it while it is played, a core's worth of work on a busy
    server. At the workers' nice 10 it took 79% of a core beside the server and quadrupled the moves' round trip at
    150 tables on a 2-core machine (25.5 ms against 6.0 ms before the coach existed; ``web_load.py --against
    f263baa``); on the idle thread, 6.9 and 7.1 ms against 5.3 and 4.6 in two runs. Only this analysis ahead of
    time waits for idle CPU: a finished game's report (which someone may be waiting for) runs on the worker's own
    thread at nice 10, and it waits behind the idle thread for at most ``LIVE_WAIT`` seconds, however busy the
    machine.
    """
    global _IDLE_JOB
    _IDLE_JOB = job = Future[T]()

    def run() -> None:
        _idle_class()
        try:
            job.set_result(work(*args))
        except BaseException as exc:  # (the worker's own thread raises it)
            job.set_exception(exc)

    # A daemon thread of its own: a stopping worker does not wait for it (an executor's threads are joined at exit)
    threading.Thread(target=run, name="spots-coach-idle", daemon=True).start()
    try:
        return True, job.result(timeout=LIVE_WAIT)
    except FutureTimeout:
        return False, None


def idle_thread_busy() -> bool:
    return _IDLE_JOB is not None and not _IDLE_JOB.done()


def _idle_class() -> None:
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # 0: this thread


def analyser_of(table: str, rules: Any, moves: list[str]) -> Analyser:
    """This worker's analyser of the table's game so far, if it has one for these moves, else a new one."""
    with _LIVE_LOCK:
        analyser = _LIVE.pop(table, None)
    if analyser is None or analyser.moves != moves[:len(analyser.moves)]:
        analyser = Analyser(rules)
    return analyser


@stoppable
def advance(table: str, rules: Any, moves: list[str]) -> int:
    """Analyse a game still being played up to its last move (runs in a worker, on its idle thread); the moves
    analysed, or 0 when that thread is still busy with earlier moves (these are analysed by a later job or the
    report) or did not finish within ``LIVE_WAIT`` (it goes on there, and keeps what it did)."""
    if idle_thread_busy():
        return 0
    _, analysed = on_idle_thread(_analyse_ahead, table, rules, moves)
    return analysed or 0  # (None: not finished in time)


def _analyse_ahead(table: str, rules: Any, moves: list[str]) -> int:
    analyser = analyser_of(table, rules, moves)
    analyser.feed(moves)
    with _LIVE_LOCK:
        _LIVE[table] = analyser
        while len(_LIVE) > LIVE:
            _LIVE.popitem(last=False)
    return len(analyser.moves)


@stoppable
def compute(job: str, table: str, state: Any, record: Any,
            heard: Callable[[tuple[str, int, int]], None] | None = None) -> dict[str, Any]:
    """The report of a finished game as a document without words (runs in a worker; ``heard`` gets progress).

    A game this worker analysed while it was played needs only its last moves: the report is the same."""
    tell = heard or _SINK.put
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last[0] >= 0.2:
            last[0] = now
            tell((job, done, total))

    moves = list(state.history())
    analyser = analyser_of(table, state.rules, moves)
    analyser.feed(moves, progress)
    return report_document(analyser.report(record))


def report_document(report: Report) -> dict[str, Any]:
    """What the store keeps: numbers, move notation and message ids (put in words when shown)."""
    players = []
    for p in report.players:
        mistakes = []
        for m in p.mistakes:
            others = [s for s in range(len(m.after_played)) if s != p.seat]
            mistakes.append({"step": m.step, "turn": m.turn, "played": m.played, "best": m.best,
                             "lost": round(m.lost, 6), "error": round(m.error, 6),
                             "reasons": [[text, fields] for text, fields in m.reasons],
                             "left": round(sum(m.after_played[s] for s in others), 6),
                             "would": round(sum(m.after_best[s] for s in others), 6)})
        players.append({"seat": p.seat, "human": p.human, "stood_in": p.stood_in, "unchecked": p.unchecked,
                        "result": p.result,
                        "start": round(p.start, 6),
                        "luck": round(p.luck, 6), "lost": round(p.lost, 6), "decisions": p.decisions,
                        "forced": p.forced, "agreed": p.agreed, "mean_lost": round(p.mean_lost, 6),
                        "band": band(p.mean_lost),
                        "mistakes": mistakes})
    return {"game": report.game, "evaluator": report.evaluator, "steps": len(report.steps),
            "chart": [[round(v, 4) for v in values] for values in report.chart], "players": players}


# ------------------------------------------------------------------ in the server


class Coach:
    """The server's reports: which are being computed, how far they got, and the pool that computes them."""

    def __init__(self, store: TableStore, writer: Writer, workers: int = 1) -> None:
        self.store, self.writer, self.workers = store, writer, workers
        self.running: dict[tuple[str, str], asyncio.Task[None]] = {}
        self.claiming: set[tuple[str, str]] = set()  # reports being claimed in the store (each holds a place)
        self.progress: dict[str, tuple[int, int]] = {}  # job (the record digest) -> (done, total)
        self.reports: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()
        self.failed: dict[tuple[str, str], str] = {}
        self.budgets: dict[str, str] = {}
        self._pool: Executor | None = None
        self._sink: Any = None
        self._starting: set[asyncio.Task[Any]] = set()  # held, or the loop might drop them
        self.advancing: dict[str, bool] = {}  # tables analysed while played: moved again since the job started?
        self.on_report: list[Callable[[Room, dict[str, Any]], None]] = []  # told of each report this process made

    async def in_worker(self, work: Callable[..., T], *args: Any) -> T:
        """Other slow work on the game's evaluators (a mistake judged as a drill), in the coach's own worker."""
        return await asyncio.get_running_loop().run_in_executor(self._executor(), work, *args)

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers > 0:
                context = multiprocessing.get_context("spawn")
                self._sink = context.Queue()
                threading.Thread(target=self._listen, args=(self._sink,), name="spots-coach-progress",
                                 daemon=True).start()
                self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=start_coach_worker,
                                                 initargs=(os.getpid(), self._sink))
            else:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="spots-coach")
        return self._pool

    def _listen(self, sink: Any) -> None:
        """Progress from the worker process (a thread of its own: the queue's reads block)."""
        while True:
            try:
                item = sink.get()
            except (EOFError, OSError, ValueError):
                return
            if item is None:
                return
            job, done, total = item
            self.progress[job] = (done, total)

    def _note(self, item: tuple[str, int, int]) -> None:
        self.progress[item[0]] = (item[1], item[2])

    def key(self, room: Room) -> tuple[str, str]:
        """The report's key: a digest of the game, its rules and its moves, and the budget in words."""
        game = room.kind.spec.name
        if game not in self.budgets:
            self.budgets[game] = f"report {REPORT_VERSION}: {evaluator_of(room.kind.spec).name}"
        covered = room.timekeeper.clock.covered if room.timekeeper is not None else []
        record = json.dumps([game, room.state.rules.to_dict(), room.state.history(), covered], sort_keys=True)
        return hashlib.sha256(record.encode()).hexdigest(), self.budgets[game]

    def moved(self, room: Room) -> None:
        """A game with a person at it moved on: analyse it so far, so that its report is ready when it ends (one
        job at a time per table; moves made meanwhile go in the next). Only with worker processes: in threads
        (``workers=0``) it would slow the server's own moves."""
        if (self.workers == 0 or room.state.is_terminal() or room.kind.spec.coach is None
                or not any(s.kind == "human" for s in room.row.seats)):
            return
        if room.id in self.advancing:
            self.advancing[room.id] = True  # moved again: once more when this job is done
            return
        self.advancing[room.id] = False
        task = asyncio.get_running_loop().create_task(self._advance(room))
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    async def _advance(self, room: Room) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not room.state.is_terminal():
                self.advancing[room.id] = False
                await loop.run_in_executor(self._executor(), advance, room.id, room.state.rules,
                                           list(room.state.history()))
                if not self.advancing.get(room.id):
                    break
        except Exception as exc:  # the report is then computed from the start when the game ends
            log.warning("table %s: could not be analysed while played (%s)", room.id, exc)
        finally:
            self.advancing.pop(room.id, None)

    def finished(self, room: Room) -> None:
        """A game just ended: start its report when a person played in it (a bots' game waits to be asked; so does
        every game with ``workers=0``, where the report would be computed in a thread of the server)."""
        if self.workers == 0 or room.kind.spec.coach is None or not any(s.kind == "human" for s in room.row.seats):
            return
        task = asyncio.get_running_loop().create_task(self.answer(room))

        def told(done: asyncio.Task[dict[str, Any]]) -> None:
            if not done.cancelled() and done.exception() is not None:
                log.warning("table %s: its report could not be started (%s)", room.id, done.exception())

        self._starting.add(task)
        task.add_done_callback(told)
        task.add_done_callback(self._starting.discard)

    async def answer(self, room: Room) -> dict[str, Any]:
        """``{"status": "ready", "report"}``, ``{"status": "computing", "done", "total"}`` or ``"failed"``."""
        key = self.key(room)
        if key in self.reports:
            self.reports.move_to_end(key)
            return {"status": "ready", "report": self.reports[key]}
        if key in self.failed:
            return {"status": "failed", "message": self.failed[key]}
        total = len(room.state.history())
        if key in self.running:
            done, total = self.progress.get(key[0], (0, total))
            return {"status": "computing", "done": done, "total": total}
        row = await self.writer.run(self.store.analysis, key)
        if row is not None and row[0] == "ready" and row[3]:
            return {"status": "ready", "report": self._keep(key, json.loads(row[3]))}
        if row is None or not self.store.shared or row[4] < time.time() - STALE:
            # a place is held before the claim's await: answers asked at once all counted (they got past before)
            if key in self.claiming:
                return {"status": "computing", "done": 0, "total": total}
            if len(self.running) + len(self.claiming) >= AT_ONCE:
                raise Refused(503, "coach-busy", "the server is analysing other games; try again in a moment", 5)
            self.claiming.add(key)
            try:
                claimed = await self.writer.run(self.store.claim_analysis, key, room.id, total)
                if claimed:
                    self.running[key] = asyncio.get_running_loop().create_task(self._compute(room, key))
            finally:
                self.claiming.discard(key)
            if claimed:
                return {"status": "computing", "done": 0, "total": total}
            row = await self.writer.run(self.store.analysis, key)
        if row is not None and row[0] == "failed":
            return {"status": "failed", "message": row[3] or ""}
        return {"status": "computing", "done": row[1] if row else 0, "total": row[2] if row else total}

    def _keep(self, key: tuple[str, str], doc: dict[str, Any]) -> dict[str, Any]:
        self.reports[key] = doc
        while len(self.reports) > KEPT:
            self.reports.popitem(last=False)
        return doc

    async def _compute(self, room: Room, key: tuple[str, str]) -> None:
        """Compute in the pool; meanwhile tell the store how far it got (other processes show it)."""
        job, loop = key[0], asyncio.get_running_loop()
        heard = None if self.workers > 0 else self._note
        try:
            future = loop.run_in_executor(self._executor(), compute, job, room.id, room.state.clone(),
                                          room.record(), heard)
            said = 0
            while not future.done():
                await asyncio.wait({future}, timeout=HEARD_EVERY)
                done = self.progress.get(job, (0, 0))[0]
                if self.store.shared and done != said and not future.done():
                    await self.writer.run(self.store.analysis_progress, key, done)
                    said = done
            doc = future.result()
            await self.writer.run(self.store.settle_analysis, key, "ready", json.dumps(doc))
            self._keep(key, doc)
            for listener in self.on_report:
                listener(room, doc)
        except asyncio.CancelledError:
            raise
        except Stopped:
            return  # the server is stopping: the report has not failed, it is only not made yet
        except Exception as exc:  # a report that cannot be made must not take the server down
            why = f"{type(exc).__name__}: {exc}"
            log.error("table %s: its report failed (%s)", room.id, why)
            self.failed[key] = why
            try:
                await self.writer.run(self.store.settle_analysis, key, "failed", why)
            except Exception as store_exc:
                log.warning("table %s: the failure could not be stored (%s)", room.id, store_exc)
        finally:
            self.running.pop(key, None)
            self.progress.pop(job, None)

    async def close(self) -> None:
        for task in [*self.running.values(), *self._starting]:
            task.cancel()
        if self._pool is not None:
            stop_searches(self._pool)
            self._pool = None
        if self._sink is not None:
            with contextlib.suppress(OSError, ValueError):
                self._sink.put(None)
            self._sink = None


# ------------------------------------------------------------------ in words


def in_words(doc: dict[str, Any], room: Room, lang: str, at: Callable[[int], Any]) -> dict[str, Any]:
    """The stored report in one language, with the table's names; ``at(step)`` is the position before a step."""
    tr = i18n.translator(lang)
    _ = tr.gettext
    names = room.names_in(lang)
    players = []
    for p in doc["players"]:
        mistakes = []
        for m in p["mistakes"]:
            before = at(m["step"])
            words = {}
            for which in ("played", "best"):
                after = before.clone()
                after.apply_action(m[which])
                words[which] = room.kind.spec.describe_move(before, m[which], after, names, tr)
            reasons = [_(text).format(**fields) for text, fields in m["reasons"]]
            if len(names) > 1:
                reasons.append(_(LEFT).format(left=percent(m["left"]), would=percent(m["would"])))
            mistakes.append({**m, "played_words": words["played"], "best_words": words["best"], "reasons": reasons})
        players.append({**p, "name": names[p["seat"]], "band": _(p["band"]), "mistakes": mistakes})
    return {**doc, "players": players}


def routes(ctx: Context, coach: Coach) -> APIRouter:
    """``GET /api/tables/<id>/analysis``: the report in the asker's language, or how far it got."""
    router = APIRouter(prefix="/api")
    hub = ctx.hub
    kept: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()  # answers in words, by table and language

    @router.get("/tables/{table_id}/analysis")
    async def analysis(request: Request, table_id: str) -> Response:
        room = await hub.table(table_id)
        if room is None:
            raise Refused(404, "unknown-table", f"there is no table {table_id!r}")
        if room.kind.spec.coach is None:
            raise Refused(404, "no-coach", f"{room.kind.spec.title} games cannot be analysed")
        if not room.state.is_terminal():
            raise Refused(409, "not-over", "the game is not finished: only a finished game can be analysed")
        answer = await coach.answer(room)
        if answer["status"] == "computing":
            return JSONResponse(answer, status_code=202)
        if answer["status"] == "failed":
            return JSONResponse({"status": "failed", "error": "analysis-failed", "message": answer["message"]},
                                status_code=500)
        lang = i18n.resolve(request_lang(request))
        moves = room.state.history()
        key = (room.id, len(moves), lang, tuple(room.names))
        if key not in kept:
            def at(step: int) -> Any:
                return ctx.replays.state_at(room.id, room.kind, room.state.rules, moves, step)
            kept[key] = await asyncio.to_thread(in_words, answer["report"], room, lang, at)
            while len(kept) > KEPT:
                kept.popitem(last=False)
        return JSONResponse({"status": "ready", "report": kept[key]})

    return router


