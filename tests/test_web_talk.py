"""Table talk, rematch and ratings through the HTTP API and the WebSocket protocol, on a real SQLite file.

The refusals (issue 25): a chat flood and an oversized message are refused with a clear error and nothing
stored; nobody can submit a result (ratings come only from the server's finished record); a table of bots
never changes a person's rating; an unrated table changes nothing.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from fastapi.testclient import TestClient

from spots.web import create_app
from support.processes import PATIENT_S
from support.web import play_to_the_end

pytestmark = pytest.mark.timeout(300)

Msg = dict[str, Any]
TWO = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@contextmanager
def client(db: Path, bot_delay: float = 0.0, **limits: Any) -> Iterator[TestClient]:
    app = create_app(db, bot_delay=bot_delay, rate=1000.0, burst=1000.0, requests_per_second=1000.0, **limits)
    with TestClient(app) as c:
        yield c


def new_table(c: TestClient, seats: list[Msg] | None = None, **body: Any) -> Msg:
    r = c.post("/api/tables", json={"seats": seats or TWO, "tricks": "beginner", "target": 1, **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def until(ws: Any, pred: Callable[[Msg], bool], limit: int = 2000) -> Msg:
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("the expected message never came")


def of_type(kind: str) -> Callable[[Msg], bool]:
    return lambda m: m["type"] == kind


def listen(ws: Any) -> Msg:
    """Ask for table talk (a client that never does gets no talk messages); the talk so far."""
    ws.send_json({"type": "talk"})
    return until(ws, of_type("chat-history"))


def chat_rows(db: Path, table_id: str) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT channel, text FROM chat WHERE table_id = ? ORDER BY at", (table_id,)).fetchall()


def sign_up(c: TestClient, name: str) -> None:
    r = c.post("/signup", data={"name": name, "password": "correct horse battery"}, follow_redirects=False)
    assert r.status_code == 303, r.text


class Seated(NamedTuple):
    table: Msg
    tokens: list[str]  # the human seats' secrets, in seat order
    ann: Any  # seat 0's socket
    bob: Any  # seat 1's socket


@contextmanager
def two_players(c: TestClient, seats: list[Msg] | None = None) -> Iterator[Seated]:
    """A new table and its two players' sockets, both listening to table talk."""
    t = new_table(c, seats)
    tok = [token(s["link"]) for s in t["seats"] if s["link"]]
    with c.websocket_connect(f"/ws/{t['id']}?token={tok[0]}") as ann, \
            c.websocket_connect(f"/ws/{t['id']}?token={tok[1]}") as bob:
        listen(ann)
        listen(bob)
        yield Seated(t, tok, ann, bob)


