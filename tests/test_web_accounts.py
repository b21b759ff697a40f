"""Accounts through the API, on both stores: what is refused (forgery, guessing, someone else's session or seat),
sessions rotated and ended everywhere, and the host's ``spots users``.

The real app in-process (Starlette's test client) on a real SQLite file or PostgreSQL database; one test
client per app, and each person is their own session cookie.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from spots.web import create_app
from spots.web.accounts.service import COOKIE, DEVICE_COOKIE, hash_secret
from spots.web.store import open_store
from support.processes import PATIENT_S
from support.web import app_on, as_, sign_up, users_cli

pytestmark = pytest.mark.timeout(300)


EVIL = "https://evil.example"


def sign_in(c: TestClient, name: str, password: str, token: str | None = None) -> httpx.Response:
    as_(c, token)
    return c.post("/signin", data={"name": name, "password": password}, follow_redirects=False)


def signed_in_as(c: TestClient, token: str | None) -> str | None:
    """Who the server thinks this cookie is (the header's link), or None."""
    found = re.search(r'id="me-link">([^<]+) ·', as_(c, token).get("/").text)
    return found.group(1) if found else None


def error_of(r: httpx.Response) -> str:
    found = re.search(r'id="account-error" role="alert">([^<]*)<', r.text)
    return found.group(1) if found else ""


def test_cross_site_posts_to_the_account_routes_are_refused_and_change_nothing(db: str) -> None:
    with app_on(db) as c:
        ada = sign_up(c, "Ada")
        table = as_(c, ada).post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                                      "tricks": "beginner", "target": 1}).json()
        other_seat = table["seats"][1]["link"].rsplit("/", 1)[1]
        forged = [("/signup", {"name": "Mallory", "password": "correct horse"}),
                  ("/signin", {"name": "Ada", "password": "correct horse"}),
                  ("/signout", {}), ("/signout/everywhere", {}), ("/me/settings", {"email": "m@evil.example"}),
                  (f"/play/{other_seat}/take", {}), ("/reset", {"name": "Ada", "code": "x", "password": "12345678"})]
        for path, form in forged:
            for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}):
                r = as_(c, ada).post(path, data=form, headers=headers, follow_redirects=False)
                assert r.status_code == 403 and r.json()["error"] == "cross-origin", (path, headers, r.text)
        for path in ("/api/passkeys/register/options", "/api/passkeys/signin/options", "/api/passkeys/signin"):
            r = as_(c, ada).post(path, json={}, headers={"Origin": EVIL})
            assert r.status_code == 403, path
        # nothing changed: Ada is still signed in, has no e-mail, the seat is nobody's account, no Mallory
        assert signed_in_as(c, ada) == "Ada"
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        assert store.account_named("mallory") is None and store.account_named("ada").email is None
        assert store.seat_account(table["id"], 1) is None
        # the same requests from the site's own pages pass
        r = as_(c, ada).post("/me/settings", data={"email": "ada@example.org", "notify": "1"},
                             headers={"Origin": "http://testserver"}, follow_redirects=False)
        assert r.status_code == 303 and store.account_named("ada").notify
        r = as_(c, ada).post("/me/settings", data={"email": "not an address", "notify": "1"})
        assert r.status_code == 400 and "That is not an e-mail address" in r.text and 'id="my-games"' in r.text
        assert store.account_named("ada").email == "ada@example.org"  # refused: nothing changed


def test_the_account_page_keeps_the_chosen_e_mail_notices_and_refuses_any_other(db: str) -> None:
    with app_on(db) as c:
        ada = sign_up(c, "Ada")
        store = c.app.state.hub.store  # type: ignore[attr-defined]

        def choose(notify: str, email: str = "ada@example.org") -> httpx.Response:
            return as_(c, ada).post("/me/settings", data={"email": email, "notify": notify})

        for value, kept in (("1", 1), ("2", 2), ("0", 0)):  # each turn, once a day, never
            page = choose(value)
            assert page.status_code == 200 and store.account_named("ada").notify == kept
            assert f'name="notify" value="{value}" checked' in page.text  # the page shows the choice kept
        choose("2")
        r = choose("7")
        assert r.status_code == 400 and "never, each time a table waits for your move, or once a day" in r.text
        assert store.account_named("ada").notify == 2  # refused: nothing changed
        choose("2", email="")
        assert store.account_named("ada").notify == 0  # no address: no notices


