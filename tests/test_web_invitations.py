"""Invitations by name (My games), on both stores: a signed-in creator keeps a seat for a named account, which
accepts (the seat is theirs) or declines (the seat stays an ordinary link seat); nobody else can do either.

The real app in-process (Starlette's test client) on a real SQLite file or PostgreSQL database; each person is
their own session cookie (the helpers of test_web_accounts.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from support.web import app_on, as_, sign_up, users_cli

pytestmark = pytest.mark.timeout(300)


def make_table(c: TestClient, who: str | None, invite: Any = "Bo", **seat: Any) -> Any:
    """A two-seat Spots table made by ``who`` with seat 1 kept for ``invite``: the response."""
    return as_(c, who).post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human", "invite": invite,
                                                                              **seat}],
                                                 "tricks": "beginner", "target": 1})


def invitations_on(page: str) -> list[tuple[str, str]]:
    """The (table, seat) of each invitation My games shows."""
    return re.findall(r'class="table-row invitation" data-table="(\w+)" data-seat="(\d+)"', page)


def test_an_invited_player_accepts_and_the_seat_is_theirs(db: str) -> None:
    with app_on(db) as c:
        ada, bo, cy = sign_up(c, "Ada"), sign_up(c, "Bo"), sign_up(c, "Cy")
        made = make_table(c, ada, invite="bo")  # any capitals
        assert made.status_code == 201, made.text
        table = made.json()
        assert table["seats"][1]["invited"] == "Bo"
        assert "data-invite-label" in as_(c, ada).get("/").text  # the lobby offers it signed in only
        assert "data-invite-label" not in as_(c, None).get("/").text
        link = table["seats"][1]["link"].rsplit("/", 1)[1]
        page = as_(c, bo).get("/me").text
        assert invitations_on(page) == [(table["id"], "1")]
        assert "Ada invites you to seat 2." in page and f"/play/{link}" not in page  # no link before accepting
        assert invitations_on(as_(c, cy).get("/me").text) == [] and invitations_on(as_(c, ada).get("/me").text) == []
        # Cy cannot accept or decline Bo's invitation, and nothing changes
        for action in ("accept", "decline"):
            r = as_(c, cy).post(f"/invitations/{table['id']}/1/{action}", follow_redirects=False)
            assert r.status_code == 403 and "This invitation is for another player" in r.text
        assert as_(c, None).post(f"/invitations/{table['id']}/1/accept", follow_redirects=False).status_code == 303
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        assert store.seat_account(table["id"], 1) is None
        assert invitations_on(as_(c, bo).get("/me").text) == [(table["id"], "1")]
        # Bo accepts: he is sent to the seat, which is his account's
        r = as_(c, bo).post(f"/invitations/{table['id']}/1/accept", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == f"/play/{link}"
        assert store.seat_account(table["id"], 1) == store.account_named("bo").id
        assert c.app.state.hub.rooms[table["id"]].names == ["Ada", "Bo"]  # type: ignore[attr-defined]
        assert as_(c, bo).get(f"/play/{link}").status_code == 200
        assert as_(c, cy).get(f"/play/{link}").status_code == 403  # the link no longer seats anyone else
        mine = as_(c, bo).get("/me").text
        assert invitations_on(mine) == [] and f"/play/{link}" in mine  # now one of his games
        again = as_(c, bo).post(f"/invitations/{table['id']}/1/accept", follow_redirects=False)
        assert again.status_code == 404


def test_a_declined_invitation_leaves_an_ordinary_link_seat(db: str) -> None:
    with app_on(db) as c:
        ada, bo, cy = sign_up(c, "Ada"), sign_up(c, "Bo"), sign_up(c, "Cy")
        table = make_table(c, ada).json()
        link = table["seats"][1]["link"].rsplit("/", 1)[1]
        r = as_(c, bo).post(f"/invitations/{table['id']}/1/decline", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/me"
        assert invitations_on(as_(c, bo).get("/me").text) == []
        assert as_(c, bo).post(f"/invitations/{table['id']}/1/accept", follow_redirects=False).status_code == 404
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        assert store.seat_account(table["id"], 1) is None
        # the creator's link still seats whoever she sends it to
        assert as_(c, cy).post(f"/play/{link}/take", follow_redirects=False).status_code == 303
        assert store.seat_account(table["id"], 1) == store.account_named("cy").id


def test_an_invitation_is_gone_once_someone_took_the_seat_with_its_link(db: str) -> None:
    with app_on(db) as c:
        ada, bo, cy = sign_up(c, "Ada"), sign_up(c, "Bo"), sign_up(c, "Cy")
        table = make_table(c, ada).json()
        link = table["seats"][1]["link"].rsplit("/", 1)[1]
        assert as_(c, cy).post(f"/play/{link}/take", follow_redirects=False).status_code == 303
        assert invitations_on(as_(c, bo).get("/me").text) == []
        r = as_(c, bo).post(f"/invitations/{table['id']}/1/accept", follow_redirects=False)
        assert r.status_code == 409 and "Someone took this seat" in r.text
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        assert store.seat_account(table["id"], 1) == store.account_named("cy").id


@pytest.mark.parametrize("invite, seat, said", [
    ("nobody", {}, "Nobody here has the name nobody"),
    ("", {}, "Seat 2: write the name of the account to invite"),
    (7, {}, "Seat 2: write the name of the account to invite"),
    ("Ada", {}, "Seat 2: you cannot invite yourself"),
    ("Bo", {"open": True}, "Seat 2: only a human seat that is neither yours nor open to the lobby"),
    ("Bo", {"kind": "bot"}, "Seat 2: only a human seat"),
])
def test_a_bad_invitation_is_refused_and_makes_no_table(db: str, invite: Any, seat: dict[str, Any], said: str
                                                        ) -> None:
    with app_on(db) as c:
        ada = sign_up(c, "Ada")
        sign_up(c, "Bo")
        hub = c.app.state.hub  # type: ignore[attr-defined]
        before = len(hub.rooms)
        r = make_table(c, ada, invite=invite, **seat)
        assert r.status_code == 400 and said in r.json()["message"], r.text
        assert len(hub.rooms) == before


def test_a_guest_cannot_invite_by_name_nor_anyone_a_disabled_account(db: str) -> None:
    with app_on(db) as c:
        ada = sign_up(c, "Ada")
        sign_up(c, "Bo")
        r = make_table(c, None)
        assert r.status_code == 400 and "Only a signed-in player can invite someone by name" in r.json()["message"]
        assert users_cli(db, "disable", "Bo")[0] == 0
        r = make_table(c, ada)
        assert r.status_code == 400 and "Nobody here has the name Bo" in r.json()["message"]


def test_deleting_an_account_deletes_its_invitations(db: str) -> None:
    with app_on(db) as c:
        ada = sign_up(c, "Ada")
        sign_up(c, "Bo")
        table = make_table(c, ada).json()
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        bo_id = store.account_named("bo").id
        assert [i.table_id for i in store.invitations_of(bo_id)] == [table["id"]]
        code, said = users_cli(db, "delete", "Bo", "--yes")
        assert code == 0, said
        assert store.invitation(table["id"], 1) is None and store.invitations_of(bo_id) == []


def test_an_invitation_made_on_one_process_is_accepted_on_the_other(postgres: Any, tmp_path: Path) -> None:
    from support.servers import Server

    url = postgres.database()
    servers = [Server(url, "--private", log=tmp_path / f"s{i}.log").launch() for i in range(2)]
    try:
        one, two = (s.ready() for s in servers)
        with httpx.Client(base_url=one.url) as ada, httpx.Client(base_url=two.url) as bo:
            for person, name in ((ada, "Ada"), (bo, "Bo")):
                assert person.post("/signup", data={"name": name, "password": "correct horse"}).status_code == 303
            made = ada.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human", "invite": "Bo"}],
                                                 "tricks": "beginner", "target": 1})
            assert made.status_code == 201, made.text
            table = made.json()
            link = table["seats"][1]["link"].rsplit("/", 1)[1]
            assert invitations_on(bo.get("/me").text) == [(table["id"], "1")]  # read from the store per page
            r = bo.post(f"/invitations/{table['id']}/1/accept", follow_redirects=False)
            assert r.status_code == 303 and r.headers["location"] == f"/play/{link}"
            assert bo.get(f"/play/{link}").status_code == 200
            assert httpx.get(f"{one.url}/play/{link}").status_code == 403  # Bo's seat on the first process too
    finally:
        for s in servers:
            s.stop()


def test_one_player_is_invited_to_one_seat_only(tmp_path: Path) -> None:
    with app_on(str(tmp_path / "spots.db")) as c:
        ada = sign_up(c, "Ada")
        sign_up(c, "Bo")
        r = as_(c, ada).post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human", "invite": "Bo"},
                                                            {"kind": "human", "invite": "BO"}], "target": 1})
        assert r.status_code == 400 and "Bo is invited to two seats" in r.json()["message"], r.text
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        assert store.invitations_of(store.account_named("bo").id) == []


def test_a_guest_cannot_take_an_invited_seat_of_a_rated_table(db: str) -> None:
    """A guest's game would count for nobody: the seat kept for Bo waits for a signed-in player."""
    with app_on(db) as c:
        ada, bo, cy = sign_up(c, "Ada"), sign_up(c, "Bo"), sign_up(c, "Cy")
        made = as_(c, ada).post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human", "invite": "Bo"}],
                                                     "tricks": "beginner", "target": 1, "rated": True})
        table = made.json()
        assert made.status_code == 201 and table["rated"] is True, made.text
        link = table["seats"][1]["link"].rsplit("/", 1)[1]
        r = as_(c, None).get(f"/play/{link}")
        assert r.status_code == 403 and "This seat of a rated table is kept for Bo: sign in to take it" in r.text
        with as_(c, None).websocket_connect(f"/ws/{table['id']}?token={link}") as ws:
            msg = ws.receive_json()
            assert msg["code"] == "sign-in-to-play" and "kept for Bo" in msg["message"], msg
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        assert not store.load_table(table["id"]).seats[1].claimed  # the guest's visits took nothing
        assert invitations_on(as_(c, bo).get("/me").text) == [(table["id"], "1")]  # still Bo's to accept
        # a signed-in player may take it with its link (the table still counts), as at any table
        assert as_(c, cy).get(f"/play/{link}").status_code == 200
        assert as_(c, cy).post(f"/play/{link}/take", follow_redirects=False).status_code == 303
        # and at a table that is not rated, a guest takes an invited seat's link as before
        plain = make_table(c, ada).json()
        other = plain["seats"][1]["link"].rsplit("/", 1)[1]
        assert as_(c, None).get(f"/play/{other}").status_code == 200


