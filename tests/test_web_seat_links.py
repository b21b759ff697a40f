"""A seat link works for as long as its table is stored (issue 43): the link in the e-mails and the one a player
bookmarked opened a 404 once a finished table left memory (10 minutes after its last viewer, or at a restart).
Now it opens the table's end screen, from memory or from the store, with the player's own seat.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from support.processes import PATIENT_S
from support.web import Msg, app_on, new_table, opened, play_to_the_end, token

pytestmark = pytest.mark.timeout(300)
TWO = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]


def end_seen_through(c: TestClient, table_id: str, link: str) -> Msg:
    """Open the seat link's page and its socket: the page is the table's, and the socket's view its end."""
    page = c.get(f"/play/{link}")
    assert page.status_code == 200, page.text
    assert f'data-table="{table_id}"' in page.text
    with c.websocket_connect(f"/ws/{table_id}?token={link}") as ws:
        hello = opened(ws)
    assert hello["hello"]["role"] == "player"
    return {**hello["state"]["view"], "seat": hello["hello"]["seat"]}


def test_a_finished_tables_seat_link_opens_its_end_screen_after_it_left_memory_and_after_a_restart(
        tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    # Swept every 2 s (a quarter of expire_after); expire_after itself long enough that a loaded machine's pause
    # between making the table and the first player's socket never retires it (1 s once did, in CI).
    with app_on(str(db), linger_after_end=0.5, expire_after=8.0, rate=1000.0, burst=1000.0) as c:
        t = new_table(c, TWO, tricks="beginner", target=2)
        links = [token(s["link"]) for s in t["seats"]]
        with c.websocket_connect(f"/ws/{t['id']}?token={links[0]}") as ada, \
                c.websocket_connect(f"/ws/{t['id']}?token={links[1]}") as bo:
            end = play_to_the_end({0: ada, 1: bo})
        assert end["over"]
        hub = c.app.state.hub
        deadline = time.monotonic() + PATIENT_S
        while t["id"] in hub.rooms and time.monotonic() < deadline:  # nobody looks: it leaves memory
            time.sleep(0.05)
        assert t["id"] not in hub.rooms and links[1] not in hub.by_token
        view = end_seen_through(c, t["id"], links[1])
        assert view["over"] and view["seat"] == 1 and view["moves"] == end["moves"]
    with app_on(str(db)) as again:  # a restart: nothing of the table in memory
        view = end_seen_through(again, t["id"], links[0])
        assert view["over"] and view["seat"] == 0 and view["moves"] == end["moves"]
        assert again.get("/play/" + "x" * 22).status_code == 404  # a link no table has is still refused