def test_a_passkey_is_removed_from_the_account_page_but_never_the_last_way_in(db: str) -> None:
    """A lost phone's passkey can be removed from My games (issue 43: none could be); only one's own, and not the
    only passkey of an account without a password."""
    with app_on(db) as c:
        ada, bo = sign_up(c, "Ada"), sign_up(c, "Bo")
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        ada_id, bo_id = store.account_named("ada").id, store.account_named("bo").id
        for credential, owner in (("ada-phone", ada_id), ("ada-laptop", ada_id), ("bo-phone", bo_id)):
            store.add_passkey(credential, owner, "key", 0)
        page = as_(c, ada).get("/me").text
        assert "2 passkeys" in page and 'data-passkey="ada-phone"' in page and "bo-phone" not in page

        def remove(token: str, credential: str) -> httpx.Response:
            return as_(c, token).post("/me/passkeys/remove", data={"passkey": credential}, follow_redirects=False)

        r = remove(ada, "ada-phone")
        assert r.status_code == 303 and r.headers["location"] == "/me?removed=1"
        assert [k.id for k in store.passkeys_of(ada_id)] == ["ada-laptop"]
        assert "Passkey removed." in as_(c, ada).get("/me?removed=1").text
        r = remove(ada, "bo-phone")  # another account's passkey: not hers to remove
        assert r.status_code == 404 and "You have no such passkey" in r.text
        assert [k.id for k in store.passkeys_of(bo_id)] == ["bo-phone"]
        assert "1 passkey" in as_(c, bo).get("/me").text and "ada-laptop" not in as_(c, bo).get("/me").text
        assert remove(ada, "ada-phone").status_code == 404  # removed already
        store.set_account(ada_id, password=None)  # an account whose only way in is its one passkey
        r = remove(ada, "ada-laptop")
        assert r.status_code == 400 and "your only way to sign in" in r.text
        assert [k.id for k in store.passkeys_of(ada_id)] == ["ada-laptop"]


def test_wrong_passwords_are_slowed_then_refused_for_that_account_only(db: str) -> None:
    with app_on(db, signin_failures=4, signin_lockout=120.0) as c:
        sign_up(c, "Ada")
        sign_up(c, "Bo")
        took = []
        for _ in range(3):
            start = time.monotonic()
            r = sign_in(c, "ada", "wrong guess")
            took.append(time.monotonic() - start)
            assert r.status_code == 401 and error_of(r) == "Wrong name or password." and COOKIE not in r.cookies
        assert took[1] >= 1.0 and took[2] >= 2.0, took  # from half of the limit on, each guess costs more
        r = sign_in(c, "ada", "wrong guess")  # the 4th: locked
        assert r.status_code == 429 and "2 min" in error_of(r) and int(r.headers["Retry-After"]) >= 119
        r = sign_in(c, "ada", "correct horse")  # even the right password is refused now, with when to retry
        assert r.status_code == 429 and "A passkey still signs in" in error_of(r) and COOKIE not in r.cookies
        r = sign_in(c, "Bo", "correct horse")  # another account, from the same address, is not locked
        assert r.status_code == 303 and COOKIE in r.cookies
        r = sign_in(c, "nobody", "whatever1")  # an unknown name reads the same as a wrong password
        assert r.status_code == 401 and error_of(r) == "Wrong name or password."


def test_an_unknown_name_is_slowed_and_locked_as_a_real_one_is(db: str) -> None:
    """The answers to wrong passwords do not tell which names have an account (issue 42, finding 9)."""
    with app_on(db, signin_failures=4, signin_lockout=120.0) as c:
        sign_up(c, "Ada")

        def answers(name: str) -> list[tuple[int, str]]:
            out = []
            for attempt in range(4):
                start = time.monotonic()
                r = sign_in(c, name, "wrong guess")
                if attempt == 2:  # past half the limit: slowed, whether the name exists or not
                    assert time.monotonic() - start >= 1.0, name
                out.append((r.status_code, error_of(r)))
            return out

        real, unknown = answers("ada"), answers("nobody")
        assert unknown == real, (real, unknown)
        assert [status for status, _ in unknown] == [401, 401, 401, 429]
        assert "A passkey still signs in" in unknown[3][1]


