"""The web app under attack (issue 14), in-process: each test runs one attack and shows it now fails safely.

The app is the real one on a real SQLite file (Starlette's test client, loopback
only, bounded in time). Findings 8 (slowloris), 11's log and lock checks and the
kill -9 test need a real server process: ``test_web_security_server.py``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spots.web import create_app
from spots.web.tables.rooms import STATE, Conn
from support.double_spot_web import HUMANS, stored_table, to_a_claim
from support.processes import PATIENT_S
from support.web import Msg, db_moves, opened, play, token, until

pytestmark = pytest.mark.timeout(300)

TWO = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@contextmanager
def app(db: Path, bot_delay: float = 30.0, **limits: Any) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=bot_delay, **limits)) as c:
        yield c


def create(c: TestClient, seats: list[Msg] | None = None, **body: Any) -> Any:
    return c.post("/api/tables", json={"seats": seats or TWO, "tricks": "beginner", "target": 1, **body})


def made(c: TestClient, seats: list[Msg] | None = None, **body: Any) -> Msg:
    r = create(c, seats, **body)
    assert r.status_code == 201, r.text
    return dict(r.json())


def path(link: str) -> str:
    return link.replace("http://testserver", "")


# ---------------------------------------------------------------- 1. seat sniping


def test_1_a_sniper_polling_the_lobby_cannot_take_invited_or_creator_seats(tmp_path: Path) -> None:
    with app(tmp_path / "s.db", requests_per_second=1000.0) as c:  # (the sniper and the players share an address)
        tables = [made(c) for _ in range(5)]
        taken = 0
        deadline = time.time() + 1.5
        while time.time() < deadline:  # the attack: poll the lobby and try every seat of every table
            for row in c.get("/api/tables").json()["tables"]:
                for p in row["players"]:
                    taken += c.post(f"/api/tables/{row['id']}/join", json={"seat": p["seat"]}).status_code == 200
            time.sleep(0.1)
        assert taken == 0
        for t in tables:  # every invite link and every creator's seat still work
            for seat in t["seats"]:
                assert c.get(path(seat["link"])).status_code == 200
            assert t["seats"][0]["mine"] and not t["seats"][1]["mine"]
        # a seat the creator opened may be taken from the lobby, once
        t = made(c, [TWO[0], {**TWO[1], "open": True}])
        row = next(r for r in c.get("/api/tables?status=open").json()["tables"] if r["id"] == t["id"])
        assert [p["free"] for p in row["players"]] == [False, True]
        assert c.post(f"/api/tables/{t['id']}/join", json={"seat": 1}).status_code == 200
        assert c.post(f"/api/tables/{t['id']}/join", json={"seat": 1}).status_code == 409
        assert create(c, [{**TWO[0], "open": True}, TWO[1]]).status_code == 400  # the creator's seat is not open


# ---------------------------------------------------------------- 2 and 3. bot tables, table floods, the lobby


def test_2_bot_only_tables_are_limited_per_client_and_per_server(tmp_path: Path) -> None:
    bots = [{"kind": "bot", "bot": "expectimax"}] * 4
    with app(tmp_path / "s.db", bot_tables_per_client=2, max_bot_tables=3) as c:
        assert [create(c, bots).status_code for _ in range(4)] == [201, 201, 429, 429]
        r = create(c, bots)
        assert "only bots play" in r.json()["message"] and int(r.headers["retry-after"]) > 0
        assert create(c, [TWO[0], *bots[:3]]).status_code == 201  # a person at the table is fine
        hub = c.app.state.hub  # type: ignore[attr-defined]
        first, second = (r for r in hub.rooms.values() if r.bot_only)
        first.row.owner = "someone else"  # as if another client had made it
        assert create(c, bots).status_code == 201  # this client is back at 2 of its own; 3 on the server
        second.row.owner = "a third client"
        r = create(c, bots)
        assert r.status_code == 503 and r.json()["error"] == "server-full"  # 3 on the server


def test_3_a_table_flood_is_throttled_and_the_lobby_stays_small(tmp_path: Path) -> None:
    with app(tmp_path / "s.db", tables_per_minute=60, tables_per_client=15) as c:
        codes = [create(c).status_code for _ in range(40)]
        assert codes[:10] == [201] * 10 and codes.count(201) <= 12  # a burst of 10, then one a second
        r = create(c)
        assert r.status_code == 429 and r.json()["error"] == "too-many-tables" and "retry-after" in r.headers
        listed = c.get("/api/tables?status=playing&limit=5").json()
        assert len(listed["tables"]) == 5 and listed["counts"]["playing"] == codes.count(201)
        assert c.get("/api/tables?limit=5000").status_code == 400
        hub = c.app.state.hub  # type: ignore[attr-defined]
        hub.new_tables.buckets.clear()
        while create(c).status_code == 201:
            hub.new_tables.buckets.clear()
        r = create(c)
        assert r.status_code == 429 and "unfinished tables" in r.json()["message"] and len(hub.rooms) == 15


def test_3_abandoned_tables_expire_and_finished_ones_are_not_replayed_at_start_up(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with app(db, expire_after=0.5, linger_after_end=0.5, rate=1e9, burst=1e9) as c:  # no message limit here
        idle = made(c)
        solo = made(c, [{"kind": "human", "name": "Solo"}], target=1)
        with c.websocket_connect(f"/ws/{solo['id']}?token={token(solo['seats'][0]['link'])}") as ws:
            view = opened(ws)["state"]["view"]
            while not view["over"]:
                reply, state = play(ws, view["legal"][-1]["move"], view["moves"])
                assert state is not None, reply
                view = state["view"]
        hub = c.app.state.hub  # type: ignore[attr-defined]
        deadline = time.time() + PATIENT_S
        while (idle["id"] in hub.rooms or solo["id"] in hub.rooms) and time.time() < deadline:
            time.sleep(0.1)
        assert idle["id"] not in hub.rooms and solo["id"] not in hub.rooms
        assert c.get(path(idle["seats"][0]["link"])).status_code == 404  # retired: its links are gone
        over = c.get("/api/tables?status=over").json()["tables"]
        assert [r["id"] for r in over] == [solo["id"]] and over[0]["status"] == "over"
    with app(db) as c:  # a restart loads neither
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert hub.rooms == {}
        assert c.get(f"/api/tables/{solo['id']}").json()["view"]["over"]  # read back on demand
        assert c.get(f"/api/tables/{solo['id']}/replay?at=3").json()["at"] == 3
        assert c.get(f"/api/tables/{idle['id']}").status_code == 404


# ---------------------------------------------------------------- 4. viewers


def test_4_viewers_coming_and_going_send_nothing_to_the_others(tmp_path: Path) -> None:
    with app(tmp_path / "s.db") as c:
        t = made(c)
        with c.websocket_connect(f"/ws/{t['id']}") as first:
            opened(first)
            for _ in range(30):  # 30 spectators come and go
                with c.websocket_connect(f"/ws/{t['id']}") as other:
                    opened(other)
            first.send_json({"type": "ping"})
            assert first.receive_json()["type"] == "pong"  # no state was pushed to the first viewer meanwhile


def test_4_a_viewer_that_stops_reading_is_owed_one_state_then_dropped() -> None:
    conn = Conn(None, limit=4)
    for _ in range(1000):  # a thousand changes while the viewer reads nothing
        conn.state_changed()
    assert list(conn.outbox) == [STATE] and not conn.dropped  # owed one state, not a backlog
    for i in range(10):
        conn.send(f"message {i}")
    assert conn.dropped and len(conn.outbox) == 4  # a full outbox: dropped, nothing more is queued


def test_4_a_flooding_client_is_read_more_slowly_and_one_that_stops_reading_is_dropped() -> None:
    async def flood(reading: bool) -> Conn:
        conn = Conn(None, limit=4)
        conn.send("reply 1")
        conn.send("reply 2")  # half the outbox unsent: the next reply waits for the writer

        async def writer() -> None:
            await asyncio.sleep(0.01)
            conn.outbox.clear()  # the client took its messages
            conn.drained.set()

        task = asyncio.get_running_loop().create_task(writer()) if reading else None
        await conn.make_room(timeout=10.0 if reading else 0.2)  # a reader drains at once: no stall can fail it
        conn.send("reply 3")
        if task:
            await task
        return conn

    read = asyncio.run(flood(reading=True))
    assert not read.dropped and list(read.outbox) == ["reply 3"]
    stopped = asyncio.run(flood(reading=False))
    assert stopped.dropped and "reply 3" not in stopped.outbox


# ---------------------------------------------------------------- 5 and 9. bodies and bad input


def test_5_bodies_are_refused_before_they_are_read(tmp_path: Path) -> None:
    with app(tmp_path / "s.db") as c:
        t = made(c)
        r = c.post("/api/tables", content=b"{}", headers={"content-length": str(1 << 30)})
        assert r.status_code == 413 and r.json()["error"] == "too-large"

        def stream(total: int) -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            sent = 0
            while sent < total:
                sent += 65536
                yield b" " * 65536

        assert c.post("/api/tables", content=stream(1 << 24)).status_code == 413
        assert c.post(f"/api/tables/{t['id']}/join", content=stream(1 << 20)).status_code == 413
        assert c.post(f"/api/tables/{t['id']}/join", content=b" " * 5000).status_code == 413


@pytest.mark.parametrize("body", [
    "[" * 100000 + "]" * 100000,
    '{"seats": ' + "[" * 50 + "]" * 50 + "}",
    '{"seats": [{"kind": "human", "name": "\\ud800"}]}',
    '{"seats": [{"kind": "human", "name": "a\\u0000b"}]}',
    b'{"seats": "\xff\xfe"}',
])
def test_9_malformed_requests_get_a_clear_400(tmp_path: Path, body: str | bytes) -> None:
    with app(tmp_path / "s.db") as c:
        t = made(c, [TWO[0], {**TWO[1], "open": True}])
        for url in ("/api/tables", f"/api/tables/{t['id']}/join"):
            r = c.post(url, content=body if isinstance(body, bytes) else body.encode())
            assert r.status_code in (400, 413) or (url.endswith("join") and r.status_code == 409), r.text
            assert r.json()["error"] in ("bad-json", "bad-text", "bad-table", "too-large", "bad-seat")
        r = c.post(f"/api/tables/{t['id']}/join", content=b'{"seat": 1, "name": "\\udc80x"}')
        assert r.status_code == 400 and "surrogate" in r.json()["message"]
        assert c.get("/api/tables").json()["counts"]["open"] == 1  # nothing changed


# ---------------------------------------------------------------- 6. hints and replays


def test_6_hints_are_cached_per_position_and_limited(tmp_path: Path) -> None:
    with app(tmp_path / "s.db", hints_per_minute=60, rate=1000.0, burst=1000.0) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        calls: list[int] = []
        real = hub.workers.hint

        async def counted(*args: Any) -> Any:
            calls.append(1)
            return await real(*args)

        hub.workers.hint = counted
        t = made(c, [{"kind": "human", "name": "Solo"}], target=3)
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            view = opened(ws)["state"]["view"]
            replies = []
            for _ in range(8):  # the same position, asked again and again
                ws.send_json({"type": "hint"})
                replies.append(until(ws, lambda m: m["type"] in ("hint", "error")))
            assert all(r["type"] == "hint" for r in replies) and len(calls) == 1
            codes = []
            for _ in range(8):  # a new position each time: the per-client bucket (burst 3) runs dry
                if view["over"]:
                    break
                view = play(ws, view["legal"][-1]["move"], view["moves"])[1]["view"]  # type: ignore[index]
                ws.send_json({"type": "hint"})
                codes.append(until(ws, lambda m: m["type"] in ("hint", "error")).get("code", "hint"))
            assert "hint-limit" in codes and len(calls) <= 4


def test_6_the_replay_endpoint_does_not_replay_the_game_per_request(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from spots.web.tables import replays

    with app(tmp_path / "s.db", bot_delay=0.0, requests_per_second=1000.0) as c:
        t = made(c, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}], target=2)
        deadline = time.time() + PATIENT_S
        while not c.get(f"/api/tables/{t['id']}").json()["view"]["over"] and time.time() < deadline:
            time.sleep(0.1)
        builds: list[int] = []
        real = replays.Replays._build
        monkeypatch.setattr(replays.Replays, "_build", staticmethod(lambda *a: builds.append(1) or real(*a)))
        total = c.get(f"/api/tables/{t['id']}/replay").json()["total"]
        answers = [c.get(f"/api/tables/{t['id']}/replay?at={n}").json() for n in range(0, total, 3)]
        assert builds == [1]  # one pass over the game for all those requests
        assert [a["at"] for a in answers] == list(range(0, total, 3))
        again = c.get(f"/api/tables/{t['id']}/replay?at=3").json()
        assert again == answers[1]


# ---------------------------------------------------------------- 7. database faults


class WriteLock:
    """Another process's write lock on the file (here another connection), held until ``release``."""

    def __init__(self, db: Path) -> None:
        self.con = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        self.con.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.con.execute("ROLLBACK")
        self.con.close()


