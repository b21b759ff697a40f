"""Puzzles on the web beyond one rated puzzle (issue 47): streaks and timed runs (unrated, each puzzle harder, the
best kept), "play it out from here against a bot", and the drill deck filled from a finished game's own mistakes
(judged as puzzles by the same rules as the shipped set, scheduled by FSRS), on SQLite and on PostgreSQL."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spots.core import games
from spots.puzzles.build import shipped
from spots.puzzles.drill import drill_of
from spots.puzzles.progress import SOLVER, Rated, rate, start_of
from support.processes import PATIENT_S
from support.puzzles import answer, wrong_move
from support.web import app_on, as_, client, opened, play, sign_up, token, until

pytest.importorskip("glicko2")
pytest.importorskip("fsrs")
SHIPPED = {p.id: p for p in shipped("spots")}


def test_a_streak_gets_harder_moves_no_rating_and_keeps_the_best(db: str) -> None:
    with app_on(db, rate=1000.0) as c:
        sign_up(c, "Sol")
        streak = c.get("/api/puzzles/spots/run?mode=streak").json()
        ids = streak["puzzles"]
        assert len(ids) == len(set(ids)) >= 100 and streak["seconds"] is None
        ratings = [SHIPPED[i].rating for i in ids]
        assert ratings[0] < 1100 and sum(ratings[40:50]) > sum(ratings[:10]) + 10 * 300  # each stretch harder
        right = answer(c, ids[0], SHIPPED[ids[0]].best, mode="streak")
        assert right["solved"] and not right["counted"] and right["solver"]["change"] == 0
        assert right["puzzle_rating"] == SHIPPED[ids[0]].rating  # nor the puzzle's
        rated = answer(c, ids[0], SHIPPED[ids[0]].best)  # met in a streak: its answer is known, it rates nothing
        assert not rated["counted"] and rated["solver"]["rating"] == right["solver"]["rating"]
        timed = c.get("/api/puzzles/spots/run?mode=timed").json()
        assert timed["seconds"] == 180 and timed["miss_costs"] == 10
        assert c.post("/api/puzzles/spots/best", json={"mode": "streak", "score": 7}).json()["best"] == 7
        assert c.post("/api/puzzles/spots/best", json={"mode": "streak", "score": 3}).json()["best"] == 7  # kept
        assert c.post("/api/puzzles/spots/best", json={"mode": "timed", "score": 12}).json()["best"] == 12
        page = c.get("/puzzles").text
        assert "&#34;streak&#34;: 7" in page and "&#34;timed&#34;: 12" in page  # the page starts from the bests
        for body, says in [({"mode": "blitz", "score": 1}, '"streak" or "timed"'),
                           ({"mode": "streak", "score": -1}, "0 to 200"), ({"mode": "streak", "score": True}, "0 to")]:
            r = c.post("/api/puzzles/spots/best", json=body)
            assert r.status_code == 400 and says in r.json()["message"], r.text
        r = c.get("/api/puzzles/spots/run?mode=forever")
        assert r.status_code == 400 and "streak, timed" in r.json()["message"]
        r = c.post(f"/api/puzzles/spots/{ids[1]}/answer", json={"move": SHIPPED[ids[1]].best, "mode": "blitz"})
        assert r.status_code == 400 and "rated (the default)" in r.json()["message"]
        as_(c, None)  # a guest's streak moves nothing, and their best stays in the browser
        kept = [1500.0, 200.0, 0.06]
        guest = answer(c, ids[2], wrong_move(SHIPPED[ids[2]]), mode="streak", solver=kept)
        assert not guest["solved"] and guest["solver"]["kept"] == kept and not guest["counted"]
        r = c.post("/api/puzzles/spots/best", json={"mode": "streak", "score": 3})
        assert r.status_code == 401 and "sign in" in r.json()["message"]


def test_a_puzzle_played_out_from_its_position_against_a_bot(tmp_path: Path) -> None:
    with client(tmp_path / "out.db") as c:
        daily = c.get("/api/puzzles/spots/daily").json()
        puzzle = SHIPPED[daily["id"]]
        r = c.post(f"/api/puzzles/spots/{puzzle.id}/play")
        assert r.status_code == 201, r.text
        table = c.get(f"/api/tables/{r.json()['id']}").json()
        assert table["view"]["to_move"] == puzzle.seat  # the puzzle's position, the solver to move
        assert sorted(m["move"] for m in table["view"]["legal"]) == sorted(m for m, _ in puzzle.values)
        spec = games.get("spots")
        strongest = spec.offered_bots()[-1].name  # the strongest bot the lobby offers
        kinds = [(s["kind"], s["bot"]) for s in table["players"]]
        assert kinds.count(("human", None)) == 1 and all(k == ("bot", strongest) for k in kinds if k[0] == "bot")
        state = spec.load_state(puzzle.state)
        assert table["moves"] == len(state.history())  # every move before it, the dice among them
        with c.websocket_connect(f"/ws/{table['id']}?token={token(r.json()['link'])}") as ws:
            view = opened(ws)["state"]["view"]
            ok, after = play(ws, puzzle.best, view["moves"])
            assert after is not None, ok  # and it plays on from there
        missing = c.post("/api/puzzles/spots/000000000000/play")
        assert missing.status_code == 404 and "no spots puzzle" in missing.json()["message"]


def finish_from_a_puzzle(c: TestClient, puzzle: Any) -> tuple[str, Any]:
    """The puzzle played out from its position, its worst move first, then plainly (score or stop where the rules
    allow, else the first legal move) against the bots to the end; the table's id and its report."""
    r = c.post(f"/api/puzzles/spots/{puzzle.id}/play")
    assert r.status_code == 201, r.text
    with c.websocket_connect(f"/ws/{r.json()['id']}?token={token(r.json()['link'])}") as ws:
        view = opened(ws)["state"]["view"]
        move = puzzle.values[-1][0]  # the worst move: a mistake the coach is sure of
        while not view["over"]:
            if view["to_move"] == puzzle.seat:
                ok, state = play(ws, move, view["moves"])
                assert state is not None, ok
                view = state["view"]
                legal = [m["move"] for m in view["legal"]]
                move = next((m for m in ("score", "stop") if m in legal), legal[0] if legal else "")
            else:
                view = until(ws, lambda m, n=view["moves"]: m["type"] == "state" and m["view"]["moves"] > n)["view"]
    deadline = time.time() + PATIENT_S
    while time.time() < deadline:
        answer = c.get(f"/api/tables/{r.json()['id']}/analysis")
        if answer.status_code == 200:
            return str(r.json()["id"]), answer.json()["report"]
        time.sleep(0.1)
    raise AssertionError("no report")


