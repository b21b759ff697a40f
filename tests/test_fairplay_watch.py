"""The watch for assistance (issue 41): the weighing, and ``spots fairplay`` on a real server's rated games.

An account that copies the advisor's first choice (what ``spots hint`` would tell it) at every decision of its
rated games is listed from the coach's reports, with its evidence game by game; an account playing anything else
is not. The host's mark makes the account's next rated game count for nobody, and taking it away rates again.
"""

from __future__ import annotations

import io
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spots.analysis.assistance import CEILING, MIN_GAMES, Play, pooled, weigh
from spots.core import games
from spots.games.spots.advice import advise
from spots.web.fairplay.watch import main as fairplay
from support.web import Msg, app_on, as_, db_moves, new_table, opened, play_to_the_end, sign_up, token

pytestmark = pytest.mark.timeout(600)
TWO = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def test_an_account_far_above_the_ceiling_is_listed_and_one_near_it_or_with_few_games_is_not() -> None:
    copier = [Play(40, 40 - (g % 2), 0.0) for g in range(MIN_GAMES)]
    assert weigh(copier).listed and weigh(copier).agreement_low > CEILING
    assert not weigh(copier[:MIN_GAMES - 1]).listed  # too few games, whatever they show
    near = [Play(40, round(40 * CEILING) + (3 if g % 2 else -3), 0.01) for g in range(40)]
    assert not weigh(near).listed and weigh(near).agreement > CEILING - 0.01
    # the doubt comes from the games: the same decisions in games that disagree with each other weigh less
    steady, uneven = [Play(40, 36, 0.0)] * 6, [Play(40, 40, 0.0), Play(40, 32, 0.0)] * 3
    assert pooled(steady, "agreed")[0] == pooled(uneven, "agreed")[0]
    assert pooled(steady, "agreed")[1] < pooled(uneven, "agreed")[1]
    assert weigh([Play(0, 0, 0.0)] * 10).games == 0  # a game with no real decision says nothing


def fairplay_cli(db: str, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    return fairplay(["--db", db, *args], out=out), out.getvalue()


def advisors_move(db: Path, table_id: str) -> Any:
    """A seat's move as the advisor ranks it first (the position rebuilt from the stored record)."""
    def choose(seat: int, view: Msg) -> str:
        con = sqlite3.connect(db)
        try:
            rules = json.loads(con.execute("SELECT rules FROM tables WHERE id = ?", (table_id,)).fetchone()[0])
        finally:
            con.close()
        spec = games.get("spots")
        state = spec.new_state(spec.records.rules_from_dict(rules))
        for move in db_moves(db, table_id):
            state.apply_action(move)
        assert state.current_player() == seat
        return advise(state)[0].move

    return choose


def rated_game(c: TestClient, db: Path, ann: str, bob: str) -> str:
    """Ann (seat 0) and Bob play a rated game to the end, Ann copying the advisor and Bob playing his last legal
    move; the table. (Ann copies in every game: two players both playing their last move took thousands of
    moves.)"""
    as_(c, ann)
    t = new_table(c, TWO, creator_seat=0, rated=True)
    links = [token(s["link"]) for s in t["seats"]]
    assert as_(c, bob).post(f"/play/{links[1]}/take", follow_redirects=False).status_code == 303  # Bob's account
    as_(c, ann)
    with c.websocket_connect(f"/ws/{t['id']}?token={links[0]}") as wa:
        as_(c, bob)
        with c.websocket_connect(f"/ws/{t['id']}?token={links[1]}") as wb:
            views = {0: opened(wa)["state"]["view"], 1: opened(wb)["state"]["view"]}
            pick = advisors_move(db, t["id"])

            def choose(seat: int, view: Msg) -> str:
                return pick(seat, view) if seat == 0 else view["legal"][-1]["move"]

            assert play_to_the_end({0: wa, 1: wb}, views=views, choose=choose)["over"]
    return str(t["id"])


def reported(c: TestClient, table_id: str) -> Msg:
    """The coach's report of a finished table, once computed (asking starts it)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        r = c.get(f"/api/tables/{table_id}/analysis")
        if r.status_code == 200:
            return dict(r.json()["report"])
        assert r.status_code == 202, r.text
        time.sleep(0.2)  # polling an HTTP resource: the report says how far it got, not when it will be done
    raise AssertionError("the report never came")


def rating_rows(db: Path, table_id: str) -> int:
    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM rating_changes WHERE table_id = ?", (table_id,)).fetchone()[0])
    finally:
        con.close()


def until_rated(db: Path, table_id: str) -> None:
    deadline = time.monotonic() + 60
    while rating_rows(db, table_id) == 0:
        assert time.monotonic() < deadline, "the table was never rated"
        time.sleep(0.05)


def test_spots_fairplay_lists_an_account_that_copies_the_advisor_and_a_mark_unrates_its_games(tmp_path: Path
                                                                                                  ) -> None:
    db = tmp_path / "t.db"
    with app_on(str(db), rate=1000.0, burst=1000.0) as c:
        ann, bob = sign_up(c, "ann_copies"), sign_up(c, "bob_plays")
        tables = [rated_game(c, db, ann, bob) for _ in range(2)]
        for table_id in tables:
            until_rated(db, table_id)
            report = reported(c, table_id)
            ann_seat = report["players"][0]
            assert ann_seat["decisions"] > 0 and ann_seat["agreed"] == ann_seat["decisions"], ann_seat
        code, out = fairplay_cli(str(db), "list", "--min-games", "2")
        assert code == 0
        listed = [line for line in out.splitlines() if "LISTED" in line]
        assert len(listed) == 1 and listed[0].startswith("ann_copies"), out
        assert "100.0%" in listed[0] and "1 account listed" in out
        code, out = fairplay_cli(str(db), "list", "--all", "--min-games", "2")
        assert "bob_plays" in out and "LISTED" not in out.split("bob_plays")[1].splitlines()[0]
        code, out = fairplay_cli(str(db), "show", "ann_copies")
        assert code == 0 and all(t in out for t in tables) and "2 rated games" in out

        code, out = fairplay_cli(str(db), "mark", "ann_copies", "--why", "copies the advisor")
        assert code == 0 and "unrated from now on" in out
        marked = rated_game(c, db, ann, bob)
        code, out = fairplay_cli(str(db), "unmark", "ann_copies")
        assert code == 0 and "rated again" in out and "marked" not in fairplay_cli(str(db), "show", "ann_copies")[1]
        again = rated_game(c, db, ann, bob)
        until_rated(db, again)  # rated in turn after the marked table, whose ratings were decided first
        assert rating_rows(db, marked) == 0  # the marked player's table counted for nobody
        code, out = fairplay_cli(str(db), "mark", "nobody_here", "--why", "x")
        assert code == 2 and out == ""