def test_7_a_locked_database_never_freezes_the_server_and_bots_resume(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with app(db, bot_delay=0.02) as c:
        bots = made(c, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}], target=20)
        humans = made(c)
        deadline = time.time() + PATIENT_S
        while not db_moves(db, bots["id"]) and time.time() < deadline:  # the bots are playing
            time.sleep(0.05)
        lock = WriteLock(db)
        frozen = db_moves(db, bots["id"])
        for _ in range(10):  # the event loop keeps answering while the file is locked
            assert c.get("/api/tables").status_code == 200
        with c.websocket_connect(f"/ws/{humans['id']}?token={token(humans['seats'][1]['link'])}") as ws:
            msg = ws.receive_json()  # claiming the seat needs a write: a clear error, not a dropped socket
            assert msg["code"] == "server-busy" and msg["retry_after"] > 0
        page = c.get(path(humans["seats"][1]["link"]))
        assert page.status_code == 503 and "retry-after" in page.headers
        assert db_moves(db, bots["id"]) == frozen
        lock.release()
        deadline = time.time() + PATIENT_S
        while len(db_moves(db, bots["id"])) <= len(frozen) + 5 and time.time() < deadline:
            time.sleep(0.1)
        assert len(db_moves(db, bots["id"])) > len(frozen) + 5  # the bots carried on by themselves
        with c.websocket_connect(f"/ws/{humans['id']}?token={token(humans['seats'][1]['link'])}") as ws:
            assert opened(ws)["hello"]["seat"] == 1


