"""Accounts in a real browser against a real server: sign up and in with a password, add a passkey and sign in with
it (Chromium's virtual authenticator), and a guest still playing through an invite link, no account needed.

The pages are opened at ``http://localhost:PORT``: WebAuthn takes a host name as the site's identity, never an
IP address (localhost is a secure context without TLS).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from support.servers import Server

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    server = Server(tmp_path_factory.mktemp("accounts") / "accounts.db", "--host", "127.0.0.1", "--bot-delay",
                    "0.05", "--log-level", "info", "--private").start()
    yield server, f"http://localhost:{server.port}"
    server.stop()


def sign_up(page: Any, base: str, name: str, password: str) -> None:
    page.goto(base + "/")
    page.click("#signin-link")
    page.click("a[href='/signup']")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    page.click("#account-submit")
    page.wait_for_url("**/me")


def test_sign_up_sign_out_and_sign_in_with_a_password(site: tuple[Server, str], browser: Any) -> None:
    server, base = site
    context = browser.new_context()
    page = context.new_page()
    sign_up(page, base, "Ada", "correct horse battery")
    assert page.inner_text("h1") == "My games" and "Ada" in page.inner_text("#me-link")
    [cookie] = [c for c in context.cookies() if c["name"] == "spots_session"]
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == "/"
    assert "spots_session" not in page.evaluate("document.cookie")  # no script can read it
    page.click("#signout")
    page.wait_for_selector("#signin-link")
    page.click("#signin-link")
    page.fill("#account-name", "ada")  # any capitals
    page.fill("#account-password", "not the password")
    page.click("#account-submit")
    page.locator("#account-error", has_text="Wrong").wait_for()  # the answer has come
    assert page.inner_text("#account-error") == "Wrong name or password."
    page.fill("#account-password", "correct horse battery")
    page.click("#account-submit")
    page.wait_for_url("**/me")
    [again] = [c for c in context.cookies() if c["name"] == "spots_session"]
    assert again["value"] != cookie["value"]  # a new session at each sign-in
    page.click("a.button[href^='/players/']")  # the profile, reached from My games
    page.wait_for_url("**/players/Ada")
    assert page.inner_text("h1") == "Ada" and "No finished games yet." in page.inner_text("#record")
    context.close()
    log = server.log.read_text()
    assert "correct horse" not in log and cookie["value"] not in log and again["value"] not in log


def test_add_a_passkey_then_sign_in_with_it(site: tuple[Server, str], browser: Any) -> None:
    _, base = site
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    authenticator = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True}})["authenticatorId"]
    sign_up(page, base, "Kim", "a long enough password")
    assert page.inner_text("#passkey-count") == "0 passkeys"
    page.click("#passkey-register")
    page.wait_for_selector("#passkey-message[data-done='1']")
    [credential] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert credential["isResidentCredential"] and credential["rpId"] == "localhost"
    page.reload()
    assert page.inner_text("#passkey-count") == "1 passkey"
    page.click("#signout")
    page.wait_for_selector("#signin-link")
    page.click("#signin-link")
    page.click("#passkey-signin")  # no name, no password: the authenticator finds Kim's passkey
    page.wait_for_url("**/me")
    assert "Kim" in page.inner_text("#me-link")
    [after] = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert after["signCount"] > credential["signCount"]
    context.close()


def test_a_replayed_or_made_up_passkey_challenge_signs_nobody_in(site: tuple[Server, str], browser: Any) -> None:
    """Issue 42's untested list: a real ceremony's answer sent again, and an answer the authenticator really signed
    over a challenge the server never handed out, are both refused and sign nobody in."""
    _, base = site
    context = browser.new_context()
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True}})
    sign_up(page, base, "Quinn", "a long enough password")
    page.click("#passkey-register")
    page.wait_for_selector("#passkey-message[data-done='1']")
    page.click("#signout")
    page.wait_for_selector("#signin-link")
    page.click("#signin-link")
    with page.expect_request(lambda r: r.url.endswith("/api/passkeys/signin") and r.method == "POST") as sent:
        page.click("#passkey-signin")
    page.wait_for_url("**/me")
    answer = sent.value.post_data
    assert answer and "Quinn" in page.inner_text("#me-link")
    stranger = browser.new_context()  # someone who copied the answer off the wire
    replayed = stranger.request.post(base + "/api/passkeys/signin", data=answer,
                                     headers={"Content-Type": "application/json", "Origin": base})
    assert replayed.status == 400 and replayed.json()["error"] == "passkey-refused", replayed.text()
    assert not [c for c in stranger.cookies() if c["name"] == "spots_session"]
    made_up = page.evaluate("""async () => {
        const challenge = crypto.getRandomValues(new Uint8Array(32));
        const credential = await navigator.credentials.get({publicKey: {challenge, rpId: "localhost",
                                                                         userVerification: "required"}});
        return JSON.stringify({credential: credential.toJSON()});
    }""")
    forged = stranger.request.post(base + "/api/passkeys/signin", data=made_up,
                                   headers={"Content-Type": "application/json", "Origin": base})
    assert forged.status == 400 and forged.json()["error"] == "passkey-refused", forged.text()
    assert not [c for c in stranger.cookies() if c["name"] == "spots_session"]
    stranger.close()
    context.close()


def test_a_guest_plays_through_an_invite_link_as_before(site: tuple[Server, str], browser: Any) -> None:
    _, base = site
    host = browser.new_context()
    page = host.new_page()
    sign_up(page, base, "Lee", "a long enough password")
    page.goto(base + "/")  # the lobby's form, signed in: Lee's seat is the account's
    page.select_option("#opt-spots-players", "2")
    page.select_option("select[name=seat-1]", "human")
    page.fill("input[name=name-0]", "ignored")
    page.fill("input[name=name-1]", "Sam")
    page.select_option("#opt-spots-target", "3")
    page.click("#create")
    page.wait_for_url("**/host/**")
    links = page.locator("input.link").evaluate_all("(els) => els.map((e) => e.value)")
    assert "Lee" in page.inner_text(".seat-link[data-seat='0']")
    guest = browser.new_context()  # no account, no cookie: the link is all it takes
    pages = []
    for context, link in ((host, links[0]), (guest, links[1])):
        seat = context.new_page()
        seat.goto(link.replace("127.0.0.1", "localhost"))
        seat.wait_for_selector("#log li")
        pages.append(seat)
    assert "you are Sam" in pages[1].inner_text("#who") and pages[1].locator("#take-seat").count() == 0
    assert pages[1].locator("#signin-link").count() == 1
    table = pages[0].get_attribute("body", "data-table")
    for _ in range(2):
        # The server says whose turn it is and how many moves the table has; the mover's page waits until it has
        # drawn them all (a move of the same turn may not be drawn yet: its old buttons would send a stale move).
        view = page.request.get(f"{base}/api/tables/{table}").json()["view"]
        mover, other = pages[view["to_move"]], pages[1 - view["to_move"]]
        mover.wait_for_function(f"() => Number(document.body.dataset.moves) >= {view['moves']}")
        mover.locator("#controls button.move:not([disabled])").first.click()  # waits for the page to offer it
        other.wait_for_function(f"() => Number(document.body.dataset.moves) > {view['moves']}")
    page.goto(base + "/me")  # the table is in Lee's My games
    assert page.locator("#my-games li").count() == 1
    host.close()
    guest.close()


def test_the_account_pages_read_well_to_a_screen_reader(site: tuple[Server, str], browser: Any, axe: Any) -> None:
    """axe-core finds no serious or critical violation on the sign-in, sign-up, My games and profile pages."""
    from support.e2e import problems

    _, base = site
    context = browser.new_context()
    page = context.new_page()
    for path in ("/signin", "/signup", "/reset"):
        page.goto(base + path)
        assert problems(axe, page) == [], path
    sign_up(page, base, "Max", "a long enough password")
    for _ in range(30):  # tables until one waits on Max (who starts is drawn), so My games shows both kinds of row
        made = page.request.post(base + "/api/tables", data={"seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        if page.request.get(f"{base}/api/tables/{made['id']}").json()["view"]["to_move"] == 0:
            break
    for path in ("/me", "/players/Max"):
        page.goto(base + path)
        page.wait_for_selector("li.table-row")
        assert problems(axe, page) == [], path
    assert page.goto(base + "/me") and page.locator("li.my-turn").count() == 1
    context.close()


def test_an_invitation_by_name_is_accepted_from_my_games(site: tuple[Server, str], browser: Any) -> None:
    _, base = site
    ada, bo = browser.new_context(), browser.new_context()
    ada_page, bo_page = ada.new_page(), bo.new_page()
    sign_up(ada_page, base, "Ines", "a long enough password")
    sign_up(bo_page, base, "Otto", "another long password")
    ada_page.goto(base + "/")  # the lobby's form: seat 2 kept for Otto's account
    ada_page.select_option("#opt-spots-players", "2")
    assert ada_page.input_value("select[name=seat-1]") == "bot:greedy"  # seat 2 is left as the bot it starts as
    ada_page.fill("input[name=name-1]", "otto")  # any capitals
    ada_page.check("input[name=invite-1]")  # inviting an account makes it a person's seat
    assert ada_page.input_value("select[name=seat-1]") == "human"
    ada_page.select_option("#opt-spots-target", "3")
    ada_page.click("#create")
    ada_page.wait_for_url("**/host/**")
    links = ada_page.locator("input.link").evaluate_all("(els) => els.map((e) => e.value)")
    assert "Ines" in ada_page.inner_text(".seat-link[data-seat='0']")
    bo_page.reload()
    invitation = bo_page.locator("#my-invitations li")
    assert "Ines invites you to seat 2." in invitation.inner_text()
    assert "/play/" not in bo_page.content()  # the seat's link comes only with accepting
    invitation.locator("button.accept-invitation").click()
    bo_page.wait_for_url("**/play/**")
    bo_page.wait_for_selector("#log li")
    assert "you are Otto" in bo_page.inner_text("#who") and bo_page.locator("#take-seat").count() == 0
    assert bo_page.url.endswith(links[1].rsplit("/", 1)[1])
    ada.close()
    bo.close()