def deck(c: TestClient, size: int) -> dict[str, Any]:
    """The deck once it holds ``size`` drills (its mistakes are judged in the coach's worker after the report)."""
    deadline = time.time() + PATIENT_S
    while time.time() < deadline:
        found = c.get("/api/puzzles/spots/drill").json()
        if found["deck"] >= size:
            return dict(found)
        time.sleep(0.1)
    raise AssertionError(f"the deck did not reach {size} drills")


def test_my_mistakes_fill_my_drill_deck_and_come_back_by_fsrs(db: str) -> None:
    spec = games.get("spots")
    with app_on(db, bot_delay=0.0, rate=1000.0) as c:
        sign_up(c, "Ann")
        assert c.get("/api/puzzles/spots/drill").json() == {"puzzle": None, "due": 0, "deck": 0, "next_due": None}
        # a position where scoring wins the game at once, and Ann does something else
        puzzle = next(p for p in SHIPPED.values() if p.best == "score" and p.values[0][1] == 1.0
                      and p.values[-1][1] < 0.2 and len(p.state["players"]) == 2)
        table, report = finish_from_a_puzzle(c, puzzle)
        mine = next(p for p in report["players"] if p["seat"] == puzzle.seat)
        assert any(m["played"] == puzzle.values[-1][0] for m in mine["mistakes"])
        doc = c.get(f"/api/tables/{table}/record").json()
        record = spec.records.parse(doc, "record")
        expected: dict[str, Any] = {}
        for m in mine["mistakes"]:  # the same judge, here: exactly those that qualify join the deck
            verdict = drill_of("spots", record.rules, record.moves, m["step"], {})
            if verdict.puzzle is not None:
                expected[verdict.puzzle.id] = verdict.puzzle
        assert puzzle.id in expected  # the position she got wrong comes back to her
        found = deck(c, len(expected))
        assert found["deck"] == found["due"] == len(expected)
        assert f"{len(expected)} position" in c.get("/").text  # the lobby: "N positions to review"
        first = found["puzzle"]
        assert first["id"] in expected and {"best", "answers"}.isdisjoint(first)
        right = c.post(f"/api/puzzles/spots/drill/{first['id']}/answer", json={"move": expected[first["id"]].best})
        assert right.status_code == 200 and right.json()["solved"], right.text
        again = datetime.fromisoformat(right.json()["again"])
        assert again > datetime.now(UTC) and right.json()["due"] == len(expected) - 1  # scheduled later
        assert right.json()["solver"]["change"] == 0  # a drill moves no rating
        if len(expected) > 1:
            other = c.get("/api/puzzles/spots/drill").json()["puzzle"]
            wrong = next(m for m, _ in expected[other["id"]].values if m not in expected[other["id"]].answers)
            missed = c.post(f"/api/puzzles/spots/drill/{other['id']}/answer", json={"move": wrong}).json()
            assert not missed["solved"] and datetime.fromisoformat(missed["again"]) <= again  # missed: back sooner
        bad = c.post(f"/api/puzzles/spots/drill/{first['id']}/answer", json={"move": "fly"})
        assert bad.status_code == 400 and "one of" in bad.json()["message"]
        unknown = c.post("/api/puzzles/spots/drill/000000000000/answer", json={"move": "stop"})
        assert unknown.status_code == 404 and "in your spots deck" in unknown.json()["message"]
        as_(c, None)
        r = c.get("/api/puzzles/spots/drill")
        assert r.status_code == 401 and "sign in" in r.json()["message"]