def test_7_a_full_disk_gives_a_clear_503(tmp_path: Path) -> None:
    with app(tmp_path / "s.db") as c:
        store = c.app.state.hub.store  # type: ignore[attr-defined]

        def full(*args: Any, **kwargs: Any) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        store.create_table = full
        r = create(c)
        assert r.status_code == 503 and "disk is full" in r.json()["message"] and int(r.headers["retry-after"]) > 0
        assert c.get("/api/tables").json()["tables"] == []


# ---------------------------------------------------------------- 10. a move for the position it was meant for


def test_10_the_same_move_from_several_connections_is_applied_once(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with app(db, rate=1000.0, burst=1000.0) as c:
        t = made(c, [{"kind": "human", "name": "Solo"}], target=3)
        url = f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}"
        with c.websocket_connect(url) as a, c.websocket_connect(url) as b, c.websocket_connect(url) as d:
            socks = [a, b, d]
            views = [opened(ws)["state"]["view"] for ws in socks]
            for _ in range(15):
                time.sleep(0.35)  # a person's pace: the previous move is not what these are meant for
                view = views[0]
                if view["over"]:
                    break
                move = view["legal"][0]["move"]
                for ws in socks:  # the same move, at once, without 'at'
                    ws.send_json({"type": "move", "move": move})
                replies = [until(ws, lambda m: m["type"] in ("ok", "error")) for ws in socks]
                assert sum(r["type"] == "ok" for r in replies) == 1, replies
                assert {r.get("code") for r in replies if r["type"] == "error"} <= {"stale"}
                views = [c.get(f"/api/tables/{t['id']}").json()["view"]]
        record = db_moves(db, t["id"])
        assert len(record) == views[0]["moves"]