def sign_in_on(c: TestClient, device: str, name: str, password: str) -> httpx.Response:
    """A sign-in from a browser holding a device cookie (and no session)."""
    as_(c, None).cookies.set(DEVICE_COOKIE, device)
    return c.post("/signin", data={"name": name, "password": password}, follow_redirects=False)


def test_a_strangers_wrong_passwords_do_not_lock_the_owners_own_browser_out(db: str) -> None:
    """Issue 42, finding 7: anyone could lock an owner's password out with a few wrong tries from anywhere. A
    browser that signed in to the account before is past the account's lock; its own wrong tries lock it alone."""
    with app_on(db, signin_failures=2, signin_lockout=120.0, signins_per_minute=1000) as c:
        sign_up(c, "Ada")
        owners = str(c.cookies[DEVICE_COOKIE])  # the browser that signed up holds a device cookie
        sign_up(c, "Bo")
        bos = str(c.cookies[DEVICE_COOKIE])
        assert owners != bos
        assert [sign_in(c, "ada", "wrong guess").status_code for _ in range(2)] == [401, 429]  # a stranger locks it
        assert sign_in(c, "ada", "correct horse").status_code == 429  # a new browser, even with the password
        assert sign_in_on(c, bos, "ada", "correct horse").status_code == 429  # another account's browser
        assert sign_in_on(c, "made-up", "ada", "correct horse").status_code == 429  # a cookie nobody was given
        r = sign_in_on(c, owners, "Ada", "correct horse")  # the owner's own browser signs in
        assert r.status_code == 303 and COOKIE in r.cookies, error_of(r)
        assert signed_in_as(c, str(r.cookies[COOKIE])) == "Ada"
        assert r.cookies[DEVICE_COOKIE] == owners  # the same browser, its cookie renewed
        assert sign_in(c, "ada", "correct horse").status_code == 429  # and the account stays locked to strangers
        # the owner's own wrong tries are slowed and locked as the account's are, on that browser alone
        assert [sign_in_on(c, owners, "ada", "wrong guess").status_code for _ in range(2)] == [401, 429]
        assert sign_in_on(c, owners, "ada", "correct horse").status_code == 429
        assert sign_in_on(c, bos, "Bo", "correct horse").status_code == 303  # Bo's browser is Bo's business
        # "sign out everywhere" forgets the browsers: Bo's cookie is no longer past a lock
        assert as_(c, sign_in(c, "Bo", "correct horse").cookies[COOKIE]).post("/signout/everywhere").status_code \
            == 200
        assert [sign_in(c, "bo", "wrong guess").status_code for _ in range(2)] == [401, 429]
        assert sign_in_on(c, bos, "Bo", "correct horse").status_code == 429


def test_a_name_that_looks_like_one_taken_or_mixes_alphabets_is_refused(db: str) -> None:
    """Issue 42, finding 8: Аlice (a Cyrillic А), Alıce and ALİCE were all accepted beside Alice."""
    with app_on(db, signins_per_minute=1000) as c:
        sign_up(c, "Alice")
        for name in ("Alıce", "ALİCE", "ＡＬＩＣＥ", "A1ice"):  # a dotless ı, a dotted İ, full width, a one for an l
            r = as_(c, None).post("/signup", data={"name": name, "password": "correct horse"}, follow_redirects=False)
            assert r.status_code == 400 and COOKIE not in r.cookies, name
            assert error_of(r) == f"The name {name} looks too much like Alice, a name taken here; choose another."
        r = as_(c, None).post("/signup", data={"name": "Аlice", "password": "correct horse"}, follow_redirects=False)
        assert r.status_code == 400 and "mixes letters of several (such as Latin and Cyrillic)" in error_of(r)
        # names that only share letters, other scripts, and the mixes East Asian names make are welcome
        for name in ("Alicia", "Zoë", "Zoe", "Nguyễn", "Nguyên", "Дмитрий", "陳大文", "陳Tai", "さくらSakura"):
            sign_up(c, name)
        assert signed_in_as(c, sign_up(c, "Ελένη")) == "Ελένη"


