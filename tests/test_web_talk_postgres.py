"""Table talk, mutes, rematches and rating changes heard across two ``spots serve`` processes on one PostgreSQL
database (issue 25): what one process stores is announced (NOTIFY) and reaches the viewers of the other."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from support.processes import PATIENT_S
from support.servers import Server, processes

pytestmark = pytest.mark.timeout(300)
TWO = {"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}], "tricks": "beginner",
       "target": 1}
Msg = dict[str, Any]


@pytest.fixture(scope="module")
def two(postgres: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    url, logs = postgres.database(), tmp_path_factory.mktemp("talk-servers")
    with processes(url, logs, 2, "--bot-delay", "0.02", "--private", "--message-rate", "1000", "--message-burst",
                   "1000", "--leaderboard-min-games", "1") as servers:
        yield servers


def socket(stack: ExitStack, server: Server, table: str, link: str = "", cookie: str = "") -> ClientConnection:
    token = f"?token={link.rsplit('/', 1)[1]}" if link else ""
    headers = {"Cookie": cookie} if cookie else None
    return stack.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws/{table}{token}", open_timeout=PATIENT_S,
                                       additional_headers=headers))


def until(ws: ClientConnection, pred: Callable[[Msg], bool]) -> Msg:
    while True:
        msg = json.loads(ws.recv(timeout=PATIENT_S))
        if pred(msg):
            return dict(msg)


def chat(text: str) -> Callable[[Msg], bool]:
    return lambda m: m["type"] == "chat" and m["line"]["text"] == text


def test_chat_and_mutes_reach_the_viewers_of_the_other_process(two: list[Server]) -> None:
    a, b = two
    t = httpx.post(a.url + "/api/tables", json=TWO, timeout=PATIENT_S).json()
    with ExitStack() as stack:
        ann = socket(stack, a, t["id"], t["seats"][0]["link"])
        bob = socket(stack, b, t["id"], t["seats"][1]["link"])
        spy = socket(stack, b, t["id"])
        for ws in (ann, bob, spy):
            ws.send(json.dumps({"type": "talk"}))
            until(ws, lambda m: m["type"] == "chat-history")
        ann.send(json.dumps({"type": "chat", "text": "from process a"}))
        assert until(bob, chat("from process a"))["line"]["name"] == "Ann"
        spy.send(json.dumps({"type": "chat", "text": "a spectator on b"}))
        until(spy, chat("a spectator on b"))
        bob.send(json.dumps({"type": "chat", "text": "from process b"}))
        got = until(ann, lambda m: m["type"] == "chat" and m["line"]["seat"] == 1)
        assert got["line"]["text"] == "from process b"  # and not the spectator's line, which came first
        ann.send(json.dumps({"type": "host", "token": t["host"].rsplit("/", 1)[1]}))
        ann.send(json.dumps({"type": "mute", "author": "seat:1"}))
        assert until(bob, lambda m: m["type"] == "muted")["muted"] == ["seat:1"]
        bob.send(json.dumps({"type": "chat", "text": "muted on b"}))
        assert until(bob, lambda m: m["type"] == "error")["code"] == "muted"
    lines = httpx.get(f"{b.url}/api/tables/{t['id']}/chat", timeout=PATIENT_S).json()["lines"]
    assert [line["text"] for line in lines] == ["from process a", "a spectator on b", "from process b"]


def finish(ws: ClientConnection, seed: int = 5) -> None:
    """Play a seat's random legal moves until the game is over (its opponent is a bot)."""
    pick = random.Random(seed)
    view = until(ws, lambda m: m["type"] == "state")["view"]
    while not view["over"]:
        if view["to_move"] == 0:
            ws.send(json.dumps({"type": "move", "move": pick.choice(view["legal"])["move"], "at": view["moves"]}))
        view = until(ws, lambda m, n=view["moves"]: m["type"] == "state" and m["view"]["moves"] > n)["view"]


def test_a_rated_game_on_one_process_is_heard_and_ranked_on_the_other(two: list[Server]) -> None:
    a, b = two
    with httpx.Client(base_url=a.url, timeout=PATIENT_S) as web:
        r = web.post("/signup", data={"name": "pg_ann", "password": "a long enough password"})
        assert r.status_code in (200, 303), r.text
        cookie = "; ".join(f"{k}={v}" for k, v in web.cookies.items())
        t = web.post("/api/tables", json={"seats": [{"kind": "human", "name": "Ann"},
                                                    {"kind": "bot", "bot": "greedy"}],
                                          "tricks": "beginner", "target": 1, "rated": True}).json()
    assert t["rated"]
    with ExitStack() as stack:
        spy = socket(stack, b, t["id"])
        spy.send(json.dumps({"type": "talk"}))
        ann = socket(stack, a, t["id"], t["seats"][0]["link"], cookie)
        finish(ann)
        news = until(spy, lambda m: m["type"] == "ratings")["changes"]  # heard on the other process
    mine = next(c for c in news if not c["bot"])
    assert mine["player"] == "Ann" or mine["player"] == "pg_ann"
    board = httpx.get(f"{b.url}/api/leaderboard/spots", timeout=PATIENT_S).json()["players"]
    assert next(row for row in board if row["player"] == "pg_ann")["rating"] == mine["after"]
    assert next(row for row in board if row["player"] == "greedy")["bot"]


def test_a_rematch_accepted_on_two_processes_is_made_once(two: list[Server]) -> None:
    a, b = two
    t = httpx.post(a.url + "/api/tables", json={**TWO, "seats": [TWO["seats"][0], {"kind": "bot", "bot": "random"}]},
                   timeout=PATIENT_S).json()
    with ExitStack() as stack:
        ann = socket(stack, a, t["id"], t["seats"][0]["link"])
        finish(ann)
        spy = socket(stack, b, t["id"])
        spy.send(json.dumps({"type": "talk"}))
        until(spy, lambda m: m["type"] == "chat-history")
        ann.send(json.dumps({"type": "rematch"}))  # the only human: this yes completes it (and asks for the talk)
        told = until(ann, lambda m: m["type"] == "rematch" and m["next"])
        seen = until(spy, lambda m: m["type"] == "rematch" and m["next"])
    assert seen["next"] == told["next"] and seen["link"] == f"/t/{told['next']}"
    new = httpx.get(f"{b.url}/api/tables/{told['next']}", timeout=PATIENT_S).json()
    assert [p["kind"] for p in new["players"]] == ["bot", "human"]  # seats rotated