def test_10_a_late_claim_does_not_land_in_the_next_race(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    rules, moves = to_a_claim()
    table = stored_table(db, rules, moves, HUMANS)
    with app(db) as c:
        seats = {s.seat: s.token for s in c.app.state.hub.rooms[table].row.seats}  # type: ignore[attr-defined]
        with c.websocket_connect(f"/ws/{table}?token={seats[0]}") as ann, \
                c.websocket_connect(f"/ws/{table}?token={seats[1]}") as bob:
            opened(ann), opened(bob)
            bob.send_json({"type": "move", "move": "claim 1"})
            ann.send_json({"type": "move", "move": "claim 0"})  # sent before Ann saw Bob's claim
            assert until(bob, lambda m: m["type"] in ("ok", "error"))["type"] == "ok"
            late = until(ann, lambda m: m["type"] in ("ok", "error"))
            assert late["type"] == "error" and late["code"] == "stale"
        assert db_moves(db, table)[len(moves)] == "claim 1" and "claim 0" not in db_moves(db, table)[len(moves):]


# ---------------------------------------------------------------- 11. start-up and deployment


def test_11_links_come_from_the_public_url_and_pages_carry_security_headers(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "s.db", public_url="https://spots.example.org/")) as c:
        r = c.post("/api/tables", json={"seats": TWO}, headers={"Host": "evil.example"})
        data = r.json()
        links = [data["host"], data["watch"], *(s["link"] for s in data["seats"])]
        assert all(link.startswith("https://spots.example.org/") for link in links), links
        host = c.get(path(data["host"]).replace("https://spots.example.org", ""), headers={"Host": "evil.example"})
        assert "evil.example" not in host.text and "https://spots.example.org/play/" in host.text
        nonces = set()
        for url in ("/", "/rules", "/api/tables", path(data["watch"]).replace("https://spots.example.org", "")):
            r = c.get(url)
            csp = r.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp
            assert r.headers["x-content-type-options"] == "nosniff" and r.headers["referrer-policy"] == "same-origin"
            scripts = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
            assert "unsafe" not in scripts, csp  # no inline script runs unless it carries this response's nonce
            nonce = re.fullmatch(r".*'nonce-([\w-]+)'.*", scripts)
            assert nonce, csp
            nonces.add(nonce[1])
            inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", r.text)
            assert all(f'nonce="{nonce[1]}"' in attrs for attrs in inline), inline
        assert len(nonces) == 4  # a new nonce for every response