@pytest.mark.parametrize("trouble", ["database or disk is full", "attempt to write a readonly database"])
def test_sign_up_and_settings_on_a_full_or_read_only_database_say_so_and_change_nothing(tmp_path: Path,
                                                                                      trouble: str) -> None:
    """Issue 42's untested list. SQLite itself raises the error, from triggers that refuse the writes as a full disk
    or a read-only file would: a page saying to try again (503 with Retry-After, never a bare 500), nothing kept,
    and everything as before once the trouble is gone."""
    with app_on(str(tmp_path / "s.db"), signins_per_minute=1000) as c:
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        ada = sign_up(c, "Ada")
        with store.lock, store.db:
            for table, when in (("accounts", "INSERT"), ("accounts", "UPDATE")):
                store.db.execute(f"CREATE TRIGGER trouble_{when.lower()} BEFORE {when} ON {table}"
                                 f" BEGIN SELECT RAISE(ABORT, '{trouble}'); END")
        r = as_(c, None).post("/signup", data={"name": "Bo", "password": "correct horse"}, follow_redirects=False)
        assert r.status_code == 503 and int(r.headers["Retry-After"]) > 0 and COOKIE not in r.cookies
        assert "could not save this just now, so nothing was changed" in r.text
        r = as_(c, ada).post("/me/settings", data={"email": "ada@example.org", "notify": "1"}, follow_redirects=False)
        assert r.status_code == 503 and "nothing was changed" in r.text
        assert store.account_named("bo") is None and store.account_named("ada").email is None  # type: ignore[union-attr]
        with store.lock, store.db:
            store.db.execute("DROP TRIGGER trouble_insert")
            store.db.execute("DROP TRIGGER trouble_update")
        assert signed_in_as(c, sign_up(c, "Bo")) == "Bo"
        assert signed_in_as(c, ada) == "Ada"
        with store.lock, store.db:  # the account is written, its session is not: the page says which
            store.db.execute(f"CREATE TRIGGER no_session BEFORE INSERT ON sessions"
                             f" BEGIN SELECT RAISE(ABORT, '{trouble}'); END")
        r = as_(c, None).post("/signup", data={"name": "Cy", "password": "correct horse"}, follow_redirects=False)
        assert r.status_code == 503 and COOKIE not in r.cookies
        assert error_of(r) == ("Your account Cy is made, but the server could not sign you in just now; sign in again"
                               " in a few minutes.")
        with store.lock, store.db:
            store.db.execute("DROP TRIGGER no_session")
        assert sign_in(c, "Cy", "correct horse").status_code == 303


def test_sign_in_attempts_are_limited_per_client(db: str) -> None:
    with app_on(db, signins_per_minute=3) as c:
        for name in ("Ada", "Bo"):  # sign-ups count as attempts too
            sign_up(c, name)
        assert sign_in(c, "Ada", "correct horse").status_code == 303
        r = sign_in(c, "Bo", "correct horse")
        assert r.status_code == 429 and "from your address" in error_of(r) and int(r.headers["Retry-After"]) >= 1


