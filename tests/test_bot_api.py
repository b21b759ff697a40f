"""The bot API against a real server process: a bot account's program accepts a person's challenge and plays it to
the end, its bad moves and late moves are refused with the tables' usual errors, and only a bot's token connects."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from spots.botclient import Client, stream_url
from spots.botclient import connect as play_as_bot
from spots.web.accounts.service import COOKIE
from support.e2e import play_plainly
from support.processes import PATIENT_S
from support.servers import Server
from support.sockets import signed_in
from support.web import users_cli

pytestmark = pytest.mark.timeout(300)
FAST = ("--bot-delay", "0.02", "--private", "--message-rate", "1000", "--message-burst", "1000")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    """A server with one bot account, GreedyBot: the server and the bot's API token."""
    db = tmp_path_factory.mktemp("bots") / "bots.db"
    server = Server(db, *FAST).start()
    code, out = users_cli(str(db), "add-bot", "GreedyBot")
    assert code == 0 and "GreedyBot" in out, out
    yield server, out.strip().splitlines()[-1]
    server.stop()


def challenge(server: Server, session: str, bot: str = "GreedyBot", **more: Any) -> dict[str, Any]:
    """A two-seat table of the signed-in player, the second seat kept for ``bot``."""
    with httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url},
                      cookies={COOKIE: session}) as client:
        r = client.post("/api/tables", json={"seats": [{"kind": "human", "name": "me"},
                                                       {"kind": "human", "invite": bot}],
                                             "tricks": "beginner", "target": 1, **more})
        assert r.status_code == 201, r.text
        return dict(r.json())


def bot_socket(server: Server, token: str) -> ClientConnection:
    return connect(stream_url(server.url), additional_headers={"Authorization": f"Bearer {token}"},
                   open_timeout=PATIENT_S, max_size=2**22)


