"""Resigning through the WebSocket protocol, on a real SQLite file (issue 41).

A resignation ends the player's game at once: at a rated table of two the game is over for everyone who counts,
stand-ins play it out, and the resigner is rated last; in a game of three the others play on while a stand-in plays
the resigned seat. A resignation is final. Each profile shows the share of its latest rated games finished:
resigning counts, leaving does not.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.web import Msg, app_on, as_, client, new_table, opened, play_to_the_end, sign_up, token, until

pytestmark = pytest.mark.timeout(300)
PATIENT_S = 60.0


def over(msg: Msg) -> bool:
    return msg["type"] == "state" and msg["view"]["over"]


def resign(ws: Any) -> None:
    ws.send_json({"type": "resign"})


def reliability(c: TestClient, name: str) -> Msg:
    r = c.get(f"/api/players/{name}/ratings")
    assert r.status_code == 200, r.text
    return dict(r.json()["reliability"])


RATED = "SELECT a.name, rc.place, rc.ending FROM rating_changes rc JOIN accounts a ON rc.player = 'user:' || a.id"


def rated_rows(db: Path, where: str, value: str) -> list[tuple[str, int, str]]:
    """The stored rating rows (account name, place, ending) matching ``where``."""
    con = sqlite3.connect(db)
    try:
        return con.execute(f"{RATED} WHERE {where} = ?", (value,)).fetchall()
    finally:
        con.close()


def rated_changes(db: Path, table_id: str) -> dict[str, tuple[int, str]]:
    """The table's rating rows once stored: account name -> (place, ending)."""
    deadline = time.monotonic() + PATIENT_S
    while time.monotonic() < deadline:
        rows = rated_rows(db, "rc.table_id", table_id)
        if rows:
            return {name: (place, ending) for name, place, ending in rows}
        time.sleep(0.05)  # the rating is stored in the background after the last move
    raise AssertionError("the table was never rated")


def endings_of(db: Path, name: str) -> list[str]:
    """How each of the account's rated games ended (every table stored by now)."""
    return [ending for _, _, ending in rated_rows(db, "a.name", name)]


def test_resigning_a_rated_game_of_two_ends_it_at_once_and_rates_the_resigner_last(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db, bot_delay=30.0, rate=1000.0) as c:  # no bot is waited for: the stand-ins play out at once
        bob = sign_up(c, "bob_stays")
        ann = sign_up(c, "ann_resigns")
        t = new_table(c, [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], creator_seat=0,
                      rated=True, target=2)
        links = [token(s["link"]) for s in t["seats"]]
        assert as_(c, bob).post(f"/play/{links[1]}/take", follow_redirects=False).status_code == 303
        as_(c, ann)
        with c.websocket_connect(f"/ws/{t['id']}?token={links[0]}") as wa:
            opened(wa)
            resign(wa)
            end = until(wa, over, 4000)["view"]
            assert "ann_resigns resigned: rated last, whatever the board says." in end["absent"]
            wa.send_json({"type": "move", "move": "stop"})
            refused = until(wa, lambda m: m["type"] == "error")
            assert refused["code"] in ("resigned", "game-over"), refused
        assert rated_changes(db, t["id"]) == {"ann_resigns": (2, "resigned"), "bob_stays": (1, "finished")}  # last
        record = c.get(f"/api/tables/{t['id']}/record").json()
        moves = len(record["moves"])
        at = next(first for seat, first, _ in record["stand_ins"] if seat == 0)
        assert sorted(record["stand_ins"]) == [[0, at, moves - 1], [1, at, moves - 1]]  # nobody's moves after it
        assert reliability(c, "ann_resigns") == {"games": 1, "finished": 1, "share": 100}  # resigning is finishing
        assert 'id="reliability" data-share="100"' in c.get("/players/ann_resigns").text


def test_in_a_game_of_three_a_stand_in_plays_the_resigned_seat_and_the_others_play_on(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db, bot_delay=0.0, rate=1000.0) as c:
        seats = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cy")]
        t = new_table(c, seats, target=2)
        links = [token(s["link"]) for s in t["seats"]]
        with c.websocket_connect(f"/ws/{t['id']}?token={links[0]}") as wa, \
                c.websocket_connect(f"/ws/{t['id']}?token={links[1]}") as wb, \
                c.websocket_connect(f"/ws/{t['id']}?token={links[2]}") as wc:
            views = {s: opened(ws)["state"]["view"] for s, ws in enumerate((wa, wb, wc))}
            resign(wb)
            said = until(wa, lambda m: m["type"] == "state" and m["view"]["resigned"])["view"]
            assert said["resigned"] == ["Bob resigned; a stand-in plays their seat to the end."] and not said["over"]
            resign(wb)  # final: saying it again, or anything else, is refused
            assert until(wb, lambda m: m["type"] == "error")["code"] == "resigned"
            views[0] = said
            views[2] = until(wc, lambda m: m["type"] == "state" and m["view"]["resigned"])["view"]
            end = play_to_the_end({0: wa, 2: wc}, views={0: views[0], 2: views[2]})
            assert end["over"] and "Bob resigned; a stand-in plays their seat to the end." in end["absent"]
        con = sqlite3.connect(db)
        try:
            stored = con.execute("SELECT resigned, status FROM tables WHERE id = ?", (t["id"],)).fetchone()
        finally:
            con.close()
        assert json.loads(stored[0])[0][0] == 1 and stored[1] == "over"


def test_leaving_a_rated_game_is_not_finishing_it(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    # bots wait 2 s: longer than a table is looked at here, so a table where the bot moves first is not the one wanted
    with app_on(str(db), bot_delay=2.0, expire_after=1.0, linger_after_end=1.0, rate=1000.0, burst=1000.0) as c:
        sign_up(c, "lea_leaves")
        # a table whose player to move stops: retired after 1 s (where the bot is to move first, it moves in 2 s)
        made = []
        for _ in range(8):
            t = new_table(c, [{"kind": "human", "name": "Lea"}, {"kind": "bot", "bot": "greedy"}], rated=True)
            made.append(t["id"])
            with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
                if opened(ws)["state"]["view"]["to_move"] == 0:
                    break
        ending = rated_changes(db, t["id"])["lea_leaves"][1]
        assert ending == "left"
        t = new_table(c, [{"kind": "human", "name": "Lea"}, {"kind": "bot", "bot": "greedy"}], rated=True)
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            opened(ws)
            resign(ws)
            until(ws, over, 4000)
        assert rated_changes(db, t["id"])["lea_leaves"] == (2, "resigned")
        # a table where the bot was to move first is retired too, the bot then the leaver: Lea finished that one
        for table_id in made:
            rated_changes(db, table_id)  # (each stored by now)
        endings = endings_of(db, "lea_leaves")
        finished = sum(e in ("finished", "resigned") for e in endings)
        assert endings.count("left") == 1 and finished == len(endings) - 1
        assert reliability(c, "lea_leaves") == {"games": len(endings), "finished": finished,
                                                "share": round(100 * finished / len(endings))}
