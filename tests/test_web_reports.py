"""Report and block (issue 41), on both stores: a signed-in player reports a chat line or a player and the host
reads it with ``spots users reports``; a block keeps the blocked player's table talk, invitations and rematch offers
from reaching the blocker, and unblocking gives them back.

The real app in-process on a real SQLite file or PostgreSQL database; each person is their own session cookie.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.web import Msg, app_on, as_, opened, play_to_the_end, sign_up, token, until, users_cli

pytestmark = pytest.mark.timeout(300)


def pair_table(c: TestClient, ann: str, bob: str, **body: Any) -> tuple[str, list[str]]:
    """A two-seat table made by Ann in seat 0, Bob keeping seat 1 as his account's: the table and seat secrets."""
    t = as_(c, ann).post("/api/tables", json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "human",
                                                                                           "name": "Bob"}],
                                              "tricks": "beginner", "target": 1, "creator_seat": 0, **body}).json()
    links = [token(s["link"]) for s in t["seats"]]
    assert as_(c, bob).post(f"/play/{links[1]}/take", follow_redirects=False).status_code == 303
    return t["id"], links


def say(ws: Any, text: str) -> None:
    ws.send_json({"type": "chat", "text": text})


def talk(ws: Any) -> Msg:
    ws.send_json({"type": "talk"})
    return until(ws, lambda m: m["type"] == "chat-history")


def next_line(ws: Any) -> str:
    return str(until(ws, lambda m: m["type"] == "chat")["line"]["text"])


def invitations_on(page: str) -> list[str]:
    return re.findall(r'class="table-row invitation" data-table="(\w+)"', page)


def test_a_player_reports_a_chat_line_and_a_player_and_the_host_reads_them(db: str) -> None:
    with app_on(db, rate=1000.0, burst=1000.0) as c:
        bob, ann = sign_up(c, "bob_rude"), sign_up(c, "ann_reports")
        table_id, links = pair_table(c, ann, bob)
        as_(c, bob)
        with c.websocket_connect(f"/ws/{table_id}?token={links[1]}") as wb:
            opened(wb)
            talk(wb)
            say(wb, "you play like a <b>bot</b>")
            line = until(wb, lambda m: m["type"] == "chat")["line"]
        report = {"table": table_id, "line": line["id"], "why": "insults\nin chat"}
        assert as_(c, None).post("/api/reports", json=report).status_code == 401  # a guest has no account to report
        for bad, code in (({**report, "why": " "}, 400), ({**report, "why": "x" * 501}, 400),
                          ({**report, "line": 999}, 404), ({"player": "nobody_here", "why": "x"}, 404)):
            r = as_(c, ann).post("/api/reports", json=bad)
            assert r.status_code == code, (bad, r.text)
        assert as_(c, bob).post("/api/reports", json=report).status_code == 400  # not one's own line
        assert as_(c, ann).post("/api/reports", json=report).status_code == 201
        assert as_(c, ann).post("/api/reports", json={"player": "Bob_Rude", "why": "rude all evening"}
                                ).status_code == 201
        code, out = users_cli(db, "reports")
        assert code == 0 and "2 reports open" in out, out
        assert f"ann_reports reported bob_rude at table {table_id}" in out
        assert "said: 'you play like a <b>bot</b>'" in out and "why:  'insults in chat'" in out
        assert "ann_reports reported bob_rude from their profile" in out and "rude all evening" in out
        first = re.findall(r"^\[(\w+)\]", out, re.M)[0]
        assert users_cli(db, "reports", "--read", first)[0] == 0
        assert "1 report open" in users_cli(db, "reports")[1]
        assert "(read)" in users_cli(db, "reports", "--all")[1]
        assert users_cli(db, "reports", "--read", first)[0] == 2  # read already: nothing changes


def test_a_block_keeps_the_blocked_players_talk_invitations_and_rematch_away_until_unblocked(db: str) -> None:
    with app_on(db, rate=1000.0, burst=1000.0) as c:
        bob, ann = sign_up(c, "bob_blocked"), sign_up(c, "ann_blocks")
        assert as_(c, ann).post("/api/blocks", json={"player": "ann_blocks"}).status_code == 400
        assert as_(c, ann).post("/api/blocks", json={"player": "nobody_here"}).status_code == 404
        assert as_(c, None).post("/api/blocks", json={"player": "bob_blocked"}).status_code == 401
        table_id, links = pair_table(c, ann, bob)
        as_(c, ann)
        with c.websocket_connect(f"/ws/{table_id}?token={links[0]}") as wa:
            as_(c, bob)
            with c.websocket_connect(f"/ws/{table_id}?token={links[1]}") as wb:
                views = {0: opened(wa)["state"]["view"], 1: opened(wb)["state"]["view"]}
                talk(wa), talk(wb)
                say(wb, "before the block")
                assert next_line(wa) == "before the block" and next_line(wb) == "before the block"
                assert as_(c, ann).post("/api/blocks", json={"player": "bob_blocked"}).status_code == 201
                assert until(wa, lambda m: m["type"] == "chat-history")["lines"] == []  # his lines are gone
                say(wb, "after the block")
                say(wa, "hello?")
                assert next_line(wa) == "hello?"  # in order: his line never came
                assert next_line(wb) == "after the block" and next_line(wb) == "hello?"  # he is told nothing
                end = play_to_the_end({0: wa, 1: wb}, views=views)
                assert end["over"]
                wb.send_json({"type": "rematch"})
                offer = until(wb, lambda m: m["type"] == "rematch")
                assert offer["accepted"] == [1]
                seen = until(wa, lambda m: m["type"] == "rematch")
                assert seen["accepted"] == [] and seen["waiting"] == ["ann_blocks", "bob_blocked"]  # no offer
                wa.send_json({"type": "rematch"})
                refused = until(wa, lambda m: m["type"] in ("error", "rematch") and m.get("code") == "rematch-refused")
                assert "cannot all sit at one table again" in refused["message"]
        invited = as_(c, bob).post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human",
                                                                                     "invite": "ann_blocks"}],
                                                       "tricks": "beginner", "target": 1}).json()["id"]
        page = as_(c, ann).get("/me").text
        assert invitations_on(page) == [] and 'data-player="bob_blocked"' in page  # his invitation does not reach her
        assert 'id="block-player" class="unblock"' in as_(c, ann).get("/players/bob_blocked").text
        assert as_(c, ann).delete("/api/blocks/bob_blocked").status_code == 200
        page = as_(c, ann).get("/me").text
        assert invitations_on(page) == [invited] and 'data-player="bob_blocked"' not in page
