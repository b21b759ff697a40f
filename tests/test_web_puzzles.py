"""Puzzles on the web (issue 47): the API never gives an answer before the move, a signed-in solver's first try moves
both ratings once (on SQLite and on PostgreSQL), a guest's moves only their own, and bad input is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spots.puzzles.build import shipped
from support.puzzles import answer, wrong_move
from support.web import app_on, as_, client, sign_up

pytest.importorskip("glicko2")
SHIPPED = {p.id: p for p in shipped("spots")}


def test_the_page_and_the_puzzles_it_is_sent_hold_no_answer(tmp_path: Path) -> None:
    with client(tmp_path / "p.db") as c:
        page = c.get("/puzzles?lang=es")
        assert page.status_code == 200 and "Problema del día" in page.text and "colocar o enterrar" in page.text
        daily = c.get("/api/puzzles/spots/daily").json()
        assert daily == c.get("/api/puzzles/spots/daily").json()  # the same for everyone today
        puzzle = SHIPPED[daily["id"]]
        assert {"best", "answers", "values", "margin"}.isdisjoint(daily)  # nothing of the answer before the move
        assert sorted(m["move"] for m in daily["moves"]) == sorted(m for m, _ in puzzle.values)
        assert daily["view"]["to_move"] == puzzle.seat and daily["rating"] == puzzle.rating
        themed = c.get("/api/puzzles/spots/next?theme=place-or-bury&rating=1500").json()
        assert "place-or-bury" in SHIPPED[themed["id"]].themes and themed["themes"]
        assert c.get("/").text.count('href="/puzzles"') == 1  # the lobby's way in


def test_a_signed_in_solvers_first_try_moves_both_ratings_once(db: str) -> None:
    with app_on(db, rate=1000.0) as c:
        sign_up(c, "Pia")
        first = c.get("/api/puzzles/spots/next").json()
        right = answer(c, first["id"], SHIPPED[first["id"]].best)
        assert right["solved"] and right["counted"] and right["solver"]["change"] > 0
        assert right["puzzle_rating"] < first["rating"]  # a solve is a loss for the puzzle
        assert right["values"][0]["move"] in right["answers"] and right["values"][0]["label"]
        again = answer(c, first["id"], wrong_move(SHIPPED[first["id"]]))  # tried before: nothing moves
        assert not again["solved"] and not again["counted"] and again["solver"]["rating"] == right["solver"]["rating"]
        assert c.get(f"/api/puzzles/spots/{first['id']}").json()["rating"] == right["puzzle_rating"]  # kept
        nexts = {c.get(f"/api/puzzles/spots/next?after={first['id']}").json()["id"] for _ in range(5)}
        assert first["id"] not in nexts  # a solver is not given a puzzle they tried while others wait
        other = next(iter(nexts))
        missed = answer(c, other, wrong_move(SHIPPED[other]))
        assert not missed["solved"] and missed["counted"] and missed["solver"]["change"] < 0
        as_(c, None)  # a guest sees the puzzles' ratings as the signed-in solvers moved them
        assert c.get(f"/api/puzzles/spots/{first['id']}").json()["rating"] == right["puzzle_rating"]


def test_a_guests_rating_lives_in_their_browser_and_moves_no_puzzle(tmp_path: Path) -> None:
    with client(tmp_path / "g.db") as c:
        puzzle = c.get("/api/puzzles/spots/daily").json()
        solved = answer(c, puzzle["id"], SHIPPED[puzzle["id"]].best, solver=[1600, 80, 0.06])
        assert solved["solver"]["rating"] > 1600 and len(solved["solver"]["kept"]) == 3
        assert solved["solver"]["change"] < 40  # a sure rating (deviation 80) moves little
        fresh = answer(c, puzzle["id"], SHIPPED[puzzle["id"]].best)  # no rating sent: a new solver, 1500 ± 350
        assert fresh["solver"]["change"] > solved["solver"]["change"]
        assert c.get(f"/api/puzzles/spots/{puzzle['id']}").json()["rating"] == puzzle["rating"]  # unmoved


@pytest.mark.parametrize(("method", "path", "body", "status", "says"), [
    ("get", "/api/puzzles/chess/daily", None, 404, "there are no puzzles for 'chess'; the games with puzzles: "),
    ("get", "/api/puzzles/double-spot/000000000000", None, 404, "there is no double-spot puzzle '000000000000'"),
    ("get", "/api/puzzles/spots/000000000000", None, 404, "there is no spots puzzle '000000000000'"),
    ("get", "/api/puzzles/spots/next?theme=luck", None, 400, "the themes: which-trick"),
    ("get", "/api/puzzles/spots/next?rating=-5", None, 400, "a whole number from 0 to 4000"),
    ("post", "answer", {"move": "fly away"}, 400, "is not a move of this puzzle; its moves:"),
    ("post", "answer", ["move"], 400, 'send {"move"'),
    ("post", "answer", {"move": "MOVE", "solver": [1500, 5, 0.06]}, 400, "deviation 30-350"),
    ("post", "answer", {"move": "MOVE", "solver": [float("nan"), 50, 0.06]}, 400, "'solver' must be"),
    ("post", "answer", {"move": "x" * 5000}, 413, ""),
])
def test_bad_input_is_refused_saying_what_is_allowed(tmp_path: Path, method: str, path: str, body: Any,
                                                     status: int, says: str) -> None:
    with client(tmp_path / "b.db") as c:
        daily = c.get("/api/puzzles/spots/daily").json()
        if method == "post":
            if isinstance(body, dict) and body.get("move") == "MOVE":
                body = {**body, "move": SHIPPED[daily["id"]].best}
            raw = json.dumps(body, allow_nan=True)
            r = c.post(f"/api/puzzles/spots/{daily['id']}/answer", content=raw,
                       headers={"Content-Type": "application/json"})
        else:
            r = c.get(path)
        assert r.status_code == status, r.text
        assert says in (r.json()["message"] if says else r.text)