def until(ws: ClientConnection, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first message ``wanted`` says yes to (each waited for, up to PATIENT_S)."""
    while True:
        msg = json.loads(ws.recv(timeout=PATIENT_S))
        if wanted(msg):
            return msg


def test_a_bot_plays_a_persons_challenge_to_the_end(site: tuple[Server, str], browser: Any) -> None:
    server, token = site
    context = browser.new_context()
    page = context.new_page()
    session = signed_in(server, "Rosa", new=True)
    context.add_cookies([{"name": COOKIE, "value": session, "url": server.url}])
    table = challenge(server, session)
    me = table["seats"][0]["link"]
    said: list[str] = []
    client = Client("greedy", games_wanted=1, say=said.append)
    bot = threading.Thread(target=lambda: play_as_bot(server.url, token, client), daemon=True)
    bot.start()
    page.goto(me)
    play_plainly(page)
    bot.join(PATIENT_S)
    assert not bot.is_alive() and client.finished == 1, said
    done = httpx.get(f"{server.url}/api/tables/{table['id']}", timeout=PATIENT_S).json()
    assert done["status"] == "over"
    assert "GreedyBot" in page.inner_text("body")  # the bot's account name, which says it is a bot
    assert any("challenge from Rosa" in line for line in said) and any(" over: " in line for line in said)
    context.close()


def test_a_bots_bad_moves_are_refused_and_change_nothing(site: tuple[Server, str]) -> None:
    server, token = site
    session = signed_in(server, "Sami", new=True)
    table = challenge(server, session)
    with bot_socket(server, token) as ws:
        assert until(ws, lambda m: m["type"] == "hello")["bot"] == "GreedyBot"
        offer = until(ws, lambda m: m["type"] == "challenge" and m["table"] == table["id"])
        assert offer["from"] == "Sami" and offer["game"] == "spots" and offer["seat"] == 1
        ws.send(json.dumps({"type": "accept", "table": table["id"], "seat": 1}))
        game = until(ws, lambda m: m["type"] == "game" and m["table"] == table["id"])
        assert game["rules"]["target"] == 1 and game["seat"] == 1
        state = until(ws, lambda m: m["type"] == "state" and m["table"] == table["id"])
        ws.send(json.dumps({"type": "move", "table": table["id"], "move": "fly away", "at": state["moves"]}))
        refused = until(ws, lambda m: m["type"] == "error")
        assert refused["table"] == table["id"] and refused["move"] == "fly away"
        if state["to_move"] == 1:  # the bot's turn: an illegal move, and the legal ones listed
            assert refused["code"] == "illegal-move" and refused["legal"] == state["legal"], refused
        else:  # the person's turn
            assert refused["code"] == "not-your-turn", refused
        ws.send(json.dumps({"type": "move", "table": "nowhere", "move": "stop", "at": 0}))
        assert until(ws, lambda m: m["type"] == "error")["code"] == "unknown-table"
        ws.send(json.dumps({"type": "dance"}))
        assert "the types are" in until(ws, lambda m: m["type"] == "error")["message"]
    after = httpx.get(f"{server.url}/api/tables/{table['id']}", timeout=PATIENT_S).json()
    assert after["moves"] == state["moves"]  # nothing was played


def test_a_move_after_the_bots_clock_ran_out_is_refused(site: tuple[Server, str]) -> None:
    server, token = site
    session = signed_in(server, "Tao", new=True)
    table = challenge(server, session, clock={"pace": "turn-based", "seconds": 1.5})
    with bot_socket(server, token) as ws:
        until(ws, lambda m: m["type"] == "challenge" and m["table"] == table["id"])
        ws.send(json.dumps({"type": "accept", "table": table["id"], "seat": 1}))
        # nobody plays: the person's clock runs out, a stand-in plays for them, then the bot's runs out
        late = until(ws, lambda m: m["type"] == "state" and m["table"] == table["id"]
                     and m["clock"]["seats"][1]["away"] is not None)
        ws.send(json.dumps({"type": "move", "table": table["id"], "move": "stop", "at": late["moves"]}))
        refused = until(ws, lambda m: m["type"] == "error")
        assert refused["code"] == "stood-in" and "send 'back'" in refused["message"], refused
        ws.send(json.dumps({"type": "back", "table": table["id"]}))
        until(ws, lambda m: m["type"] == "state" and m["table"] == table["id"]
              and m["clock"]["seats"][1]["away"] is None)  # the seat is the bot's again


def test_only_a_bots_token_connects(site: tuple[Server, str]) -> None:
    server, token = site
    session = signed_in(server, "Uma", new=True)
    for wrong in ("", "made-up-token", session, token[:-1]):
        with bot_socket(server, wrong) as ws:
            refused = json.loads(ws.recv(timeout=PATIENT_S))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=PATIENT_S)
        assert refused["code"] == "not-a-bot" and "Bearer" in refused["message"]
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert users_cli(str(server.db), "add-bot", "Uma2")[0] == 2  # a bot's name ends in 'bot'
    r = httpx.post(server.url + "/signup", data={"name": "Robobot", "password": "correct horse"},
                   headers={"Origin": server.url}, timeout=PATIENT_S)
    assert r.status_code == 400 and "kept for bot accounts" in r.text  # a person's name cannot pose as a bot's


def test_a_new_token_closes_the_old_ones_connection(site: tuple[Server, str]) -> None:
    server, _ = site
    code, out = users_cli(str(server.db), "add-bot", "SpareBot")
    first = out.strip().splitlines()[-1]
    with bot_socket(server, first) as ws:
        until(ws, lambda m: m["type"] == "hello")
        with bot_socket(server, first) as again:  # one connection per bot
            assert json.loads(again.recv(timeout=PATIENT_S))["code"] == "already-connected"
        code, out = users_cli(str(server.db), "bot-token", "SpareBot")
        assert code == 0 and "old one no longer works" in out
        assert until(ws, lambda m: m["type"] == "error")["code"] == "signed-out"
        with pytest.raises(ConnectionClosed):
            until(ws, lambda m: False)
    with bot_socket(server, out.strip().splitlines()[-1]) as ws:
        assert until(ws, lambda m: m["type"] == "hello")["bot"] == "SpareBot"


def test_a_player_makes_a_bot_on_their_account_page(site: tuple[Server, str]) -> None:
    server, _ = site
    session = signed_in(server, "Wren", new=True)
    with httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url},
                      cookies={COOKIE: session}) as me:
        refused = me.post("/me/bots", data={"name": "Wren2"})
        assert refused.status_code == 400 and "ends in &#39;bot&#39;" in refused.text
        made = me.post("/me/bots", data={"name": "WrenBot"})
        assert made.status_code == 201, made.text
        token = re.search(r"connects with it\): ([\w-]{40,})", made.text)
        assert token is not None, made.text
        assert "WrenBot" in me.get("/me").text  # listed among the player's bots
        with bot_socket(server, token.group(1)) as ws:
            assert until(ws, lambda m: m["type"] == "hello")["bot"] == "WrenBot"
        again = me.post("/me/bots/token", data={"name": "wrenbot"})
        assert again.status_code == 200 and "no longer works" in again.text
    with bot_socket(server, token.group(1)) as ws:
        assert json.loads(ws.recv(timeout=PATIENT_S))["code"] == "not-a-bot"  # the old token
    with httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url},
                      cookies={COOKIE: signed_in(server, "Xia", new=True)}) as other:
        assert other.post("/me/bots/token", data={"name": "WrenBot"}).status_code == 404  # not Xia's


def test_a_bot_joins_an_open_table_only_where_its_creator_allows_bots(site: tuple[Server, str]) -> None:
    server, token = site
    session = signed_in(server, "Yann", new=True)
    with httpx.Client(base_url=server.url, timeout=PATIENT_S, headers={"Origin": server.url},
                      cookies={COOKIE: session}) as me:
        tables = {}
        for allowed in (False, True):
            r = me.post("/api/tables", json={"seats": [{"kind": "human", "name": "me"},
                                                       {"kind": "human", "open": True}],
                                             "tricks": "beginner", "target": 1, "bots_join": allowed})
            assert r.status_code == 201 and r.json()["bots_join"] is allowed, r.text
            tables[allowed] = r.json()["id"]
        assert me.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human", "open": True}],
                                            "bots_join": "yes"}).status_code == 400
    lobby = httpx.get(f"{server.url}/api/tables?status=open", timeout=PATIENT_S).json()["tables"]
    assert {t["id"]: t["bots_join"] for t in lobby if t["id"] in tables.values()} == {tables[False]: False,
                                                                                       tables[True]: True}
    with bot_socket(server, token) as ws:
        ws.send(json.dumps({"type": "join", "table": tables[False]}))
        assert until(ws, lambda m: m["type"] in ("error", "joined"))["code"] == "bots-not-allowed"
        ws.send(json.dumps({"type": "join", "table": tables[True]}))
        assert until(ws, lambda m: m["type"] in ("error", "joined")) == {"type": "joined", "table": tables[True],
                                                                          "seat": 1}
        state = until(ws, lambda m: m["type"] == "state" and m["table"] == tables[True])
        assert state["seat"] == 1 and state["history_start"] == 0 and state["history"]
        ws.send(json.dumps({"type": "join", "table": tables[True]}))
        assert until(ws, lambda m: m["type"] == "error")["code"] == "already-seated"
    seats = httpx.get(f"{server.url}/api/tables/{tables[True]}", timeout=PATIENT_S).json()
    assert "GreedyBot" in json.dumps(seats)


def test_deleting_a_bot_account_ends_its_token(site: tuple[Server, str]) -> None:
    server, _ = site
    token = users_cli(str(server.db), "add-bot", "GoneBot")[1].strip().splitlines()[-1]
    assert users_cli(str(server.db), "delete", "GoneBot", "--yes")[0] == 0
    with bot_socket(server, token) as ws:
        assert json.loads(ws.recv(timeout=PATIENT_S))["code"] == "not-a-bot"
