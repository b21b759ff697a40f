"""The web app in-process (FastAPI's TestClient): a client on a database, tables made and joined, socket
messages waited for, accounts signed up (``app_on``, ``sign_up``, ``as_``) and the host's ``spots users``."""

from __future__ import annotations

import io
import random
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from spots.web import create_app
from spots.web.accounts.service import COOKIE
from spots.web.accounts.users import main as users

Msg = dict[str, Any]


@contextmanager
def client(db: Path, bot_delay: float = 30.0, rate: float = 10.0) -> Iterator[TestClient]:
    """The real app on ``db``; a long default bot delay keeps bots still unless a test wants them. Every
    request comes from one test address and some tests poll, so the per-client request limit is raised
    (it has its own tests in test_web_security.py)."""
    with TestClient(create_app(db, bot_delay=bot_delay, rate=rate, requests_per_second=1000.0)) as c:
        yield c


def new_table(c: TestClient, seats: list[Msg] | None = None, **body: Any) -> Msg:
    seats = seats or [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    r = c.post("/api/tables", json={"seats": seats, "tricks": "beginner", "target": 1, **body})
    assert r.status_code == 201, r.text
    return r.json()


def token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def until(ws: Any, pred: Callable[[Msg], bool], limit: int = 400) -> Msg:
    """Read messages until one satisfies ``pred`` (others, such as presence updates, are skipped)."""
    for _ in range(limit):
        msg = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("the expected message never came")


def is_state(msg: Msg) -> bool:
    return msg["type"] == "state"


def opened(ws: Any) -> Msg:
    """The hello and the first full state of a new connection."""
    hello = ws.receive_json()
    assert hello["type"] == "hello"
    first = until(ws, is_state)
    assert first["log_start"] == 0
    return {"hello": hello, "state": first}


def play(ws: Any, move: str, at: int | None = None) -> tuple[Msg, Msg | None]:
    """Send a move; return the reply (ok or error) and, when accepted, the state it produced.

    The server queues the new state for everyone before it answers the sender, so the
    sender's state usually arrives first; both are collected either way.
    """
    ws.send_json({"type": "move", "move": move, **({} if at is None else {"at": at})})
    reply: Msg | None = None
    state: Msg | None = None
    while reply is None or (reply["type"] == "ok" and (state is None or state["view"]["moves"] < reply["moves"])):
        msg = ws.receive_json()
        if msg["type"] in ("ok", "error"):
            reply = msg
        elif is_state(msg):
            state = msg
    return reply, state if reply["type"] == "ok" else None


def play_all(ws: Any, moves: list[str], view: Msg) -> Msg:
    """Send ``moves`` one after another from the position ``view``, each of them accepted; the last view."""
    for move in moves:
        reply, state = play(ws, move, view["moves"])
        assert state is not None, (move, reply)
        view = state["view"]
    return view


def decisions(history: list[str]) -> list[str]:
    """A game's moves less its chance events: what a player sends to play the same game on the same dice."""
    return [m for m in history if not m.startswith(("roll ", "reveal "))]


def play_to_the_end(socks: dict[int, Any], seed: int = 1, views: dict[int, Msg] | None = None,
                    choose: Callable[[int, Msg], str] | None = None) -> Msg:
    """Play random legal moves from the seats' sockets until the game ends; the last view. ``views``: each
    socket's latest view when the caller has read it already (else the next state message is the first);
    ``choose(seat, view)``: the seat's move where it is not random."""
    pick = random.Random(seed)
    views = dict(views) if views else {s: until(ws, is_state, 2000)["view"] for s, ws in socks.items()}
    while True:
        view = max(views.values(), key=lambda v: v["moves"])
        for s, ws in socks.items():  # every socket sees the latest position (a bot may have moved meanwhile)
            if views[s]["moves"] < view["moves"]:
                views[s] = until(ws, lambda m, n=view["moves"]: is_state(m) and m["view"]["moves"] >= n, 2000)["view"]
        if view["over"]:
            return view
        movers = [s for s, v in views.items() if v["moves"] == view["moves"] and v["to_move"] == s and v["legal"]]
        if not movers:  # a bot's turn: wait for the table to move on
            s = next(iter(socks))
            views[s] = until(socks[s], lambda m, n=view["moves"]: is_state(m) and m["view"]["moves"] > n, 2000)[
                "view"]
            continue
        seat = movers[0]
        move = choose(seat, views[seat]) if choose is not None else pick.choice(views[seat]["legal"])["move"]
        socks[seat].send_json({"type": "move", "move": move, "at": view["moves"]})
        for s, ws in socks.items():
            views[s] = until(ws, partial(_moved_on, view["moves"]), 2000)["view"]


def _moved_on(moves: int, msg: Msg) -> bool:
    """A state past ``moves``; a refusal fails the test at once instead of waiting for a state that never comes."""
    if msg["type"] == "error":
        raise AssertionError(f"a move was refused: {msg}")
    return is_state(msg) and msg["view"]["moves"] > moves


def db_moves(db: Path, table_id: str) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [m for (m,) in con.execute("SELECT move FROM moves WHERE table_id = ? ORDER BY idx", (table_id,))]
    finally:
        con.close()


@contextmanager
def app_on(db: str, bot_delay: float = 30.0, **limits: Any) -> Iterator[TestClient]:
    """The app on ``db`` in this process; its bots wait ``bot_delay`` seconds before a move (by default they never
    get to move while a test looks)."""
    with TestClient(create_app(db, bot_delay=bot_delay, requests_per_second=1000.0, **limits)) as c:
        yield c


def as_(c: TestClient, token: str | None) -> TestClient:
    """The client as one person: their session cookie, or none (a guest)."""
    c.cookies.clear()
    if token:
        c.cookies.set(COOKIE, token)
    return c


def sign_up(c: TestClient, name: str, password: str = "correct horse") -> str:
    as_(c, None)
    r = c.post("/signup", data={"name": name, "password": password}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return str(r.cookies[COOKIE])


def users_cli(db: str, *args: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    code = users(["--db", db, *args], out=out, stdin=io.StringIO(stdin))
    return code, out.getvalue()