def test_sign_ups_resets_and_passkey_challenges_are_limited_per_network(db: str) -> None:
    """Behind a trusted proxy, the addresses of one IPv6 /64 are one client to every route that makes an account,
    a session or a stored challenge (issue 42, findings 6 and 12)."""
    app = ProxyHeadersMiddleware(create_app(db, bot_delay=30.0, requests_per_second=1000.0, signins_per_minute=3),
                                 trusted_hosts="*")
    with TestClient(app) as c:
        def post(path: str, address: str, **kwargs: Any) -> httpx.Response:
            c.cookies.clear()
            return c.post(path, headers={"X-Forwarded-For": address, "Origin": "http://testserver"},
                          follow_redirects=False, **kwargs)

        for n, name in enumerate(("Ada", "Bo", "Cy"), 1):
            assert post("/signup", f"2001:db8:1:2::{n}", data={"name": name, "password": "correct horse"}
                        ).status_code == 303
        refused = post("/signup", "2001:db8:1:2::4", data={"name": "Dee", "password": "correct horse"})
        assert refused.status_code == 429 and "from your address" in error_of(refused)
        assert post("/reset", "2001:db8:1:2::5", data={"name": "Ada", "code": "x", "password": "new horse"}
                    ).status_code == 429
        assert post("/signup", "2001:db8:1:3::1", data={"name": "Dee", "password": "correct horse"}
                    ).status_code == 303  # the next /64 is another client

        answers = [post("/api/passkeys/signin/options", f"2001:db8:7:7::{n}", json={}) for n in range(1, 5)]
        assert [r.status_code for r in answers] == [200, 200, 200, 429]
        assert answers[3].json()["error"] == "too-many-attempts" and int(answers[3].headers["Retry-After"]) >= 1


@pytest.mark.parametrize("target", ["//evil.example/", "/\t/evil.example/", "/\\evil.example", "https://evil.example/",
                                    "/ok\n", "evil"])
