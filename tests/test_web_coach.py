"""'How did it go?' on the web: a finished table's report, computed once away from the server, kept in the store.

The real app in-process (Starlette's test client) on a real SQLite file, and two apps on one real PostgreSQL
database (several server processes share one): the report of a record is computed once, reported while it is
computed, read back after a restart without computing it again, and put in the asker's language.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spots import i18n
from spots.analysis.words import BANDS
from spots.core import games
from spots.core.play import play_out
from spots.web import create_app
from spots.web.coach import service as coach
from support.processes import PATIENT_S
from support.web import client, new_table, opened, play, token, until

pytestmark = pytest.mark.timeout(300)

Msg = dict[str, Any]


def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every report computed from now on (the real computation, counted by its job)."""
    calls: list[str] = []
    real = coach.compute

    def counting(job: str, *args: Any) -> dict[str, Any]:
        calls.append(job)
        return real(job, *args)

    monkeypatch.setattr(coach, "compute", counting)
    return calls


def play_against_greedy(c: TestClient) -> str:
    """Ann (always the first legal move: rarely the best) against the greedy bot, to 3 dogs (long enough for her to
    make mistakes the coach is sure of, with most of the server's dice); the table's id."""
    t = new_table(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}], target=3)
    with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
        view = opened(ws)["state"]["view"]
        while not view["over"]:
            if view["to_move"] == 0:
                ok, state = play(ws, view["legal"][0]["move"], view["moves"])
                assert state is not None, ok
                view = state["view"]
            else:
                view = until(ws, lambda m, n=view["moves"]: m["type"] == "state" and m["view"]["moves"] > n)["view"]
    return str(t["id"])


def report_of(c: TestClient, table: str, lang: str = "en", seen: list[Msg] | None = None) -> Msg:
    """Ask until the report is ready (every 'computing' answer goes to ``seen``)."""
    deadline = time.time() + PATIENT_S
    while time.time() < deadline:
        r = c.get(f"/api/tables/{table}/analysis?lang={lang}")
        if r.status_code == 200:
            return dict(r.json()["report"])
        assert r.status_code == 202, r.text
        if seen is not None:
            seen.append(r.json())
        time.sleep(0.1)
    raise AssertionError(f"no report for table {table} within {PATIENT_S:.0f} s")


def test_a_finished_game_gets_its_report_once_and_keeps_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "coach.db"
    calls = counted(monkeypatch)
    with client(db, bot_delay=0.0, rate=1e6) as c:
        games = 0
        while games < 3:  # the server's dice are the OS's: now and then a short game leaves no sure mistake
            games += 1
            table = play_against_greedy(c)
            moves = c.get(f"/api/tables/{table}/record").json()["moves"]
            seen: list[Msg] = []
            report = report_of(c, table, seen=seen)
            if report["players"][0]["mistakes"]:
                break
        assert len(calls) == games, "one computation a game, however often it was asked for"
        assert all(s["status"] == "computing" and 0 <= s["done"] <= s["total"] == len(moves) for s in seen)
        ann, bot = report["players"]
        assert (ann["name"], ann["human"], bot["human"]) == ("Ann", True, False)
        assert ann["result"] + bot["result"] == 1 and ann["lost"] >= 0 and bot["lost"] >= 0
        assert abs(ann["luck"] + bot["luck"]) < 1e-6, "luck sums to zero over the seats"
        assert len(report["chart"]) == len(moves) + 1 and report["chart"][-1] == [ann["result"], bot["result"]]
        assert all(abs(sum(point) - 1) < 1e-3 for point in report["chart"])
        assert bot["mistakes"] == [], "a bot's mistakes are not listed"
        assert 1 <= len(ann["mistakes"]) <= 3, "always the first legal move: the greedy bot's coach finds better"
        losses = [m["lost"] for m in ann["mistakes"]]
        assert losses == sorted(losses, reverse=True) and losses[0] > 0
        for m in ann["mistakes"]:
            assert m["played"] == moves[m["step"]] and m["best"] != m["played"]
            assert "Ann" in m["played_words"] and m["best_words"]
            assert any("chance to win" in reason for reason in m["reasons"])
        assert ann["band"] in [name for _, name in BANDS]
    monkeypatch.setattr(coach, "compute", lambda *args: pytest.fail("computed again after the restart"))
    with client(db) as c:  # a restart: read back from the file
        again = report_of(c, table, lang="es")
        assert [p["lost"] for p in again["players"]] == [ann["lost"], bot["lost"]]
        assert again["players"][0]["band"] == i18n.translator("es").gettext(ann["band"])
        assert again["players"][0]["mistakes"][0]["played_words"] != ann["mistakes"][0]["played_words"]


