"""In Chromium, what a newcomer's first minutes trip over (issue 32): a refused hint, targets on a phone, the icon,
the lobby's bots, a table against a bot, and both tutorials.

The real server runs in a subprocess (``Server`` from ``test_web_e2e``); skipped, with the reason, when Chromium or
Playwright is missing.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from support.browser import DESKTOP, PHONE, tap_once
from support.e2e import Server, moves_of, wait_for_my_turn_or_end
from support.servers import Server as ServerProcess

pytestmark = pytest.mark.timeout(240)

ME_AND_A_BOT = [{"kind": "human", "name": "Tester"}, {"kind": "bot", "bot": "greedy"}]
TARGET = 44 - 0.5  # CSS pixels (a box of 44 px may measure 43.99 after layout rounding)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("newcomer") / "n.db").start()
    yield srv
    srv.stop()


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return list(page.evaluate(f"""() => [...document.querySelectorAll({selector!r})]
      .filter((el) => el.offsetParent !== null)
      .map((el) => {{ const r = el.getBoundingClientRect();
                      return {{ w: r.width, h: r.height, text: el.textContent }}; }})"""))


def test_on_a_phone_the_language_links_hint_and_rules_are_44_px(server: Server, browser: Any) -> None:
    t = server.create(ME_AND_A_BOT, target=3)  # at target 1 the bot, moving first, could win before my turn
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(t["seats"][0]["link"])
    assert not wait_for_my_turn_or_end(page)
    page.wait_for_selector("#hint-button:not([hidden])")
    found = {"languages": boxes(page, ".languages a"), "hint": boxes(page, "#hint-button"),
             "rules": boxes(page, ".status-actions a[href='/rules/spots']")}
    assert len(found["languages"]) == 4 and found["hint"] and found["rules"], found
    small = [(k, b) for k, bs in found.items() for b in bs if b["h"] < TARGET or b["w"] < TARGET]
    assert not small, small
    page.goto(server.url + "/")  # the lobby's language links too
    assert all(b["h"] >= TARGET and b["w"] >= TARGET for b in boxes(page, ".languages a"))
    page.context.close()


def test_no_page_asks_for_a_file_that_is_not_there(server: Server, browser: Any) -> None:
    """Every page links the icon, /favicon.ico answers with it, and no request of any page gets a 404."""
    t = server.create(ME_AND_A_BOT, game="double-spot")
    page = browser.new_context(viewport=DESKTOP).new_page()
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    for url in (server.url + "/", server.url + "/rules", t["seats"][0]["link"], t["watch"]):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        # (a seat's page shows the your-turn icon on its player's turn: static/clocks.js)
        assert page.get_attribute("link[rel=icon]", "href") in ("/static/favicon.svg", "/static/favicon-turn.svg"), url
    status = page.evaluate("""async () => Promise.all(['/favicon.ico', '/static/favicon.svg',
      '/static/favicon-turn.svg'].map(async (u) => {
      const r = await fetch(u); return [r.status, r.headers.get('content-type')]; }))""")
    assert [s for s, _ in status] == [200, 200, 200] and all(k.startswith("image/svg+xml") for _, k in status), status
    assert not failed, failed
    page.context.close()


def test_the_lobby_labels_bots_by_strength_and_seats_the_creator_against_a_bot(server: Server, browser: Any) -> None:
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(server.url + "/?lang=en")
    menu = page.locator("select[name=seat-1] option").all_inner_texts()
    assert menu == ["Human", "Bot: random (easiest)", "Bot: greedy (easy)", "Bot: mcts (strong)",
                    "Bot: expectimax (strong)", "Bot: expectimax-learned (strongest)"], menu
    assert not any("expectimax-v1" in m or "ppo" in m for m in menu)
    page.select_option("select[name=seat-1]", "bot:greedy")
    page.click("#create")
    page.wait_for_url("**/play/**")  # straight to the seat: nothing to share with a bot
    assert page.get_attribute("body", "data-seat") == "0"
    assert not wait_for_my_turn_or_end(page)  # and the game is ours to play, no "Play this seat" in between
    page.goto(server.url + "/?lang=en")  # with a friend's seat, the host page lists the links to send
    page.select_option("select[name=seat-1]", "human")
    page.click("#create")
    page.wait_for_url("**/host/**")
    assert page.locator(".play-link").count() == 2
    page.context.close()


def drop(page: Any) -> None:
    before = moves_of(page)
    page.locator(".ds-column button.drop").first.click()
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


def covered(page: Any, selector: str) -> bool:
    """Whether something else lies on top of the element's middle (a panel over the button)."""
    return bool(page.evaluate(f"""() => {{ const el = document.querySelector({selector!r});
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return !(top === el || el.contains(top)); }}"""))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_a_refused_hint_leaves_a_usable_panel(tmp_path: Path, browser: Any, viewport: dict[str, int]) -> None:
    """One hint a minute (a burst of 3): the fourth position's hint is refused; the panel says so, closes, and
    leaves Hint and Rules free, and the hint after that minute is never 'Thinking…' for ever."""
    srv = ServerProcess(tmp_path / "h.db", "--private", "--hints-per-minute", "1", "--bot-delay", "0.05").start()
    try:
        t = httpx.post(srv.url + "/api/tables", json={"game": "double-spot", "seats": ME_AND_A_BOT}).json()
        page = browser.new_context(viewport=viewport).new_page()
        page.goto(t["seats"][0]["link"])
        refusal = ""
        for _ in range(6):
            page.wait_for_selector("#hint-button:not([hidden])")
            page.click("#hint-button")
            page.wait_for_selector("#hints table.advice, #hints .hint-refused")
            assert page.locator("#close-hints").is_visible()
            if page.locator("#hints .hint-refused").count():
                refusal = page.inner_text("#hints .hint-refused")
                break
            ranks = set(page.locator("#hints td.rank").all_inner_texts())  # "no drop matters" only when it is so
            assert (len(ranks) == 1) == (page.locator("#hints .advice-even").count() == 1), ranks
            page.click("#close-hints")
            drop(page)
        assert "try again in" in refusal and "Thinking" not in page.inner_text("#hints"), refusal
        assert page.locator("#toast").is_hidden()  # said once, in the panel
        page.click("#close-hints")
        assert page.locator("#hints").is_hidden()
        assert not covered(page, "#hint-button") and not covered(page, ".status-actions a[href='/rules/double-spot']")
        drop(page)  # the table plays on
        page.context.close()
    finally:
        srv.stop()