def test_11_a_tutorial_of_an_unknown_game_is_refused_and_makes_no_table(tmp_path: Path) -> None:
    with app(tmp_path / "s.db") as c:
        r = c.post("/learn", data={"game": "chess"}, follow_redirects=False)
        assert r.status_code == 400 and "chess" in r.text and "spots, double-spot" in r.text, r.text
        assert c.get("/api/tables").json()["tables"] == []
        r = c.post("/learn", data={"game": "double-spot", "name": "Zoë"}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"].endswith("?learn=1"), r.headers
        seat = c.get(r.headers["location"])
        assert "tutorial_double_spot.js" in seat.text and "Welcome to Double Spot!" in seat.text
        assert "tutorial_spots.js" not in seat.text


def test_11_damaged_tables_are_quarantined_and_reported(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "s.db"
    with app(db) as c:
        good, bad_rules, bad_move = (made(c)["id"] for _ in range(3))
    con = sqlite3.connect(db)
    con.execute("UPDATE tables SET rules = 'not json {' WHERE id = ?", (bad_rules,))
    con.execute("UPDATE moves SET move = 'fly to the moon' WHERE table_id = ? AND idx = 2", (bad_move,))
    con.commit()
    con.close()
    with caplog.at_level(logging.ERROR, logger="spots.web"), app(db) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        assert set(hub.rooms) == {good}
        assert set(hub.quarantined) == {bad_rules, bad_move}
        assert "not a JSON object" in hub.quarantined[bad_rules] and "moon" in hub.quarantined[bad_move]
        assert c.get(f"/api/tables/{bad_move}").status_code == 404
    assert bad_rules in caplog.text and bad_move in caplog.text and "quarantined" in caplog.text
    con = sqlite3.connect(db)
    statuses = dict(con.execute("SELECT id, status FROM tables").fetchall())
    con.close()
    assert statuses == {good: "playing", bad_rules: "quarantined", bad_move: "quarantined"}


def test_11_bad_database_files_give_one_line_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    from spots.web.store import StoreError

    good = tmp_path / "good.db"
    with app(good) as c:
        for _ in range(5):
            made(c)
    cases = {"empty.db": b"", "junk.db": b"this is not a database" * 100,
             "truncated.db": good.read_bytes()[: good.stat().st_size // 2 + 100]}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(StoreError) as err:
            create_app(tmp_path / name)
        text = str(err.value)
        assert "\n" not in text and str(tmp_path / name) in text, text
        assert any(w in text for w in ("empty", "damaged", "not a SQLite")), text
    monkeypatch.setattr("os.access", lambda *a: False)  # (the tests may run as root, who may write anything)
    with pytest.raises(StoreError, match="read-only"):
        create_app(good)


def test_11_one_server_per_database_file(tmp_path: Path) -> None:
    from spots.web.store import StoreError

    with app(tmp_path / "s.db"), pytest.raises(StoreError, match="another server is already using it"):
        create_app(tmp_path / "s.db")
    with app(tmp_path / "s.db"):  # free again once the first has stopped
        pass


def test_json_shapes_the_lobby_relies_on(tmp_path: Path) -> None:
    """The lobby list keeps its old shape (``tables``), with counts and paging added."""
    with app(tmp_path / "s.db") as c:
        made(c)
        data = c.get("/api/tables").json()
        assert set(data) == {"tables", "counts", "offset", "limit"} and json.dumps(data)
        assert data["tables"][0]["players"][1]["invited"] is True
