"""The web app through its HTTP API and WebSocket protocol, on a real SQLite file.

Every test runs the real app (``create_app``) in-process with Starlette's test
client; a "restart" is a new app on the same database file.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

import spots
from spots import i18n
from spots.web.games import hosted
from spots.web.tables.rooms import replay_with_log
from support.processes import PATIENT_S
from support.web import Msg, client, db_moves, is_state, new_table, opened, play, token, until

pytestmark = pytest.mark.timeout(300)


def test_lobby_pages_and_table_list(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        assert "New table" in c.get("/").text
        # seat 0 is the creator's; seat 1 is open, so the table is listed as open until someone takes it
        t = new_table(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob", "open": True}])
        host = c.get(t["host"].replace("http://testserver", ""))
        assert host.status_code == 200 and t["seats"][1]["link"] in host.text
        rows = c.get("/api/tables").json()["tables"]
        assert [r["id"] for r in rows] == [t["id"]] and rows[0]["status"] == "open"
        assert c.get(f"/t/{t['id']}").status_code == 200
        assert c.get("/t/nosuch").status_code == 404
        assert c.get("/play/not-a-token").status_code == 404
        for seat in t["seats"]:  # opening both invite links takes both seats
            assert c.get(seat["link"].replace("http://testserver", "")).status_code == 200
        assert c.get("/api/tables").json()["tables"][0]["status"] == "playing"
        # links are unguessable: 128-bit tokens, all different
        tokens = {token(s["link"]) for s in t["seats"]} | {token(t["host"])}
        assert len(tokens) == 3 and all(len(x) >= 22 for x in tokens)


@pytest.mark.parametrize(("body", "needle"), [
    ({"seats": []}, "seats"),
    ({"seats": [{"kind": "alien"}]}, "kind"),
    ({"seats": [{"kind": "bot", "bot": "skynet"}]}, "unknown bot"),
    ({"seats": [{"kind": "human"}], "tricks": "nonsense"}, "tricks"),
    ({"seats": [{"kind": "human"}], "tricks": "custom", "tiles": ["howl"]}, "2 to 22"),
    ({"seats": [{"kind": "human"}], "target": 0}, "target"),
    ({"seats": [{"kind": "human"}], "options": {"bust_limit": -1}}, "bust_limit"),
    ({"seats": [{"kind": "human"}], "options": {"deck": "/etc/passwd"}}, "unknown option"),
])
def test_bad_table_requests_are_refused_clearly(tmp_path: Path, body: Msg, needle: str) -> None:
    with client(tmp_path / "s.db") as c:
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400 and needle in r.json()["message"]
        assert c.post("/api/tables", content=b"{not json").json()["error"] == "bad-json"
        assert c.get("/api/tables").json()["tables"] == []


def test_variants_and_custom_tiles_reach_the_rules(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c, seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
                      tricks="custom", tiles=["howl", "dig", "track"], target=3,
                      options={"bust_limit": 9, "starting_treats": 2})
        view = c.get(f"/api/tables/{t['id']}").json()["view"]
        assert view["rules"]["tricks"] == ["howl", "dig", "track"]
        assert view["rules"]["bust_limit"] == 9 and view["rules"]["target"] == 3
        assert [p["treats"] for p in view["players"]] == [2, 2, 2]
        assert [p["kind"] for p in view["players"]] == ["human", "bot", "bot"]


def test_two_players_and_a_spectator_see_every_move(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with client(db) as c:
        t = new_table(c)
        tid = t["id"]
        tok = [token(s["link"]) for s in t["seats"]]
        with c.websocket_connect(f"/ws/{tid}?token={tok[0]}") as a, \
                c.websocket_connect(f"/ws/{tid}?token={tok[1]}") as b, \
                c.websocket_connect(f"/ws/{tid}") as spy:
            first = [opened(a), opened(b), opened(spy)]
            assert [f["hello"]["seat"] for f in first] == [0, 1, None]
            assert first[2]["hello"]["role"] == "spectator"
            view = first[0]["state"]["view"]
            # the opening deal and dice are already played and narrated
            assert view["moves"] == len(first[0]["state"]["log"]) >= 7
            socks = [a, b]
            for _ in range(6):
                seat = view["to_move"]
                move = view["legal"][0]["move"]
                ok, mine = play(socks[seat], move, view["moves"])
                assert ok["type"] == "ok", ok
                assert ok["move"] == move and mine is not None
                # every accepted move is in the database before anyone hears of it
                count = ok["moves"]
                seen = [
                    mine if w is socks[seat] else until(w, lambda m, n=count: is_state(m) and m["view"]["moves"] >= n)
                    for w in (a, b, spy)
                ]
                assert len(db_moves(db, tid)) >= ok["moves"]
                assert all(s["view"] == seen[0]["view"] for s in seen)
                assert seen[0]["log"][0].startswith(["Ann", "Bob"][seat])
                view = seen[0]["view"]
            # the spectator cannot act, for any seat
            spy.send_json({"type": "move", "move": view["legal"][0]["move"]})
            assert until(spy, lambda m: m["type"] == "error")["code"] == "spectator"
            other = socks[1 - view["to_move"]]
            other.send_json({"type": "move", "move": view["legal"][0]["move"]})
            assert until(other, lambda m: m["type"] == "error")["code"] == "not-your-turn"
        assert db_moves(db, tid) == c.get(f"/api/tables/{tid}/record").json()["moves"]


def test_bad_input_gets_an_error_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with client(db) as c:
        t = new_table(c)
        tid = t["id"]
        tok = [token(s["link"]) for s in t["seats"]]
        before = c.get(f"/api/tables/{tid}").json()
        seat = before["view"]["to_move"]
        legal = [b["move"] for b in before["view"]["legal"]]
        with c.websocket_connect(f"/ws/{tid}?token={tok[seat]}") as ws, \
                c.websocket_connect(f"/ws/{tid}?token={tok[1 - seat]}") as other:
            opened(ws)
            opened(other)
            cases: list[tuple[Any, str]] = [
                ("{not json", "bad-json"),
                ("[1, 2]", "bad-message"),
                ('{"type": "dance"}', "bad-message"),
                ('{"move": "score"}', "bad-message"),
                (json.dumps({"type": "move"}), "bad-message"),
                (json.dumps({"type": "move", "move": 42}), "bad-message"),
                (json.dumps({"type": "move", "move": "fly away"}), "illegal-move"),
                (json.dumps({"type": "move", "move": "place 9 wilbur"}), "illegal-move"),
                (json.dumps({"type": "move", "move": "bury 6"}), "illegal-move"),
                (json.dumps({"type": "move", "move": "roll 6 6"}), "illegal-move"),
                (json.dumps({"type": "move", "move": legal[0], "seat": 1 - seat}), "wrong-seat"),
                (json.dumps({"type": "move", "move": legal[0], "at": 3}), "stale"),
                (json.dumps({"type": "move", "move": legal[0], "at": "x"}), "bad-message"),
                (json.dumps({"type": "move", "move": "x" * 5000}), "too-large"),
                ("9" * 100_000, "too-large"),
            ]
            for text, code in cases:
                ws.send_text(text)
                reply = until(ws, lambda m: m["type"] == "error")
                assert reply["code"] == code, (text[:60], reply)
                assert reply["message"]
            ws.send_bytes(b"\x00\x01")
            assert until(ws, lambda m: m["type"] == "error")["code"] == "bad-message"
            illegal = json.dumps({"type": "move", "move": "fly away"})
            ws.send_text(illegal)
            assert until(ws, lambda m: m["type"] == "error")["legal"] == legal  # the reply lists the legal moves
            # out of turn, from the other seat's own connection
            other.send_json({"type": "move", "move": legal[0]})
            assert until(other, lambda m: m["type"] == "error")["code"] == "not-your-turn"
            # the connection survives: ping, then a legal move still works
            ws.send_json({"type": "ping"})
            assert until(ws, lambda m: m["type"] in ("pong", "error"))["type"] == "pong"
            after = c.get(f"/api/tables/{tid}").json()
            assert after["view"] == {**before["view"], "players": after["view"]["players"]}
            assert after["log"] == before["log"] and len(db_moves(db, tid)) == before["moves"]
            assert play(ws, legal[0])[0]["type"] == "ok"


def test_a_move_that_cannot_be_saved_is_never_announced(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with client(db) as c:
        t = new_table(c)
        hub = c.app.state.hub  # type: ignore[attr-defined]
        room = hub.rooms[t["id"]]
        seat = room.state.current_player()
        before = room.state.to_json()

        def broken(*args: Any, **kwargs: Any) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        saved = hub.store.append_moves
        hub.store.append_moves = broken
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][seat]['link'])}") as ws, \
                c.websocket_connect(f"/ws/{t['id']}") as spy:
            opened(ws)
            first = opened(spy)["state"]["view"]["moves"]
            reply, state = play(ws, room.state.legal_actions()[0])
            assert reply["code"] == "server-error" and state is None
            assert room.state.to_json() == before and len(db_moves(db, t["id"])) == first
            hub.store.append_moves = saved
            reply, state = play(ws, room.state.legal_actions()[0])  # the same move, once the disk is back
            assert reply["type"] == "ok"
            # the spectator never saw the failed move: its next state is the accepted one
            nxt = until(spy, lambda m: is_state(m) and m["view"]["moves"] > first)
            assert nxt["log_start"] == first and nxt["view"]["moves"] == len(db_moves(db, t["id"]))


def test_a_flood_is_throttled_and_the_connection_survives(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c)
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            opened(ws)
            for _ in range(80):
                ws.send_json({"type": "ping"})
            replies = [until(ws, lambda m: m["type"] in ("pong", "error")) for _ in range(80)]
            codes = [r.get("code", "pong") for r in replies]
            assert "rate-limited" in codes and "pong" in codes
            assert set(codes) == {"pong", "rate-limited"}
            time.sleep(2.2)  # the bucket refills
            ws.send_json({"type": "ping"})
            assert until(ws, lambda m: m["type"] in ("pong", "error"))["type"] == "pong"


def test_unknown_tables_and_bad_links(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c)
        other = new_table(c)
        assert c.get("/api/tables/nosuch").status_code == 404
        assert c.get("/api/tables/nosuch/replay").json()["error"] == "unknown-table"
        with c.websocket_connect("/ws/nosuch") as ws:
            assert ws.receive_json()["code"] == "unknown-table"
        with c.websocket_connect(f"/ws/{t['id']}?token=guessed") as ws:
            assert ws.receive_json()["code"] == "bad-token"
        with c.websocket_connect(f"/ws/{t['id']}?token={token(other['seats'][0]['link'])}") as ws:
            assert ws.receive_json()["code"] == "bad-token"  # a link works only at its own table


def test_joining_a_free_seat_from_the_lobby(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c, seats=[{"kind": "human"}, {"kind": "human", "open": True}, {"kind": "bot", "bot": "random"}])
        tid = t["id"]
        r = c.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "  Zoë <b>  "})
        assert r.status_code == 200
        link = r.json()["link"]
        assert link != t["seats"][1]["link"]  # a fresh token: the old invite for that seat stops working
        assert c.get(t["seats"][1]["link"].replace("http://testserver", "")).status_code == 404
        assert c.get(link.replace("http://testserver", "")).status_code == 200
        assert c.post(f"/api/tables/{tid}/join", json={"seat": 1}).status_code == 409
        assert c.post(f"/api/tables/{tid}/join", json={"seat": 2}).status_code == 409  # a bot seat
        assert c.post(f"/api/tables/{tid}/join", json={"seat": 0}).status_code == 409  # the creator's own seat
        assert c.post(f"/api/tables/{tid}/join", json={"seat": 7}).status_code == 400
        assert c.post(f"/api/tables/{tid}/join", content=b"nope").status_code == 400
        players = c.get("/api/tables").json()["tables"][0]["players"]
        assert players[1]["name"] == "Zoë <b>" and not players[1]["free"] and not players[0]["free"]


def test_reconnecting_resumes_where_the_game_is(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c, seats=[{"kind": "human", "name": "Solo"}], target=3)
        url = f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}"
        with c.websocket_connect(url) as ws:
            view = opened(ws)["state"]["view"]
            for _ in range(5):
                if view["over"]:
                    break
                ok, state = play(ws, view["legal"][-1]["move"], view["moves"])
                assert state is not None, ok
                view = state["view"]
        with c.websocket_connect(url) as ws:
            again = opened(ws)["state"]
            assert again["view"]["moves"] == view["moves"]
            assert len(again["log"]) == view["moves"]
            assert again["view"]["legal"] == view["legal"]
            if not view["over"]:
                ws.send_json({"type": "move", "move": view["legal"][0]["move"], "at": view["moves"]})
                assert until(ws, lambda m: m["type"] in ("ok", "error"))["type"] == "ok"


def test_no_seed_or_future_roll_reaches_a_client(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c)
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            text = json.dumps(opened(ws))
        for secret in ('"rest"', "seed", "agenda", '"chance"', "pending"):
            assert secret not in text
        view = c.get(f"/api/tables/{t['id']}").json()["view"]
        assert set(view["deck"]) == {"top", "left"}  # the remainder's order is never sent


def test_a_whole_game_against_a_bot_then_replay(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with client(db, bot_delay=0.0, rate=1e6) as c:  # the test plays far faster than a person
        t = new_table(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}])
        tid = t["id"]
        with c.websocket_connect(f"/ws/{tid}?token={token(t['seats'][0]['link'])}") as ws:
            view = opened(ws)["state"]["view"]
            hinted = False
            while not view["over"]:
                if view["to_move"] == 0:
                    if not hinted:
                        ws.send_json({"type": "hint"})
                        hint = until(ws, lambda m: m["type"] in ("hint", "error"))
                        assert hint["type"] == "hint" and hint["advice"], hint
                        assert {a["move"] for a in hint["advice"]} <= {b["move"] for b in view["legal"]}
                        assert all(a["bust"] is None or 0 <= a["bust"] <= 1 for a in hint["advice"])
                        hinted = True
                    ok, state = play(ws, view["legal"][0]["move"], view["moves"])
                    assert state is not None, ok
                    view = state["view"]
                else:
                    view = until(ws, lambda m, n=view["moves"]: is_state(m) and m["view"]["moves"] > n)["view"]
            assert re.search(r"wins with \d scored dogs?\.$", view["summary"]["headline"]), view["summary"]
            assert view["winner"] in (0, 1) and view["legal"] == []
        record = c.get(f"/api/tables/{tid}/record").json()
        final = spots.replay(record["moves"], record["rules"])
        assert final.is_terminal() and record["moves"] == db_moves(db, tid)
        total = len(record["moves"])
        mid = c.get(f"/api/tables/{tid}/replay?at=12").json()
        assert mid["at"] == 12 and mid["total"] == total and len(mid["log"]) == 12
        assert mid["move"] == record["moves"][11] and mid["view"]["legal"] == []
        expected = spots.replay(record["moves"][:12], record["rules"])
        assert mid["view"]["turn"] == expected.turn
        assert c.get(f"/api/tables/{tid}/replay?at=0").json()["view"]["moves"] == 0
        assert c.get(f"/api/tables/{tid}/replay").json()["view"]["over"]
        assert c.get("/api/tables").json()["tables"][0]["status"] == "over"
    with client(db) as c:  # finished games stay listed and replayable
        rows = c.get("/api/tables").json()["tables"]
        assert rows[0]["id"] == tid and rows[0]["status"] == "over"
        assert c.get(f"/t/{tid}/replay").status_code == 200


def test_restart_mid_game_puts_every_table_back_and_bots_carry_on(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with client(db, bot_delay=0.01) as c:
        humans = new_table(c, target=3)
        bots = new_table(c, seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}], target=10)
        tok = [token(s["link"]) for s in humans["seats"]]
        view = c.get(f"/api/tables/{humans['id']}").json()["view"]
        for _ in range(4):
            with c.websocket_connect(f"/ws/{humans['id']}?token={tok[view['to_move']]}") as ws:
                opened(ws)
                assert play(ws, view["legal"][-1]["move"])[0]["type"] == "ok"
            view = c.get(f"/api/tables/{humans['id']}").json()["view"]
        deadline = time.time() + PATIENT_S
        while c.get(f"/api/tables/{bots['id']}").json()["moves"] < 30 and time.time() < deadline:
            time.sleep(0.05)
        before = {tid: c.get(f"/api/tables/{tid}").json() for tid in (humans["id"], bots["id"])}
        states = {tid: c.app.state.hub.rooms[tid].state.to_json() for tid in before}  # type: ignore[attr-defined]
    # the bot table may have moved on between the snapshot and the shutdown: compare against the file
    bot_moves = db_moves(db, bots["id"])
    assert not spots.replay(bot_moves, json.loads(states[bots["id"]])["rules"]).is_terminal()
    with client(db, bot_delay=30.0) as c:
        hub = c.app.state.hub  # type: ignore[attr-defined]
        again = c.get(f"/api/tables/{humans['id']}").json()
        assert again["view"] == before[humans["id"]]["view"] and again["log"] == before[humans["id"]]["log"]
        assert hub.rooms[humans["id"]].state.to_json() == states[humans["id"]]
        rules = spots.Rules.from_dict(json.loads(states[bots["id"]])["rules"])
        expected, _ = replay_with_log(hosted()["spots"], rules, bot_moves, ["a", "b"])
        assert hub.rooms[bots["id"]].state == expected
        assert len(bot_moves) >= before[bots["id"]]["moves"]
        # the same seat links still work after the restart
        with c.websocket_connect(f"/ws/{humans['id']}?token={tok[again['view']['to_move']]}") as ws:
            assert opened(ws)["hello"]["seat"] == again["view"]["to_move"]
    with client(db, bot_delay=0.0) as c:  # and the bots carry on by themselves
        deadline = time.time() + PATIENT_S
        row = c.get(f"/api/tables/{bots['id']}").json()
        while row["moves"] <= len(bot_moves) + 20 and not row["view"]["over"] and time.time() < deadline:
            time.sleep(0.05)
            row = c.get(f"/api/tables/{bots['id']}").json()
        assert row["moves"] > len(bot_moves), (row["view"]["status"], row["view"]["over"])


def test_online_search_bots_have_a_clock_and_simple_bots_play_as_ever() -> None:
    """On the server a search bot answers within BOT_CLOCK_MS however busy the machine; offline it has no clock."""
    from spots.web.games import BOT_CLOCK_MS, hosted

    games = hosted()
    for game, bot in [("spots", "expectimax"), ("spots", "mcts"), ("double-spot", "search"),
                      ("double-spot", "expectimax"), ("double-spot", "mcts")]:
        assert games[game].make_bot(bot, 1).time_ms == BOT_CLOCK_MS, (game, bot)
        assert spots.bots.make(bot, 1, game=game).time_ms is None, (game, bot)
    state = spots.Game(spots.Rules(players=2)).new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.sample_chance(rng)
    for bot in ("random", "greedy"):
        assert games["spots"].make_bot(bot, 1).choose(state) in state.legal_actions()


def test_a_language_first_read_while_a_move_is_being_stored_still_gets_that_move(tmp_path: Path) -> None:
    """A reader in a new language (a Vietnamese spectator arriving) while a move waits on the database: the move is
    still applied, and the log in that language has it (it used to fail, the move stored but not played here)."""
    with client(tmp_path / "s.db") as c:
        t = new_table(c)
        hub = c.app.state.hub  # type: ignore[attr-defined]
        room = hub.rooms[t["id"]]
        storing = hub.writer.run

        async def run(work: Any, *args: Any) -> Any:
            if work == hub.store.append_moves:
                room.log_in("vi")  # what a connection in Vietnamese asks for while the write is under way
            return await storing(work, *args)

        hub.writer.run = run
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            view = opened(ws)["state"]["view"]
            if view["to_move"] != 0:  # the dice gave Bob the first turn
                with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][1]['link'])}") as bob:
                    view = opened(bob)["state"]["view"]
                    reply, state = play(bob, view["legal"][0]["move"], view["moves"])
            else:
                reply, state = play(ws, view["legal"][0]["move"], view["moves"])
        assert reply["type"] == "ok" and state is not None, reply
        assert len(db_moves(tmp_path / "s.db", t["id"])) == len(room.log) == state["view"]["moves"]
        vietnamese = replay_with_log(hosted()["spots"], room.state.rules, room.state.history(), room.names_in("vi"),
                                     i18n.translator("vi"))[1]
        assert room.log_in("vi") == vietnamese and len(vietnamese) == len(room.log)