def test_after_signing_in_a_visitor_is_only_sent_to_a_page_of_this_site(tmp_path: Path, target: str) -> None:
    from spots.web.accounts.routes import local_path

    assert local_path(target) == "/me" and local_path("/play/a-B_9?x=1") == "/play/a-B_9?x=1"
    with app_on(str(tmp_path / "n.db")) as c:
        r = c.post("/signup", data={"name": "Ada", "password": "correct horse", "next": target},
                   follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/me"


def test_the_lobbys_poll_never_asks_the_store_for_the_session(tmp_path: Path) -> None:
    """The lobby polls /api/tables every few seconds: signed in or not, that costs no session look-up."""
    with app_on(str(tmp_path / "p.db")) as c:
        ada = sign_up(c, "Ada")
        accounts = c.app.state.ctx.accounts  # type: ignore[attr-defined]
        asked: list[str] = []
        real = accounts.lookup

        async def counted(token: str) -> Any:
            asked.append(token)
            return await real(token)

        accounts.lookup = counted
        for _ in range(3):
            assert as_(c, ada).get("/api/tables").status_code == 200
        assert asked == []
        assert signed_in_as(c, ada) == "Ada" and asked == [ada]  # a page does ask


def test_sessions_are_rotated_at_sign_in_and_end_everywhere(db: str) -> None:
    with app_on(db) as c:
        first = sign_up(c, "Ada")
        second = sign_in(c, "Ada", "correct horse").cookies[COOKIE]
        rotated = sign_in(c, "Ada", "correct horse", token=second).cookies[COOKIE]  # signing in again, signed in
        assert len({first, second, rotated}) == 3
        assert signed_in_as(c, first) == "Ada" and signed_in_as(c, rotated) == "Ada"
        assert signed_in_as(c, second) is None  # the session signed in over ended
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        assert signed_in_as(c, hash_secret(rotated)) is None  # what the store keeps signs nobody in
        with store.lock:
            kept = [r[0] for r in store._read("SELECT hash FROM sessions")]
        assert rotated not in kept and hash_secret(rotated) in kept
        r = as_(c, rotated).post("/signout/everywhere", follow_redirects=False)
        assert r.status_code == 303 and 'spots_session=""' in r.headers["set-cookie"]
        assert signed_in_as(c, first) is None and signed_in_as(c, rotated) is None
        assert as_(c, first).get("/me", follow_redirects=False).headers["location"] == "/signin"


def test_another_players_session_or_seat_is_not_usable(db: str) -> None:
    with app_on(db) as c:
        ada, bo = sign_up(c, "Ada"), sign_up(c, "Bo")
        table = as_(c, ada).post("/api/tables", json={"seats": [{"kind": "human", "name": "ignored"},
                                                                {"kind": "human", "name": "Guest"}],
                                                      "tricks": "beginner", "target": 1}).json()
        assert [s["name"] for s in table["seats"]] == ["Ada", "Guest"]  # the creator sits under the account name
        ada_seat, guest_seat = (s["link"].rsplit("/", 1)[1] for s in table["seats"])
        # Ada's seat link does not seat Bo, a guest, or anyone with a made-up cookie
        for who in (bo, None, "made-up-session-token"):
            r = as_(c, who).get(f"/play/{ada_seat}")
            assert r.status_code == 403 and "sign in as Ada" in r.text
            with as_(c, who).websocket_connect(f"/ws/{table['id']}?token={ada_seat}") as ws:
                msg = ws.receive_json()
                assert msg["code"] == "not-your-seat", msg
        r = as_(c, bo).post(f"/play/{ada_seat}/take", follow_redirects=False)
        assert r.status_code == 403
        store = c.app.state.hub.store  # type: ignore[attr-defined]
        assert store.seat_account(table["id"], 0) == store.account_named("ada").id
        # Ada plays her seat; a signed-in player who cannot play it cannot act for it either
        with as_(c, ada).websocket_connect(f"/ws/{table['id']}?token={ada_seat}") as ws:
            assert ws.receive_json()["seat"] == 0
            ws.send_json({"type": "move", "move": "roll", "seat": 1})
            msg = ws.receive_json()
            while msg["type"] != "error":
                msg = ws.receive_json()
            assert msg["code"] == "wrong-seat"
        # the guest's seat plays as before; Bo may keep it, and then it is his alone
        assert as_(c, None).get(f"/play/{guest_seat}").status_code == 200
        r = as_(c, bo).get(f"/play/{guest_seat}")
        assert r.status_code == 200 and 'id="take-seat"' in r.text
        assert as_(c, bo).post(f"/play/{guest_seat}/take", follow_redirects=False).status_code == 303
        assert c.app.state.hub.rooms[table["id"]].names == ["Ada", "Bo"]  # type: ignore[attr-defined]
        assert as_(c, None).get(f"/play/{guest_seat}").status_code == 403
        assert as_(c, ada).post(f"/play/{guest_seat}/take", follow_redirects=False).status_code == 403
        # My games lists each one's own tables with their own links only
        assert f"/play/{guest_seat}" in as_(c, bo).get("/me").text
        mine = as_(c, ada).get("/me").text
        assert f"/play/{ada_seat}" in mine and f"/play/{guest_seat}" not in mine


def test_a_guests_seat_page_is_as_before_with_a_sign_in_link(tmp_path: Path) -> None:
    with app_on(str(tmp_path / "t.db")) as c:
        t = c.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        page = c.get(t["seats"][1]["link"])
        assert page.status_code == 200 and 'id="take-seat"' not in page.text and 'id="signin-link"' in page.text
        assert COOKIE not in page.cookies  # a guest is never given a session


def test_an_open_seat_taken_from_the_lobby_signed_in_is_the_accounts(db: str) -> None:
    with app_on(db) as c:
        bo = sign_up(c, "Bo")
        t = as_(c, None).post("/api/tables", json={"seats": [{"kind": "human", "name": "Ann"},
                                                             {"kind": "human", "open": True}]}).json()
        r = as_(c, bo).post(f"/api/tables/{t['id']}/join", json={"seat": 1, "name": "Someone else"})
        assert r.status_code == 200
        room = c.app.state.hub.rooms[t["id"]]  # type: ignore[attr-defined]
        assert room.names == ["Ann", "Bo"] and room.row.seats[1].account is not None
        assert as_(c, None).get(f"/play/{r.json()['token']}").status_code == 403  # Bo's, not the link's
        assert as_(c, bo).get(f"/play/{r.json()['token']}").status_code == 200


def test_behind_https_the_session_cookie_is_secure(tmp_path: Path) -> None:
    app = create_app(tmp_path / "s.db", bot_delay=30.0, public_url="https://spots.example.org")
    with TestClient(app, base_url="https://spots.example.org") as c:
        r = c.post("/signup", data={"name": "Ada", "password": "correct horse"}, follow_redirects=False,
                   headers={"Origin": "https://spots.example.org"})
        cookies = r.headers.get_list("set-cookie")
        assert r.status_code == 303 and {c.split("=")[0] for c in cookies} == {COOKIE, DEVICE_COOKIE}
        assert all("Secure" in c and "HttpOnly" in c and "SameSite=lax" in c for c in cookies), cookies


def test_my_games_puts_the_tables_waiting_on_me_first_and_profiles_count_wins(db: str) -> None:
    with app_on(db) as c:
        ada = sign_up(c, "Ada")
        rooms = c.app.state.hub.rooms  # type: ignore[attr-defined]

        def table() -> tuple[dict[str, Any], bool]:
            """A new table with Ada in seat 0, and whether it waits on her (who starts is drawn)."""
            made = as_(c, ada).post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}],
                                                         "tricks": "beginner", "target": 1}).json()
            return made, rooms[made["id"]].state.current_player() == 0

        first, first_waits = table()
        second, second_waits = table()
        while second_waits == first_waits:  # until one waits on Ada and one does not (each a coin toss)
            second, second_waits = table()
        waiting, other = (first, second) if first_waits else (second, first)
        page = as_(c, ada).get("/me").text
        order = [t for t in re.findall(r'class="table-row(?: my-turn)?" data-table="(\w+)"', page)
                 if t in (waiting["id"], other["id"])]
        assert order == [waiting["id"], other["id"]]  # the one waiting on Ada first, though the newer may be the other
        assert re.search(rf'class="table-row my-turn" data-table="{waiting["id"]}"', page)
        made = [first, second]
        profile = as_(c, None).get("/players/ADA")
        assert profile.status_code == 200 and "No finished games yet." in profile.text
        assert all(f"/t/{t['id']}\"" in profile.text for t in made)  # watch links, never seat links
        assert "/play/" not in profile.text
        assert as_(c, None).get("/players/nobody").status_code == 404