def test_the_host_page_shows_each_invitations_answer(db: str) -> None:
    with app_on(db) as c:
        ada, bo = sign_up(c, "Ada"), sign_up(c, "Bo")

        def status(table: dict[str, Any]) -> list[tuple[str, str]]:
            page = as_(c, ada).get(table["host"]).text  # the host link (the creator's)
            return re.findall(r'class="invitation-status" data-status="(\w+)">([^<]*)<', page)

        first, second = make_table(c, ada).json(), make_table(c, ada).json()
        assert status(first) == [("invited", "Kept for Bo: invited, no answer yet.")]
        assert as_(c, bo).post(f"/invitations/{first['id']}/1/decline", follow_redirects=False).status_code == 303
        assert status(first) == [("declined", "Bo declined your invitation: this link now seats whoever you send it"
                                              " to.")]
        assert as_(c, bo).post(f"/invitations/{second['id']}/1/accept", follow_redirects=False).status_code == 303
        assert status(second) == [("accepted", "Bo accepted your invitation.")]
        c.headers["Accept-Language"] = "es"  # in the reader's language
        assert status(second) == [("accepted", "Bo aceptó tu invitación.")]
        del c.headers["Accept-Language"]


def test_a_table_whose_invitation_cannot_be_stored_is_not_made(db: str) -> None:
    """The table and its invitations are one transaction: when the invitation cannot be written, neither is."""
    with app_on(db) as c:
        ada = sign_up(c, "Ada")
        sign_up(c, "Bo")
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        tables_before = store._query("SELECT COUNT(*) FROM tables")[0][0]
        refuse_invitations(db)
        r = make_table(c, ada)
        assert r.status_code == 503 and "could not be created" in r.json()["message"], r.text
        assert store._query("SELECT COUNT(*) FROM tables")[0][0] == tables_before
        assert store._query("SELECT COUNT(*) FROM seats WHERE account IS NULL")[0][0] == 0
        assert as_(c, None).get("/api/tables").json()["tables"] == []


def refuse_invitations(db: str) -> None:
    """Make every new invitation fail to be written (a trigger raising, as a full disk or a lost lock would)."""
    if db.startswith("postgresql"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("CREATE FUNCTION no_invitation() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION"
                         " 'cannot write an invitation'; END $$ LANGUAGE plpgsql")
            conn.execute("CREATE TRIGGER no_invitation BEFORE INSERT ON invitations FOR EACH ROW EXECUTE FUNCTION"
                         " no_invitation()")
        return
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TRIGGER no_invitation BEFORE INSERT ON invitations BEGIN"
                     " SELECT RAISE(ABORT, 'cannot write an invitation'); END")
