"""Fair play through the HTTP API and the WebSocket protocol, on a real SQLite file (issue 41).

No advisor at a rated table: the socket refuses ``hint`` to every seat, on its turn or not, until the game is
over, with a reason; an unrated table's creator turns hints off for everyone, and the setting outlives a
restart and carries into the rematch. The lobby row says which.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.web import Msg, app_on, new_table, opened, play_to_the_end, sign_up, token, until

pytestmark = pytest.mark.timeout(300)
TWO = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def ask_hint(ws: Any) -> Msg:
    """Ask for a hint; the answer (a hint or an error)."""
    ws.send_json({"type": "hint"})
    return until(ws, lambda m: m["type"] in ("hint", "error"))


def lobby_row(c: TestClient, table_id: str) -> Msg:
    return next(r for r in c.get("/api/tables").json()["tables"] if r["id"] == table_id)


def rated_pair(c: TestClient) -> tuple[Msg, list[str]]:
    """A rated table of two people, made by a signed-in Ann in seat 0; the two seats' secrets."""
    sign_up(c, "ann_fair")
    t = new_table(c, TWO, creator_seat=0, rated=True)
    return t, [token(s["link"]) for s in t["seats"]]


def test_a_rated_table_refuses_every_seat_a_hint_until_the_game_is_over(tmp_path: Path) -> None:
    with app_on(str(tmp_path / "t.db"), rate=1000.0, burst=1000.0) as c:
        t, links = rated_pair(c)
        assert t["rated"] and t["hints"] == "rated"
        assert lobby_row(c, t["id"])["hints"] == "rated"
        with c.websocket_connect(f"/ws/{t['id']}?token={links[0]}") as ann, \
                c.websocket_connect(f"/ws/{t['id']}?token={links[1]}") as bob:
            views = [opened(ws)["state"]["view"] for ws in (ann, bob)]
            assert views[0]["to_move"] in (0, 1)
            for ws in (ann, bob):  # the player to move and the other alike
                refused = ask_hint(ws)
                assert refused["code"] == "no-hints-rated", refused
                assert "rated table" in refused["message"] and "until the game is over" in refused["message"]
            end = play_to_the_end({0: ann, 1: bob}, views=dict(enumerate(views)))
            assert end["over"]
            assert ask_hint(ann)["code"] == "not-your-turn"  # over: the coach's report, not a hint
        page = c.get(f"/play/{links[0]}").text
        assert 'data-hints="rated"' in page and "No hints: rated." in page
        assert c.get(f"/api/tables/{t['id']}/analysis").status_code in (200, 202)  # the report is unchanged


def test_a_rated_table_cannot_be_asked_for_with_hints_and_the_setting_is_checked(tmp_path: Path) -> None:
    with app_on(str(tmp_path / "t.db")) as c:
        sign_up(c, "cy_fair")
        seats = [{"kind": "human", "name": "Cy"}, {"kind": "bot", "bot": "random", "name": "Rex"}]
        body = {"seats": seats, "tricks": "beginner", "target": 1, "creator_seat": 0}
        for extra, said in (({"rated": True, "hints": True}, "a rated table has no hints"),
                            ({"hints": "no"}, "'hints' must be true")):
            r = c.post("/api/tables", json={**body, **extra})
            assert r.status_code == 400 and said in r.json()["message"], r.text
        assert c.get("/api/tables").json()["counts"]["playing"] == 0  # nothing was made
        assert new_table(c, seats, creator_seat=0)["hints"] == "on"  # unrated: on unless the creator says off
        assert new_table(c, seats, creator_seat=0, rated=True)["hints"] == "rated"


def test_hints_off_hold_for_every_seat_after_a_restart_and_in_the_rematch(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    with app_on(db, rate=1000.0, burst=1000.0) as c:
        on = new_table(c, TWO)
        off = new_table(c, TWO, hints=False)
        assert (on["hints"], off["hints"]) == ("on", "off")
        assert lobby_row(c, off["id"])["hints"] == "off" and lobby_row(c, on["id"])["hints"] == "on"
    with app_on(db, rate=1000.0, burst=1000.0) as c:  # a new server process on the same file
        links = [token(s["link"]) for s in off["seats"]]
        with c.websocket_connect(f"/ws/{off['id']}?token={links[0]}") as ann, \
                c.websocket_connect(f"/ws/{off['id']}?token={links[1]}") as bob:
            views = {seat: opened(ws)["state"]["view"] for seat, ws in enumerate((ann, bob))}
            for ws in (ann, bob):
                refused = ask_hint(ws)
                assert refused["code"] == "hints-off" and "creator turned them off" in refused["message"], refused
            play_to_the_end({0: ann, 1: bob}, views=views)
            for ws in (ann, bob):
                ws.send_json({"type": "rematch"})
            again = until(ann, lambda m: m["type"] == "rematch" and m["next"])
        assert c.get(f"/api/tables/{again['next']}").json()["hints"] == "off"
        on_links = [token(s["link"]) for s in on["seats"]]
        with c.websocket_connect(f"/ws/{on['id']}?token={on_links[0]}") as ann, \
                c.websocket_connect(f"/ws/{on['id']}?token={on_links[1]}") as bob:
            mover = opened(ann)["state"]["view"]["to_move"]
            opened(bob)
            hint = ask_hint((ann, bob)[mover])  # the same question at a table with hints on is answered
            assert hint["type"] == "hint" and hint["advice"], hint