def test_a_session_made_on_one_process_is_honoured_by_the_other(postgres: Any, tmp_path: Path) -> None:
    from support.servers import Server

    url = postgres.database()
    servers = [Server(url, "--private", log=tmp_path / f"s{i}.log").launch() for i in range(2)]
    try:
        one, two = (s.ready() for s in servers)
        with httpx.Client(base_url=one.url) as first:
            r = first.post("/signup", data={"name": "Ada", "password": "correct horse"})
            assert r.status_code == 303 and "My games" in first.get("/me").text
            token = first.cookies[COOKIE]
            made = first.post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        seat_link = made["seats"][0]["link"].rsplit("/", 1)[1]
        assert httpx.get(f"{two.url}/play/{seat_link}").status_code == 403  # Ada's seat, on the other process too
        with httpx.Client(base_url=two.url, cookies={COOKIE: token}) as second:
            assert 'id="me-link">Ada' in second.get("/").text
            assert second.get(f"/play/{seat_link}").status_code == 200
            assert second.post("/signout/everywhere", follow_redirects=False).status_code == 303
        with httpx.Client(base_url=one.url, cookies={COOKIE: token}) as again:
            deadline = time.monotonic() + PATIENT_S
            while 'id="signin-link"' not in again.get("/").text:  # ended at once: each request asks the store
                assert time.monotonic() < deadline
        for s in servers:
            s.stop()
        log = "".join((tmp_path / f"s{i}.log").read_text() for i in range(2))
        assert token not in log and "correct horse" not in log
    finally:
        for s in servers:
            s.stop()


