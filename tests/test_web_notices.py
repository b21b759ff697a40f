"""Your-turn e-mail (issue 26): a real ``spots serve --smtp`` process and a real SMTP server (aiosmtpd).

A signed-in player who asked for notices gets one e-mail when their turn begins, linking straight to their
seat; a player who gave an address but asked for none gets nothing; a player who chose one e-mail a day (or
everyone, when the host says so) gets the waiting tables gathered into one.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import PATIENT_S
from servers import Server, free_port
from test_web_clocks import FAST, Player

pytestmark = pytest.mark.timeout(300)
COOKIE = "spots_session"


@pytest.fixture
def mailbox() -> Iterator[tuple[int, list[Any]]]:
    controller_module = pytest.importorskip("aiosmtpd.controller", reason="pip install aiosmtpd")
    received: list[Any] = []

    class Keep:
        async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # (aiosmtpd's name)
            received.append(envelope)
            return "250 OK"

    port = free_port()
    controller = controller_module.Controller(Keep(), hostname="127.0.0.1", port=port)
    controller.start()
    yield port, received
    controller.stop()


def account(server: Server, name: str, email: str, notify: bool) -> httpx.Client:
    client = httpx.Client(base_url=server.url)
    r = client.post("/signup", data={"name": name, "password": "correct horse"})
    assert r.status_code in (200, 303), r.text
    form = {"email": email, **({"notify": "1"} if notify else {})}
    r = client.post("/me/settings", data=form)
    assert r.status_code in (200, 303), r.text
    return client


def cookie(client: httpx.Client) -> str:
    return f"{COOKIE}={client.cookies[COOKIE]}"


def test_a_your_turn_email_arrives_once_links_to_the_seat_and_goes_to_nobody_who_asked_for_none(
        tmp_path: Path, mailbox: tuple[int, list[Any]]) -> None:
    port, received = mailbox
    srv = Server(tmp_path / "mail.db", *FAST, "--smtp", f"smtp://127.0.0.1:{port}?from=spots@example.org").start()
    try:
        ada = account(srv, "Ada", "ada@example.org", notify=True)
        cy = account(srv, "Cy", "cy@example.org", notify=False)
        r = ada.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}], "tricks": "beginner",
                                          "target": 3})
        assert r.status_code == 201, r.text
        table = r.json()
        ada_link, cy_link = (s["link"] for s in table["seats"])
        assert cy.post(cy_link.replace(srv.url, "") + "/take").status_code in (200, 303)

        async def play_turn(seat: int) -> int:
            """Seat plays its whole turn; the seat to move after it."""
            client, link = ((ada, ada_link), (cy, cy_link))[seat]
            async with Player(srv, table["id"], link.rsplit("/", 1)[1], cookie=cookie(client)) as p:
                await p.until(lambda: p.view["to_move"] != seat, f"seat {seat}'s turn to end")
                return int(p.view["to_move"])

        seat = httpx.get(f"{srv.url}/api/tables/{table['id']}").json()["view"]["to_move"]
        adas_turns = 0  # the turns of Ada's that began with a move of Cy's (each is to be told once)
        cys_turn_began = False
        while not (cys_turn_began and adas_turns and seat == 0):  # ... and it is Ada's turn now
            after = asyncio.run(play_turn(seat))
            adas_turns += seat == 1 and after == 0
            cys_turn_began = cys_turn_began or (seat == 0 and after == 1)
            seat = after
        deadline = time.time() + PATIENT_S
        while len(received) < adas_turns:
            assert time.time() < deadline, f"{len(received)} e-mails of {adas_turns}"
            time.sleep(0.05)
        assert [m.rcpt_tos for m in received] == [["ada@example.org"]] * adas_turns  # one per turn, none to Cy
        message = email.message_from_bytes(received[0].content, policy=email.policy.default)
        assert ada_link in message.get_content() and message["Subject"] == f"Your turn at table {table['id']}"
        assert ada_link not in (tmp_path / "mail.log").read_text()  # the seat's secret is never logged
        queue = ada.post("/api/turns", json={"seats": []}).json()["tables"]  # signed in: the account's seats
        assert [(t["table"], t["link"]) for t in queue] == [(table["id"], ada_link)]
    finally:
        srv.stop()


@pytest.mark.parametrize("chosen_by", ["the player", "the host"])
def test_the_daily_digest_gathers_the_waiting_tables_into_one_email(chosen_by: str, tmp_path: Path,
                                                                     mailbox: tuple[int, list[Any]]) -> None:
    """The player chose one e-mail a day on their account page, or the host chose it for everyone
    (``--email-digest``) while the player asked for an e-mail each turn."""
    from fastapi.testclient import TestClient

    from spots.web.app import create_app
    from spots.web.notices import Smtp

    port, received = mailbox
    smtp = Smtp.parse(f"smtp://127.0.0.1:{port}?from=spots@example.org")
    app = create_app(tmp_path / "digest.db", bot_delay=0.0, requests_per_second=1000.0, public_url="https://spots.test",
                     notices={"smtp": smtp, "digest": chosen_by == "the host", "digest_every": 3600})
    with TestClient(app, base_url="https://testserver") as c:  # (the session cookie is https only)
        assert c.post("/signup", data={"name": "Ada", "password": "correct horse"}).status_code == 200
        notify = "2" if chosen_by == "the player" else "1"  # once a day, or each turn
        assert c.post("/me/settings", data={"email": "ada@example.org", "notify": notify}).status_code == 200
        tables = [c.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                                              "tricks": "beginner", "target": 3}).json() for _ in range(2)]
        for table in tables:  # Ada plays her turn; the bot plays; her next turn begins: the digest will say so
            link = table["seats"][0]["link"]
            with c.websocket_connect(f"/ws/{table['id']}?token={link.rsplit('/', 1)[1]}&lang=es",  # in Spanish
                                     headers={"cookie": f"{COOKIE}={c.cookies[COOKIE]}"}) as ws:
                bots_turn = False
                while True:  # until the bot has played a turn and Ada's next one begins
                    msg = ws.receive_json()
                    if msg["type"] != "state":
                        continue
                    view = msg["view"]
                    bots_turn = bots_turn or view["to_move"] == 1
                    if view["to_move"] == 0 and bots_turn:
                        break
                    if view["to_move"] == 0 and view["legal"]:
                        moves = [m["move"] for m in view["legal"]]
                        ws.send_json({"type": "move", "move": "stop" if "stop" in moves else moves[-1],
                                      "at": view["moves"]})
        notices = c.app.state.notices  # type: ignore[attr-defined]
        deadline = time.time() + PATIENT_S
        while len(notices.pending.get(next(iter(notices.pending), ""), {})) < 2:  # both turns noted
            assert time.time() < deadline, f"the digest did not gather both tables: {notices.pending}"
            time.sleep(0.05)
        assert not received  # nothing is sent turn by turn
        c.portal.call(notices.send_digests)  # what the daily timer does
    (digest,) = received
    message = email.message_from_bytes(digest.content, policy=email.policy.default)
    text = message.get_content()
    assert digest.rcpt_tos == ["ada@example.org"]
    assert message["Subject"] == "Mesas que te esperan"  # the language Ada plays in
    assert all(t["seats"][0]["link"] in text for t in tables)  # one e-mail, every waiting table


@pytest.mark.parametrize("url, words", [("http://mail.example.org", "--smtp must look like smtp://"),
                                        ("smtp://mail.example.org?from=nobody", "'from' must be an e-mail address"),
                                        ("smtp://mail.example.org:99999", "the port must be a number")])
def test_a_bad_smtp_address_is_refused_at_start_saying_what_is_allowed(url: str, words: str,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from spots.web.server import main

    with pytest.raises(SystemExit) as stopped:
        main(["--smtp", url])
    assert stopped.value.code == 2 and words in capsys.readouterr().err