def test_players_talk_spectators_talk_apart_and_everything_is_stored(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        t = new_table(c)
        tok = [token(s["link"]) for s in t["seats"]]
        with c.websocket_connect(f"/ws/{t['id']}?token={tok[0]}") as ann, \
                c.websocket_connect(f"/ws/{t['id']}?token={tok[1]}&lang=es") as bob, \
                c.websocket_connect(f"/ws/{t['id']}") as spy:
            for ws in (ann, bob, spy):
                assert listen(ws)["lines"] == []
            ann.send_json({"type": "chat", "text": "hi <b>Bob</b>"})
            assert until(bob, of_type("chat"))["line"]["text"] == "hi <b>Bob</b>"  # as typed: the page escapes it
            assert until(spy, of_type("chat"))["line"]["name"] == "Ann"  # spectators read the players
            spy.send_json({"type": "chat", "text": "Ann will bust"})
            assert until(spy, of_type("chat"))["line"]["channel"] == "watchers"
            bob.send_json({"type": "chat", "phrase": "good-luck"})
            assert until(bob, of_type("chat"))["line"]["text"] == "¡Suerte!"  # in the reader's language
            heard = [until(ann, of_type("chat"))["line"]["text"] for _ in range(2)]
            assert heard == ["hi <b>Bob</b>", "Good luck!"]  # Ann never got the spectator's line
            bob.send_json({"type": "watchers", "on": True})  # Bob turns the spectators' chat on
            history = until(bob, of_type("chat-history"))
            assert [line["text"] for line in history["lines"]] == ["hi <b>Bob</b>", "Ann will bust", "¡Suerte!"]
        assert chat_rows(db, t["id"]) == [("players", "hi <b>Bob</b>"), ("watchers", "Ann will bust"),
                                          ("players", "Good luck!")]
    with client(db) as c:  # after a restart the talk is still there, for the replay too
        lines = c.get(f"/api/tables/{t['id']}/chat").json()["lines"]
        assert [(line["channel"], line["text"]) for line in lines] == chat_rows(db, t["id"])


def test_a_flood_and_an_oversized_message_are_refused_and_not_stored(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db, chat_length=50, chat_per_minute=6.0) as c:
        with two_players(c) as (t, _, ann, bob):
            ann.send_json({"type": "chat", "text": "x" * 51})
            error = until(ann, of_type("error"))
            assert error["code"] == "chat-too-long" and "50 characters" in error["message"] and "51" in error["message"]
            ann.send_json({"type": "chat", "text": "   "})
            assert until(ann, of_type("error"))["code"] == "empty-chat"
            ann.send_json({"type": "chat", "phrase": "boo"})
            assert "good-luck" in until(ann, of_type("error"))["message"]  # the message lists the phrases
            for i in range(5):  # the burst
                ann.send_json({"type": "chat", "text": f"spam {i}"})
                until(ann, of_type("chat"))
            ann.send_json({"type": "chat", "text": "spam 5"})
            error = until(ann, of_type("error"))
            assert error["code"] == "chat-rate" and error["retry_after"] >= 1 and "not sent" in error["message"]
            bob.send_json({"type": "chat", "text": "I can still talk"})  # the limit is per sender
            assert until(ann, lambda m: m["type"] == "chat" and m["line"]["seat"] == 1)["line"]["text"] == \
                "I can still talk"
        texts = [text for _, text in chat_rows(db, t["id"])]
        assert texts == [f"spam {i}" for i in range(5)] + ["I can still talk"]


def test_a_line_that_cannot_be_stored_is_refused_and_heard_by_nobody(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        with two_players(c) as (t, _, ann, bob):
            ann.send_json({"type": "chat", "text": "stored"})
            assert until(bob, of_type("chat"))["line"]["text"] == "stored"
            with sqlite3.connect(db) as con:  # from now on the file refuses chat lines (as a full disk would)
                con.execute("CREATE TRIGGER no_chat BEFORE INSERT ON chat BEGIN SELECT RAISE(ABORT, 'disk is full');"
                            " END")
            ann.send_json({"type": "chat", "text": "lost"})
            error = until(ann, of_type("error"))
            assert error["code"] == "server-error" and "could not be saved" in error["message"], error
            bob.send_json({"type": "ping"})
            assert until(bob, lambda m: m["type"] in ("chat", "pong"))["type"] == "pong"  # Bob heard nothing
        assert [text for _, text in chat_rows(db, t["id"])] == ["stored"]


def test_invisible_format_characters_are_taken_out_of_a_line(tmp_path: Path) -> None:
    """A right-to-left override or a zero-width space makes a line read other than it is (issue 42, finding 10):
    they are taken out; the joiners that emoji and scripts need stay; a line of nothing else is empty."""
    db = tmp_path / "t.db"
    with client(db) as c:
        with two_players(c) as (t, _, ann, bob):
            ann.send_json({"type": "chat", "text": "\u202eevil\u200b gg\u2066!\u2069\ufeff"})
            assert until(bob, of_type("chat"))["line"]["text"] == "evil gg!"
            family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
            ann.send_json({"type": "chat", "text": f"hi {family}"})
            assert until(bob, of_type("chat"))["line"]["text"] == f"hi {family}"
            ann.send_json({"type": "chat", "text": "\u200b\u202e"})
            assert until(ann, of_type("error"))["code"] == "empty-chat"
        assert [text for _, text in chat_rows(db, t["id"])] == ["evil gg!", f"hi {family}"]


def test_lines_said_at_once_are_stored_together_in_their_order(tmp_path: Path) -> None:
    """Table talk's own writer (chatlog.py) stores the lines said while one write is under way in one statement;
    each table's talk reads back in the order it was said."""
    import asyncio

    from spots.web.store import Store
    from spots.web.talk.chatlog import ChatLog

    store = Store(tmp_path / "t.db")
    try:
        tables = [store.create_table("spots", {"players": 2}, TWO, []).id for _ in range(2)]
        writes: list[int] = []
        add_chats = store.add_chats
        store.add_chats = lambda lines: writes.append(len(lines)) or add_chats(lines)  # type: ignore[method-assign]

        async def say_all() -> list[Msg]:
            log = ChatLog(store)
            try:
                line = {"moves": 0, "channel": "players", "seat": 0, "author": "seat:0", "name": "Ann", "phrase": None}
                return await asyncio.gather(*(log.add(tables[i % 2], {**line, "text": f"line {i}"})
                                              for i in range(120)))
            finally:
                log.close()

        stored = asyncio.run(say_all())
        assert [s["text"] for s in stored] == [f"line {i}" for i in range(120)]  # each sender got its own line
        assert sum(writes) == 120 and len(writes) < 120 and max(writes) <= store.CHAT_BATCH
        for k, table_id in enumerate(tables):
            assert [line["text"] for line in store.chat_of(table_id)] == [f"line {i}" for i in range(k, 120, 2)]
    finally:
        store.close()


def test_the_creator_mutes_with_the_host_secret_and_nobody_else_can(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        with two_players(c) as (t, tok, ann, bob):
            bob.send_json({"type": "mute", "author": "seat:0"})
            assert until(bob, of_type("error"))["code"] == "not-host"
            bob.send_json({"type": "host", "token": tok[1]})  # a seat's secret is not the host's
            assert until(bob, of_type("error"))["code"] == "bad-host"
            ann.send_json({"type": "host", "token": token(t["host"])})
            assert until(ann, lambda m: m["type"] == "chat-history" and m["host"])["host"]
            ann.send_json({"type": "mute", "author": "seat:1"})
            assert until(bob, of_type("muted"))["muted"] == ["seat:1"]
            bob.send_json({"type": "chat", "text": "let me speak"})
            assert until(bob, of_type("error"))["code"] == "muted"
            ann.send_json({"type": "mute", "author": "seat:1", "on": False})
            assert until(bob, of_type("muted"))["muted"] == []
            bob.send_json({"type": "chat", "text": "thanks"})
            assert until(ann, of_type("chat"))["line"]["text"] == "thanks"
        assert [text for _, text in chat_rows(db, t["id"])] == ["thanks"]


def test_a_rematch_needs_every_human_and_takes_each_to_their_rotated_seat(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        with two_players(c, [*TWO, {"kind": "bot", "bot": "random", "name": "Rex"}]) as (t, _, ann, bob):
            ann.send_json({"type": "rematch"})
            assert until(ann, of_type("error"))["code"] == "not-over"
            play_to_the_end({0: ann, 1: bob})
            ann.send_json({"type": "rematch"})
            waiting = until(bob, of_type("rematch"))
            assert waiting["accepted"] == [0] and waiting["waiting"] == ["Bob"] and waiting["next"] is None
            assert waiting["waiting_seats"] == [1]
            bob.send_json({"type": "rematch"})
            to_ann, to_bob = until(ann, lambda m: m["type"] == "rematch" and m["next"]), \
                until(bob, lambda m: m["type"] == "rematch" and m["next"])
        new = c.get(f"/api/tables/{to_ann['next']}").json()
        assert [p["name"] for p in new["players"]] == ["Bob", "Rex", "Ann"]  # everyone moved up one seat
        assert to_ann["link"] != to_bob["link"]  # each their own secret link
        with c.websocket_connect(f"/ws/{new['id']}?token={token(to_ann['link'])}") as ws:
            assert until(ws, of_type("hello"))["seat"] == 2
        with c.websocket_connect(f"/ws/{new['id']}?token={token(to_bob['link'])}") as ws:
            assert until(ws, of_type("hello"))["seat"] == 0
        assert c.get(f"/api/tables/{t['id']}/chat").json()["next"] == new["id"]  # the old table points on
        over = c.get("/api/tables?status=over").json()["tables"]
        assert next(row for row in over if row["id"] == t["id"])["next"] == new["id"]
        with c.websocket_connect(f"/ws/{t['id']}") as spy:  # a spectator of the old table is shown the new one
            spy.send_json({"type": "talk"})
            assert until(spy, of_type("rematch"))["link"] == f"/t/{new['id']}"
            spy.send_json({"type": "rematch"})
            assert until(spy, of_type("error"))["code"] == "spectator"


def test_a_rematch_keeps_the_clock_and_a_yes_said_again_tells_nobody_again(tmp_path: Path) -> None:
    """Issue 42's untested list, a rematch flood: every repeated yes was written and sent to every viewer again
    (past the table caps nothing was made, but each one cost a write and a message to all); and the rematch of a
    clocked table had no clock, so a clocked rated game's rematch could be left to stall."""
    with client(tmp_path / "t.db") as c:
        t = new_table(c, clock={"pace": "real-time", "minutes": 5})
        tok = [token(s["link"]) for s in t["seats"]]
        with c.websocket_connect(f"/ws/{t['id']}?token={tok[0]}") as ann, \
                c.websocket_connect(f"/ws/{t['id']}?token={tok[1]}") as bob:
            listen(ann)
            listen(bob)
            play_to_the_end({0: ann, 1: bob})
            for _ in range(30):
                ann.send_json({"type": "rematch"})
            ann.send_json({"type": "chat", "text": "again?"})  # Bob hears it after all that the 30 yeses caused
            told = []
            while (msg := bob.receive_json())["type"] != "chat":
                told += [msg] if msg["type"] == "rematch" else []
            assert [m["accepted"] for m in told] == [[0]]  # told once
            bob.send_json({"type": "rematch"})
            done = until(bob, lambda m: m["type"] == "rematch" and m["next"])
        new = c.get(f"/api/tables/{done['next']}").json()
        assert new["clock"]["mode"] == "real-time" and max(seat["left"] for seat in new["clock"]["seats"]) == 300


def ratings(c: TestClient, name: str) -> list[Msg]:
    r = c.get(f"/api/players/{name}/ratings")
    assert r.status_code == 200, r.text
    return list(r.json()["ratings"])


def test_a_rated_game_against_a_bot_moves_the_person_and_not_the_bot(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db, leaderboard_min_games=1) as c:
        r = c.post("/api/tables", json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
                                        "tricks": "beginner", "target": 1, "rated": True})
        assert r.status_code == 400 and "sign in" in r.json()["message"]  # a guest cannot make a rated table
        sign_up(c, "annie")
        t = new_table(c, [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}], rated=True)
        assert t["rated"]
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            listen(ws)
            play_to_the_end({0: ws})
            news = until(ws, of_type("ratings"))["changes"]
        mine = next(n for n in news if not n["bot"])
        bot = next(n for n in news if n["bot"])
        assert mine["player"] == "annie" and mine["before"] == "25.0 ± 16.7" and mine["after"] != mine["before"]
        assert bot["before"] == bot["after"]  # the bot's rating is the ladder's, fixed
        (rating,) = ratings(c, "annie")
        assert rating["game"] == "spots" and rating["games"] == 1 and "<svg" in rating["chart"]
        assert rating["rating"] == mine["after"]
        board = c.get("/api/leaderboard/spots").json()["players"]
        assert {"annie", "random"} <= {row["player"] for row in board}
        page = c.get("/players/annie").text
        assert mine["after"] in page and "rating-chart" in page
        assert "annie" in c.get("/leaderboard/spots").text
        # nobody can hand the server a result: there is no route that takes one
        for path in ("/api/ratings", f"/api/tables/{t['id']}/result", "/api/leaderboard/spots"):
            assert c.post(path, json={"player": "annie", "place": 1}).status_code in (404, 405)
        assert ratings(c, "annie")[0]["games"] == 1
        store = c.app.state.hub.store  # the host deletes the account (spots users delete): its ratings go too
        store.delete_account(store.account_named("annie").id)
        assert "annie" not in {row["player"] for row in c.get("/api/leaderboard/spots").json()["players"]}
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM rating_changes WHERE player LIKE 'user:%'").fetchone() == (0,)


def test_unrated_and_bot_only_tables_change_no_rating(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db) as c:
        sign_up(c, "bea")
        r = c.post("/api/tables", json={"seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}],
                                        "tricks": "beginner", "target": 1, "rated": True, "creator_seat": None})
        assert r.status_code == 400 and "bots only" in r.json()["message"]
        bots = new_table(c, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}], creator_seat=None)
        t = new_table(c, [{"kind": "human", "name": "Bea"}, {"kind": "bot", "bot": "random"}])  # not rated
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            play_to_the_end({0: ws})
        with c.websocket_connect(f"/ws/{bots['id']}") as spy:
            until(spy, lambda m: m["type"] == "state" and m["view"]["over"])
        assert ratings(c, "bea") == []
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM rating_changes").fetchone() == (0,)
        assert con.execute("SELECT COUNT(*) FROM ratings").fetchone() == (0,)


