"""Your-turn e-mail (issue 26): a real ``spots serve --smtp`` process and a real SMTP server (aiosmtpd).

A signed-in player who asked for notices gets one e-mail when their turn begins, linking straight to their
seat; a player who gave an address but asked for none gets nothing.
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

        async def play_until_adas_turn_begins() -> None:
            async with Player(srv, table["id"], cy_link.rsplit("/", 1)[1], cookie=cookie(cy)) as c:
                await c.until(lambda: c.view["to_move"] == 0 and c.sent_at > 0, "Ada's turn to begin after Cy's")

        if httpx.get(f"{srv.url}/api/tables/{table['id']}").json()["view"]["to_move"] == 0:
            async def adas_first_turn() -> None:  # Ada plays her first turn at the table: then Cy's turn comes
                async with Player(srv, table["id"], ada_link.rsplit("/", 1)[1], cookie=cookie(ada)) as a:
                    await a.until(lambda: a.view["to_move"] == 1, "Cy's turn")
            asyncio.run(adas_first_turn())
        asyncio.run(play_until_adas_turn_begins())
        deadline = time.time() + PATIENT_S
        while not received:
            assert time.time() < deadline, "no e-mail arrived"
            time.sleep(0.05)
        (mail,) = received
        assert mail.rcpt_tos == ["ada@example.org"]
        message = email.message_from_bytes(mail.content, policy=email.policy.default)
        assert ada_link in message.get_content() and message["Subject"] == f"Your turn at table {table['id']}"
        assert "cy@example.org" not in [to for m in received for to in m.rcpt_tos]
        assert ada_link not in (tmp_path / "mail.log").read_text()  # the seat's secret is never logged
    finally:
        srv.stop()
