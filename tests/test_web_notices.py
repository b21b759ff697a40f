"""Your-turn e-mail (issue 26): a real ``spots serve --smtp`` process and a real SMTP server (aiosmtpd).

A signed-in player who asked for notices gets one e-mail when their turn begins, linking straight to their
seat; a player who gave an address but asked for none gets nothing; a player who chose one e-mail a day (or
everyone, when the host says so) gets the waiting tables gathered into one.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from support.clocks import FAST, Player
from support.processes import PATIENT_S
from support.servers import Server, free_port

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


def account(server: Server, name: str, email: str, notify: bool, received: list[Any] | None = None
            ) -> httpx.Client:
    """A signed-up player who gave an address (confirmed from the mailbox, when it is given)."""
    client = httpx.Client(base_url=server.url)
    r = client.post("/signup", data={"name": name, "password": "correct horse"})
    assert r.status_code in (200, 303), r.text
    form = {"email": email, "notify": "1" if notify else "0"}
    r = client.post("/me/settings", data=form)
    assert r.status_code in (200, 303), r.text
    if received is not None:
        with httpx.Client(base_url=server.url) as signed_out:  # the link works wherever the mail is read
            confirm(signed_out, email, received)
    return client


def parsed(envelope: Any) -> Any:
    return email.message_from_bytes(envelope.content, policy=email.policy.default)


def wait_for(received: list[Any], wanted: Any, what: str) -> Any:
    """The first e-mail in the mailbox that is ``wanted``, waited for."""
    deadline = time.time() + PATIENT_S
    while (found := next((m for m in received if wanted(m)), None)) is None:
        assert time.time() < deadline, f"no {what} came: {[parsed(m)['Subject'] for m in received]}"
        time.sleep(0.05)
    return found


def confirm(client: Any, address: str, received: list[Any]) -> None:
    """Open the confirmation link the server mailed to ``address`` and press Confirm (the e-mail is taken out of
    the mailbox)."""
    mail = wait_for(received, lambda m: m.rcpt_tos == [address], f"confirmation for {address}")
    received.remove(mail)
    message = parsed(mail)
    assert message["Subject"] == "Confirm your e-mail address for Spots" and "List-Unsubscribe" not in message
    found = re.search(r"(\S*/me/confirm/\S+)", message.get_content())
    assert found, message.get_content()
    path = urlsplit(found.group(1)).path
    page = client.get(path)
    assert page.status_code == 200 and address in page.text  # opening the link confirms nothing (a mail scanner)
    assert "is confirmed" in client.post(path).text
    assert client.post(path).status_code == 404  # once only


def cookie(client: httpx.Client) -> str:
    return f"{COOKIE}={client.cookies[COOKIE]}"


def test_a_your_turn_email_arrives_once_links_to_the_seat_and_goes_to_nobody_who_asked_for_none(
        tmp_path: Path, mailbox: tuple[int, list[Any]]) -> None:
    port, received = mailbox
    srv = Server(tmp_path / "mail.db", *FAST, "--smtp", f"smtp://127.0.0.1:{port}?from=spots@example.org").start()
    try:
        ada = account(srv, "Ada", "ada@example.org", notify=True, received=received)
        cy = account(srv, "Cy", "cy@example.org", notify=False, received=received)
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


def test_a_tournament_round_e_mails_each_signed_up_player_their_table(tmp_path: Path,
                                                                       mailbox: tuple[int, list[Any]]) -> None:
    port, received = mailbox
    srv = Server(tmp_path / "cup.db", *FAST, "--smtp", f"smtp://127.0.0.1:{port}?from=spots@example.org").start()
    try:
        ada = account(srv, "Ada", "ada@example.org", notify=True, received=received)
        cy = account(srv, "Cy", "cy@example.org", notify=False, received=received)
        cup = ada.post("/tournaments", json={"name": "Club cup", "game": "spots", "rounds": 1, "pace": "day",
                                             "starts_in": 60, "options": {"target": 1, "tricks": "beginner"}},
                       headers={"Content-Type": "application/json"}).json()["id"]
        for client in (ada, cy):
            assert client.post(f"/tournaments/{cup}/join", json={}).status_code == 200
        assert ada.post(f"/tournaments/{cup}/start", json={}).status_code == 200
        mail = parsed(wait_for(received, lambda m: m.rcpt_tos == ["ada@example.org"], "the round's e-mail"))
        deadline = time.time() + PATIENT_S  # the round's game is stored with its table a moment after the mail left
        while (link := ada.get(f"/api/tournaments/{cup}").json()["my_table"]) is None:
            assert time.time() < deadline, "Ada's table never showed on the event's page"
            time.sleep(0.05)
        assert mail["Subject"] == "Round 1 of Club cup has started" and link and link in mail.get_content()
        assert link not in (tmp_path / "cup.log").read_text()  # the seat's secret is never logged
        assert all(m.rcpt_tos == ["ada@example.org"] for m in received)  # Cy asked for no notices
    finally:
        srv.stop()


def unsubscribe_link(message: Any) -> str:
    found = re.fullmatch(r"<(\S+)>", "".join(str(message["List-Unsubscribe"]).split()))
    assert found, message["List-Unsubscribe"]
    return found.group(1)


def is_notice(envelope: Any) -> bool:
    return str(parsed(envelope)["Subject"]).startswith("Your turn")


def test_nothing_goes_to_an_unconfirmed_address_or_an_open_page_and_one_click_stops_the_rest(
        tmp_path: Path, mailbox: tuple[int, list[Any]]) -> None:
    """Issue 42, finding 3: your-turn e-mails went to any address as typed, even while the player was at the table.
    Each round below ends with Ada's turn beginning; only the rounds marked told may e-mail her. Each told round's
    e-mail is waited for, and an e-mail from an earlier round would have come before it."""
    port, received = mailbox
    srv = Server(tmp_path / "mail.db", *FAST, "--smtp", f"smtp://127.0.0.1:{port}?from=spots@example.org").start()
    try:
        ada = account(srv, "Ada", "ada@example.org", notify=True)  # the confirmation link waits in the mailbox
        cy = account(srv, "Cy", "cy@example.org", notify=False, received=received)
        page = ada.get("/me").text
        assert "Not confirmed yet: nothing is sent to this address until you open the link" in page
        table = ada.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}], "tricks": "beginner",
                                              "target": 20}).json()  # the most: longer than six rounds
        links = [s["link"] for s in table["seats"]]
        assert cy.post(links[1].replace(srv.url, "") + "/take").status_code in (200, 303)
        clients = (ada, cy)

        def to_move() -> int:
            return int(httpx.get(f"{srv.url}/api/tables/{table['id']}").json()["view"]["to_move"])

        async def turn(seat: int) -> None:
            async with Player(srv, table["id"], links[seat].rsplit("/", 1)[1], cookie=cookie(clients[seat])) as p:
                await p.until(lambda: p.view["to_move"] != seat, f"seat {seat}'s turn to end")

        async def round_(ada_at_the_table: bool = False) -> None:
            """Ada's turn (if it is hers), then Cy's: Ada's next turn begins, her page of the table open or not."""
            if to_move() == 0:
                await turn(0)
            if not ada_at_the_table:
                await turn(1)
                return
            async with Player(srv, table["id"], links[0].rsplit("/", 1)[1], playing=False, cookie=cookie(ada)):
                await turn(1)

        def notices(n: int) -> Any:
            """The n-th your-turn e-mail, waited for; none more has come."""
            wait_for(received, lambda m: sum(is_notice(e) for e in received) >= n, f"your-turn e-mail {n}")
            told = [m for m in received if is_notice(m)]
            assert len(told) == n and all(m.rcpt_tos == ["ada@example.org"] for m in told), len(told)
            return parsed(told[-1])

        asyncio.run(round_())  # not told: the address is not confirmed
        with httpx.Client(base_url=srv.url) as anyone:
            confirm(anyone, "ada@example.org", received)
        assert "Not confirmed yet" not in ada.get("/me").text
        asyncio.run(round_())  # told
        first = notices(1)
        asyncio.run(round_(ada_at_the_table=True))  # not told: she is at the table
        asyncio.run(round_())  # told
        second = notices(2)
        url = unsubscribe_link(second)
        assert second["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert url in second.get_content() and url == unsubscribe_link(first)
        assert url.startswith(f"{srv.url}/unsubscribe/")
        with httpx.Client() as mail_app:  # a mail app's own button: a POST with no cookie and no Origin (RFC 8058)
            r = mail_app.post(url, data={"List-Unsubscribe": "One-Click"})
            assert r.status_code == 200 and "No more e-mails from Spots go to ada@example.org" in r.text
            assert mail_app.post(f"{srv.url}/unsubscribe/made-up").status_code == 404
        asyncio.run(round_())  # not told: she stopped them
        assert ada.post("/me/settings", data={"email": "ada@example.org", "notify": "1"}).status_code in (200, 303)
        asyncio.run(round_())  # told again: the same address, still confirmed, no new link sent
        notices(3)
        assert not [m for m in received if not is_notice(m)]
    finally:
        srv.stop()


def test_an_account_gets_at_most_its_e_mails_a_day(tmp_path: Path, mailbox: tuple[int, list[Any]]) -> None:
    """Confirmation links count too, so changing the address again and again floods nobody. The e-mail is sent
    before the page answers, so what the mailbox holds after each request is all there is."""
    from fastapi.testclient import TestClient

    from spots.web.app import create_app
    from spots.web.notices.service import Smtp

    port, received = mailbox
    smtp = Smtp.parse(f"smtp://127.0.0.1:{port}?from=spots@example.org")
    app = create_app(tmp_path / "cap.db", bot_delay=0.0, requests_per_second=1000.0, emails_per_day=3,
                     notices={"smtp": smtp})
    with TestClient(app) as c:
        assert c.post("/signup", data={"name": "Ada", "password": "correct horse"}).status_code == 200
        for address in ("victim1@example.org", "victim2@example.org"):
            assert c.post("/me/settings", data={"email": address, "notify": "1"}).status_code == 200
        assert [m.rcpt_tos for m in received] == [["victim1@example.org"], ["victim2@example.org"]]
        assert "We sent a link to this address." in c.get("/me?sent=1").text
        for _ in range(3):
            assert c.post("/me/confirm").status_code == 200  # "send the link again"
        assert [m.rcpt_tos for m in received] == [["victim1@example.org"], ["victim2@example.org"],
                                                  ["victim2@example.org"]]  # 3 a day: the 4th and 5th were not sent
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        ada = store.account_named("ada")
        today = int(time.time() // 86400)
        assert not store.count_email(ada.id, today, 3) and store.count_email(ada.id, today + 1, 3)  # a new day
        # the first link no longer works: only the newest does
        first = re.search(r"(/me/confirm/\S+)", parsed(received[0]).get_content())
        assert first and c.post(first.group(1)).status_code == 404
        newest = re.search(r"(/me/confirm/\S+)", parsed(received[-1]).get_content())
        assert newest and "Your address victim2@example.org is confirmed." in c.post(newest.group(1)).text


@pytest.mark.parametrize("chosen_by", ["the player", "the host"])
def test_the_daily_digest_gathers_the_waiting_tables_into_one_email(chosen_by: str, tmp_path: Path,
                                                                     mailbox: tuple[int, list[Any]]) -> None:
    """The player chose one e-mail a day on their account page, or the host chose it for everyone
    (``--email-digest``) while the player asked for an e-mail each turn."""
    from fastapi.testclient import TestClient

    from spots.web.app import create_app
    from spots.web.notices.service import Smtp

    port, received = mailbox
    smtp = Smtp.parse(f"smtp://127.0.0.1:{port}?from=spots@example.org")
    app = create_app(tmp_path / "digest.db", bot_delay=0.0, requests_per_second=1000.0, public_url="https://spots.test",
                     notices={"smtp": smtp, "digest": chosen_by == "the host", "digest_every": 3600})
    with TestClient(app, base_url="https://testserver") as c:  # (the session cookie is https only)
        assert c.post("/signup", data={"name": "Ada", "password": "correct horse"}).status_code == 200
        notify = "2" if chosen_by == "the player" else "1"  # once a day, or each turn
        assert c.post("/me/settings", data={"email": "ada@example.org", "notify": notify}).status_code == 200
        confirm(c, "ada@example.org", received)
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