def test_only_a_finished_game_of_a_known_table_is_analysed(tmp_path: Path) -> None:
    with client(tmp_path / "coach.db") as c:
        t = new_table(c)
        r = c.get(f"/api/tables/{t['id']}/analysis")
        assert r.status_code == 409 and r.json()["error"] == "not-over"
        assert "only a finished game can be analysed" in r.json()["message"]
        r = c.get("/api/tables/nosuch/analysis")
        assert r.status_code == 404 and "nosuch" in r.json()["message"]


def two_apps(url: str) -> list[TestClient]:
    return [TestClient(create_app(url, bot_delay=0.0, rate=1e6, requests_per_second=1000.0)) for _ in range(2)]


def test_several_processes_on_postgresql_compute_a_report_once(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counted(monkeypatch)
    first, second = two_apps(pg_url)
    with first as a, second as b:
        t = new_table(a, seats=[{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}])
        wait(lambda: a.get(f"/api/tables/{t['id']}").json()["status"] == "over")
        asked = [b.get(f"/api/tables/{t['id']}/analysis"), a.get(f"/api/tables/{t['id']}/analysis")]
        assert {r.status_code for r in asked} <= {200, 202}
        reports = [report_of(a, t["id"]), report_of(b, t["id"])]
        assert reports[0] == reports[1] and len(calls) == 1, f"computed {len(calls)} times"


def wait(done: Callable[[], bool]) -> None:
    deadline = time.time() + PATIENT_S
    while not done():
        assert time.time() < deadline, "it did not happen in time"
        time.sleep(0.05)


def test_a_game_analysed_while_it_is_played_has_the_same_report_and_only_its_end_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the worker does for a table with a person at it: each move fed as it comes, then the report. (Here
    each move's analysis is waited for, at the normal priority: on a busy machine the idle class would leave it
    to a later move (test_the_coach_analyses_games_being_played_only_when_the_cpu_is_idle); this one is about what
    is analysed, not when.)"""
    monkeypatch.setattr(coach, "LIVE_WAIT", PATIENT_S)
    monkeypatch.setattr(coach, "_idle_class", lambda: None)
    spec = games.get("spots")
    state = spec.new_state(spec.make_rules(players=2, target=1, tricks="beginner"))
    play_out(state, [spec.make_bot("greedy", seed=1), spec.make_bot("random", seed=2)], random.Random(5))
    moves = state.history()
    ends = range(1, len(moves) - 3, 5)
    for end in ends:  # the game as the server saw it, move after move
        assert coach.advance("t-live", state.rules, moves[:end]) == end
    heard: list[tuple[str, int, int]] = []
    record = spec.record(state, ["Ann", "greedy"], bots=[None, "greedy"])
    live = coach.compute("job", "t-live", state, record, heard.append)
    fresh = coach.compute("job", "t-fresh", state, record, lambda item: None)
    assert live == fresh
    assert heard[0][1] == ends[-1] + 1, "only the moves after the ones fed while it was played were left"
    assert heard[-1] == ("job", len(moves), len(moves))


def test_reports_asked_for_at_once_are_held_to_the_coachs_eight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    """Issue 42's untested list, the coach's CPU under many finished games at once: the cap of ``coach.AT_ONCE``
    reports was checked before an await and taken after it, so reports asked for at the same moment all got past
    it. Each report here waits until the test lets it go, so none finishes while they are counted; then each
    fails at once (this test is about the asking, not the reports)."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    let_go = threading.Event()

    def held(*args: Any) -> dict[str, Any]:
        let_go.wait(PATIENT_S)
        raise RuntimeError("let go")  # the report fails at once: what is counted here is only the asking

    monkeypatch.setattr(coach, "compute", held)
    many = coach.AT_ONCE + 4
    app = create_app(tmp_path / "coach.db", bot_delay=0.0, requests_per_second=1e6, tables_per_minute=1e6,
                     bot_tables_per_client=many,
                     bot_tables_per_network=many, max_bot_tables=2 * many)
    with TestClient(app) as c:
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        tables = [new_table(c, seats=bots, target=1)["id"] for _ in range(many)]
        deadline = time.time() + PATIENT_S
        while not all(c.get(f"/api/tables/{t}").json()["view"]["over"] for t in tables):
            assert time.time() < deadline, "the bots' games did not end"
            time.sleep(0.1)
        try:
            with ThreadPoolExecutor(many) as asking:  # every report asked for at the same moment
                answers = list(asking.map(lambda t: c.get(f"/api/tables/{t}/analysis"), tables))
        finally:
            let_go.set()
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [202] * coach.AT_ONCE + [503] * (many - coach.AT_ONCE), statuses
        busy = next(a for a in answers if a.status_code == 503)
        assert busy.json()["error"] == "coach-busy" and int(busy.headers["Retry-After"]) > 0
        refused = tables[answers.index(busy)]
        while (again := c.get(f"/api/tables/{refused}/analysis")).status_code == 503:  # as the page asks again
            assert time.time() < deadline + PATIENT_S, "the coach stayed busy"
            time.sleep(0.2)
        assert again.status_code == 202 and again.json()["status"] == "computing"  # its turn came


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="SCHED_IDLE is Linux's")
def test_the_coach_analyses_games_being_played_only_when_the_cpu_is_idle() -> None:
    """Analysing games while they are played must never take the CPU from the server's moves (a busy server's
    round trip quadrupled without this): it runs in Linux's idle class; a finished game's report, which someone
    may be waiting for, and the server itself keep the normal class."""
    import asyncio

    async def classes() -> tuple[int, int]:
        worker = coach.Coach(store=None, writer=None, workers=1)  # type: ignore[arg-type]  # (no report is made)
        try:
            live = worker.in_worker(coach.on_idle_thread, os.sched_getscheduler, 0)
            report = worker.in_worker(os.sched_getscheduler, 0)
            return await asyncio.wait_for(live, PATIENT_S), await asyncio.wait_for(report, PATIENT_S)
        finally:
            await worker.close()

    async def held_at_most_live_wait() -> tuple[Any, bool, int]:
        worker = coach.Coach(store=None, writer=None, workers=1)  # type: ignore[arg-type]
        try:  # an analysis slower than LIVE_WAIT (here a sleep) lets the worker go on; it runs on by itself
            slow = await asyncio.wait_for(worker.in_worker(coach.on_idle_thread, time.sleep, coach.LIVE_WAIT + 1),
                                          PATIENT_S)
            busy = await asyncio.wait_for(worker.in_worker(coach.idle_thread_busy), PATIENT_S)
            advanced = await asyncio.wait_for(worker.in_worker(coach.advance, "t", None, ["roll"]), PATIENT_S)
            return slow, busy, advanced
        finally:
            await worker.close()

    assert asyncio.run(classes()) == ((True, os.SCHED_IDLE), os.SCHED_OTHER)
    # a report never waits long behind it: the slow one is left to the idle thread, the next is skipped (0 moves)
    assert asyncio.run(held_at_most_live_wait()) == ((False, None), True, 0)
    assert os.sched_getscheduler(0) == os.SCHED_OTHER