def test_the_hosts_users_command_lists_disables_resets_and_deletes(db: str, capsys: pytest.CaptureFixture[str]
                                                                    ) -> None:
    with app_on(db) as c:
        ada, bo = sign_up(c, "Ada"), sign_up(c, "Bo")
        table = as_(c, ada).post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
                                                      "tricks": "beginner", "target": 1}).json()
        code, text = users_cli(db, "list")
        assert code == 0 and re.search(r"^Ada .* 1 +0 +-$", text, re.M) and text.strip().endswith("2 accounts")
        assert users_cli(db, "disable", "ada")[0] == 0
        assert signed_in_as(c, ada) is None and sign_in(c, "Ada", "correct horse").status_code == 403
        assert "DISABLED" in users_cli(db, "list")[1]
        users_cli(db, "enable", "Ada")
        # a one-time code, entered by the player with a new password; it works once
        code, text = users_cli(db, "reset", "Ada")
        reset = text.strip().splitlines()[-1]
        assert code == 0 and len(reset) >= 16
        form = {"name": "Ada", "code": reset, "password": "battery staple"}
        assert as_(c, None).post("/reset", data=form, follow_redirects=False).status_code == 303
        assert as_(c, None).post("/reset", data=form, follow_redirects=False).status_code == 400
        assert sign_in(c, "Ada", "battery staple").status_code == 303
        # or the host sets one, read from standard input (never an argument)
        assert users_cli(db, "reset", "Ada", "--password-stdin", stdin="host chosen pw\n")[0] == 0
        assert sign_in(c, "Ada", "host chosen pw").status_code == 303
        assert users_cli(db, "reset", "Ada", "--password-stdin", stdin="short\n")[0] == 2
        assert "8 to 256 characters" in capsys.readouterr().err
        # deleting takes the personal data; the seat stays, anonymous
        assert users_cli(db, "delete", "Ada")[0] == 2 and "--yes" in capsys.readouterr().err
        code, text = users_cli(db, "delete", "Ada", "--yes")
        assert code == 0 and "1 seat(s)" in text
        assert users_cli(db, "disable", "Ada")[0] == 2 and "no account named 'Ada'" in capsys.readouterr().err
    store = open_store(db)
    try:
        row = store.load_table(table["id"])
        assert row is not None and (row.seats[0].name, row.seats[0].account) == ("deleted player", None)
        assert store.account_named("bo") is not None and store.account_named("ada") is None
        with store.lock:
            assert store._read("SELECT COUNT(*) FROM sessions")[0][0] == 1  # Bo's
    finally:
        store.close()
    assert bo


def test_a_deleted_accounts_seat_is_named_in_the_readers_language(tmp_path: Path) -> None:
    db = str(tmp_path / "spots.db")
    with app_on(db) as c:
        ada = sign_up(c, "Ada")
        table = as_(c, ada).post("/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
                                                      "tricks": "beginner", "target": 1}).json()
    assert users_cli(db, "delete", "Ada", "--yes")[0] == 0
    with app_on(db) as c:
        for lang, words in (("en", "deleted player"), ("es", "jugador eliminado"), ("vi", "người chơi đã xóa"),
                            ("zh-Hant", "已刪除嘅玩家")):
            step = c.get(f"/api/tables/{table['id']}/replay", headers={"Accept-Language": lang}).json()
            seat = next(p for p in step["view"]["players"] if p["seat"] == 0)
            assert seat["name"] == words, (lang, seat)  # the seat on the table
            if step["view"]["to_move"] == 0:  # and whose turn it is, when the dice made it Ada's seat's
                assert words in step["view"]["status"], (lang, step["view"]["status"])
            assert any(words in line for line in step["log"]), lang  # and the log's lines
            lobby = c.get("/", headers={"Accept-Language": lang}).text  # the lobby's rows name it in the page's words
            page_words = json.loads(lobby.split("window.SPOTS_WORDS = ", 1)[1].split(";\n", 1)[0])
            assert page_words.get("deleted player", "deleted player") == words, lang
        rows = c.get("/api/tables").json()["tables"]
        ada_seat = next(r for r in rows if r["id"] == table["id"])["players"][0]
        assert ada_seat["deleted"] and ada_seat["name"] == "deleted player"


def test_users_on_a_missing_database_file_is_one_line_and_creates_nothing(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from spots.cli import main as spots  # the command as the README names it: spots users ...

    missing = tmp_path / "typo.db"
    assert spots(["users", "--db", str(missing), "list"]) == 2
    assert "no such file" in capsys.readouterr().err and not missing.exists()
    open_store(str(tmp_path / "empty.db")).close()
    assert spots(["users", "--db", str(tmp_path / "empty.db"), "list"]) == 0
    assert capsys.readouterr().out.strip().endswith("0 accounts")