def test_the_spots_tutorial_speaks_to_a_mouse_one_tip_per_move_and_explains_a_risky_advice(
        server: Server, browser: Any) -> None:
    page = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
    page.goto(server.url + "/?lang=en")
    page.click("#learn-button")
    page.wait_for_url("**/play/**?learn=1")
    assert page.inner_text(".tutorial-bar b") == "Learn to play"
    shown: list[tuple[str, int]] = []
    texts: dict[str, str] = {}
    advice: list[str] = []
    def risky() -> list[str]:
        return [a for a in advice if "chance to bust before your next choice" in a and "It can still be" in a]

    while len(shown) < 5 or (not risky() and len(shown) < 12):  # the tips, then on until a risky advice
        page.wait_for_function("() => !document.querySelector('#callout').hidden"
                               " || document.querySelector('#controls button.move:not([disabled])')")
        if page.locator("#callout").is_visible():
            key = str(page.get_attribute("#callout", "data-key"))
            shown.append((key, moves_of(page)))
            texts[key] = page.inner_text("#callout p")
            page.wait_for_function("() => document.querySelector('#callout-advice').textContent !== ''")
            advice.append(page.inner_text("#callout-advice"))
            page.click("#callout-ok")
            continue
        before = moves_of(page)
        tap_once(page)
        page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")
    assert [k for k, _ in shown[:3]] == ["welcome", "tiles", "place"], shown
    assert "click it to do it" in texts["tiles"] and "tap" not in texts["tiles"]
    assert shown[1][1] == shown[0][1]  # the first tip follows the welcome at once ...
    for (_, a), (_, b) in itertools.pairwise(shown[1:]):
        assert b > a, shown  # ... and every later one waits for a move
    assert risky(), advice
    assert re.match(r"Advisor: .+ \(\d+\.\d% chance to bust before your next choice\)\. It can still be the best move",
                    risky()[0]), advice
    page.context.close()


def test_the_double_spot_tutorial_names_its_game_and_ends_with_it(server: Server, browser: Any) -> None:
    page = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
    page.goto(server.url + "/?lang=en")
    page.click("#learn-double-spot")
    page.wait_for_url("**/play/**?learn=1")
    assert page.inner_text(".tutorial-bar b") == "Learn Double Spot"
    for _ in range(300):
        page.wait_for_function("() => document.body.dataset.over === '1' || !document.querySelector('#callout').hidden"
                               " || document.querySelector('.ds-column button.drop')")
        if page.locator("#callout").is_visible() and page.get_attribute("#callout", "data-key") != "end":
            page.click("#callout-ok")
            continue
        if page.get_attribute("body", "data-over") == "1":
            break
        drop(page)
    page.wait_for_selector("#callout[data-key=end]")
    assert page.locator("#leave-tutorial, #callout-leave").count() == 0  # nothing left to leave
    assert "Leave the tutorial" not in page.inner_text("body")
    assert page.get_attribute(".tutorial-bar a", "href") == "/"
    assert page.inner_text(".tutorial-bar").startswith("Learn Double Spot")
    page.context.close()


def test_an_early_double_spot_hint_says_no_drop_matters_yet(server: Server, browser: Any) -> None:
    """On the empty frame every drop is worth the same: the panel says so in words, not only as a column of 1=."""
    t = server.create(ME_AND_A_BOT, game="double-spot")
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(t["seats"][0]["link"] + "?lang=en")
    page.wait_for_selector("#hint-button:not([hidden])")
    page.click("#hint-button")
    page.wait_for_selector("#hints table.advice")
    ranks = set(page.locator("#hints td.rank").all_inner_texts())
    assert ranks == {"1="}, ranks
    assert page.inner_text("#hints .advice-even") == "No drop matters yet: every column leaves the same chances."
    page.context.close()
