"""Clubs on both stores: founding one, joining by request and approval or by invite link, the admins' powers, a
club's events for its members only, and its leaderboard (members' ratings and the season's points)."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.processes import PATIENT_S
from support.web import app_on, as_, sign_up

pytestmark = pytest.mark.timeout(300)


def post(c: TestClient, path: str, **form: str) -> Any:
    return c.post(path, data=form, follow_redirects=False)


def found(c: TestClient, session: str, name: str) -> str:
    as_(c, session)
    r = post(c, "/clubs", name=name, about="We meet on Tuesdays")
    assert r.status_code == 303, r.text
    return str(r.headers["location"].rsplit("/", 1)[1])


def account_id(c: TestClient, club: str, name: str) -> str:
    page = c.get(f"/clubs/{club}").text
    found = re.search(rf'data-account="(\w+)">(?:<a [^>]*>)?{name}\b', page)
    assert found, page
    return found.group(1)


def test_a_club_from_founding_to_its_season_leaderboard(db: str) -> None:
    with app_on(db, bot_delay=0.0) as c:
        ann, bob, cy, dee = (sign_up(c, n) for n in ("Ann", "Bob", "Cy", "Dee"))
        club = found(c, ann, "Tuesday Spots")
        taken = post(c, "/clubs", name="tuesday  spots")
        assert taken.status_code == 409 and "already a club named tuesday spots" in taken.text  # a page, not JSON
        assert c.get("/clubs").text.count("Tuesday Spots") == 1
        for n in range(4):
            found(c, ann, f"Club {n}")
        assert post(c, "/clubs", name="One too many").status_code == 429  # five clubs run already

        as_(c, bob)  # Bob asks; only an admin can let him in
        assert post(c, f"/clubs/{club}/ask").status_code == 303
        assert 'id="pending"' in c.get(f"/clubs/{club}").text
        assert post(c, f"/clubs/{club}/approve", account="x").status_code == 403
        as_(c, ann)
        bob_id = account_id(c, club, "Bob")
        assert post(c, f"/clubs/{club}/approve", account=bob_id).status_code == 303
        assert 'data-role="member"' in as_(c, bob).get(f"/clubs/{club}").text

        as_(c, ann)  # Cy comes by the invite link; a new link ends the old one
        link = re.search(r'id="invite-link">([^<]+)<', c.get(f"/clubs/{club}").text).group(1)  # type: ignore[union-attr]
        as_(c, cy)
        opened = c.get(link, follow_redirects=False)
        assert opened.status_code == 303 and "?invite=" in opened.headers["location"]
        assert 'id="join-club"' in c.get(opened.headers["location"]).text
        assert post(c, f"/clubs/{club}/join", invite=link.rsplit("/", 1)[1]).status_code == 303
        assert 'data-role="member"' in c.get(f"/clubs/{club}").text
        as_(c, ann)
        post(c, f"/clubs/{club}/new-invite")
        as_(c, dee)
        assert post(c, f"/clubs/{club}/join", invite=link.rsplit("/", 1)[1]).status_code == 403

        as_(c, bob)  # a member cannot make the club's events; an admin can, and only members sign up
        event = {"name": "Club cup", "game": "spots", "format": "swiss", "rounds": 1, "club": club, "rated": True,
                 "pace": {"pace": "turn-based", "seconds": 1}, "options": {"target": 1, "tricks": "beginner"}}
        assert c.post("/tournaments", json=event).status_code == 403
        as_(c, ann)
        assert f'name="club" value="{club}"' in c.get(f"/tournaments?club={club}").text
        cup = c.post("/tournaments", json=event).json()["id"]
        assert f'href="/clubs/{club}"' in c.get(f"/tournaments/{cup}").text
        as_(c, dee)
        refused = c.post(f"/tournaments/{cup}/join", json={})
        assert refused.status_code == 403 and "only its members sign up" in refused.json()["message"]
        for session in (bob, cy):
            assert as_(c, session).post(f"/tournaments/{cup}/join", json={}).status_code == 200
        as_(c, ann)
        c.post(f"/tournaments/{cup}/bots", json={"bot": "greedy"})
        c.post(f"/tournaments/{cup}/start", json={})
        deadline = time.time() + 6 * PATIENT_S
        while c.get(f"/api/tournaments/{cup}").json()["status"] != "over":
            assert time.time() < deadline, "the club's event did not end"
            time.sleep(0.3)
        page = c.get(f"/clubs/{club}").text
        season = page[page.index('id="season-points"'):page.index("</table>", page.index('id="season-points"'))]
        assert "Bob" in season and "Cy" in season and "greedy" not in season  # members only
        ratings = page[page.index('data-game="spots"'):]
        assert "Bob" in ratings.split("</table>")[0]  # the rated event rated its members
        post(c, f"/clubs/{club}/season", season="2099-01-01")  # a season not begun: no points yet
        page = c.get(f"/clubs/{club}").text
        assert "Bob" not in page[page.index('id="season-points"'):page.index("</table>", page.index(
            'id="season-points"'))]
        assert post(c, f"/clubs/{club}/season", season="soon").status_code == 400

        assert post(c, f"/clubs/{club}/leave").status_code == 409  # the last admin stays
        assert post(c, f"/clubs/{club}/admin", account=bob_id).status_code == 303
        assert post(c, f"/clubs/{club}/leave").status_code == 303
        assert 'data-role=""' in c.get(f"/clubs/{club}").text
        as_(c, bob)
        assert post(c, f"/clubs/{club}/remove", account=account_id(c, club, "Cy")).status_code == 303
        assert "Cy" not in c.get(f"/clubs/{club}").text.split('id="members"')[1].split("</ul>")[0]