def test_two_processes_rating_the_same_puzzles_at_once_lose_no_try(pg_url: str) -> None:
    """Two servers on one PostgreSQL database, two solvers answering the same fresh puzzles at the same moment:
    each puzzle's rating counts both tries (the rows are locked before they are read, made first if new)."""
    import psycopg

    puzzles = sorted(SHIPPED)[:4]
    with app_on(pg_url, rate=1000.0) as one, app_on(pg_url, rate=1000.0) as two:
        for n, puzzle_id in enumerate(puzzles):  # two new solvers for each puzzle
            sign_up(one, f"Ana{n}")
            sign_up(two, f"Ben{n}")
            start = threading.Barrier(2)

            def solve(c: TestClient, pid: str = puzzle_id, at: threading.Barrier = start) -> None:
                at.wait()
                answer(c, pid, SHIPPED[pid].best)

            threads = [threading.Thread(target=solve, args=(c,)) for c in (one, two)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    with psycopg.connect(pg_url) as conn:
        rows = {r[0]: r[1:] for r in conn.execute("SELECT puzzle, tries, rating FROM puzzle_ratings").fetchall()}
        solvers = sorted(conn.execute("SELECT tries, solved FROM puzzle_solvers").fetchall())
    for puzzle_id in puzzles:  # two new solvers: either order moves the puzzle the same, and twice
        once = rate(Rated(*SOLVER), start_of(SHIPPED[puzzle_id]), True)[1]
        twice = rate(Rated(*SOLVER), once, True)[1]
        assert rows[puzzle_id][0] == 2 and rows[puzzle_id][1] == pytest.approx(twice.rating), (rows, once, twice)
    assert solvers == [(1, 1)] * 8