def test_a_player_who_leaves_a_rated_game_counts_as_last(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    with client(db, bot_delay=30.0, expire_after=1.0, linger_after_end=1.0) as c:  # the table is retired after 1 s
        sign_up(c, "leaver")
        t = new_table(c, [{"kind": "human", "name": "Lea"}, {"kind": "bot", "bot": "greedy"}], rated=True)
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            to_move = until(ws, of_type("state"))["view"]["to_move"]  # then nobody moves again
        deadline = time.monotonic() + PATIENT_S
        while not ratings(c, "leaver") and time.monotonic() < deadline:
            time.sleep(0.1)
        (rating,) = ratings(c, "leaver")
        if to_move == 0:  # Lea stopped playing: she is last, below the bot
            assert rating["history"][0]["place"] == 2 and rating["mu"] < 25
        else:  # the bot was to move (and never did: its delay outlasts the table): the bot is last
            assert rating["history"][0]["place"] == 1 and rating["mu"] > 25
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT status FROM tables WHERE id = ?", (t["id"],)).fetchone() == ("abandoned",)


def test_a_spectators_open_page_does_not_keep_a_leavers_rated_game_from_its_result(tmp_path: Path) -> None:
    """Issue 42's untested list, leaving a rated game to dodge a loss: any open page kept an unclocked table from
    being retired, so a losing player could keep a spectator's tab open for ever and never be rated."""
    db = tmp_path / "t.db"
    with client(db, expire_after=1.0, linger_after_end=1.0) as c:  # the bot plays at once; retired after 1 s
        sign_up(c, "leaver")
        t = new_table(c, [{"kind": "human", "name": "Lea"}, {"kind": "bot", "bot": "greedy"}], rated=True, target=4)
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            until(ws, lambda m: m["type"] == "state" and m["view"]["to_move"] == 0 and bool(m["view"]["legal"]))
        with c.websocket_connect(f"/ws/{t['id']}") as spectator:  # her turn, and she is gone; a tab stays open
            until(spectator, of_type("state"))
            deadline = time.monotonic() + PATIENT_S
            while not ratings(c, "leaver"):
                assert time.monotonic() < deadline, "the table was never retired: the open tab kept it waiting"
                time.sleep(0.1)
        (rating,) = ratings(c, "leaver")
        assert rating["history"][0]["place"] == 2 and rating["mu"] < 25  # last, below the bot
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT status FROM tables WHERE id = ?", (t["id"],)).fetchone() == ("abandoned",)


def test_a_socket_closed_while_its_talk_is_set_up_still_leaves_the_room(tmp_path: Path) -> None:
    """A signed-in viewer's talk reads its blocks from the store as it joins. A socket closed meanwhile once stayed
    in the room for ever, and its seat, "waited on", kept the table from being retired and its leaver from being
    rated (seen on a loaded machine)."""
    db = tmp_path / "t.db"
    with client(db) as c:
        sign_up(c, "quick")
        t = new_table(c, [{"kind": "human", "name": "Lea"}, {"kind": "bot", "bot": "greedy"}])
        hub = c.app.state.hub  # type: ignore[attr-defined]
        read = hub.store.blocked_by

        def slowly(account: str) -> Any:  # a store that takes its time, as under load
            time.sleep(0.5)
            return read(account)

        hub.store.blocked_by = slowly
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
            assert ws.receive_json()["type"] == "hello"  # and gone before its talk is set up
        room = hub.rooms[t["id"]]
        deadline = time.monotonic() + PATIENT_S
        while room.conns and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not room.conns


def test_who_ran_out_of_time_finishes_below_everyone_who_played_on() -> None:
    """Issue 26's rule for rated games: running out of time counts as finishing last, the first to run out last
    of all, below even a winner's place; a retired table's player to move is below them all. Places count from 1
    again (issue 41: a resignation is ranked the same way, the resigned first)."""
    from spots.web.ratings.service import last_for_absence, places

    ranks = places([3, 1, 2, 0], winner=0)  # seat 0 won
    assert ranks == [1, 3, 2, 4]
    assert last_for_absence(ranks, None, []) == ranks
    assert last_for_absence(ranks, None, [0]) == [4, 2, 1, 3]  # the winner ran out: below all three others
    assert last_for_absence(ranks, None, [2, 0]) == [3, 1, 4, 2]  # seat 2 ran out first: last of all
    assert last_for_absence(ranks, 1, [2]) == [1, 4, 3, 2]  # retired with seat 1 to move: below the one out of time
    assert last_for_absence(places([2, 2, 0], None), None, [2]) == [1, 1, 3]  # equal places stay equal
