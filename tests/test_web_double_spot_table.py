"""In Chromium: the drawn Double Spot table — a whole game by clicking its columns, the cards at the frame's
ends, a taken card flying to its taker (not under reduced motion), the cards won drawn on the end screen.

The real server runs in a subprocess (``Server`` from ``test_web_e2e``); skipped, with the reason, when
Chromium or Playwright is missing. ``SPOTS_SCREENSHOTS=1`` also takes the docs' pictures of a taken card
in flight and of the end screen.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from support.e2e import ME_AND_A_BOT, OVER_OR_A_DROP, PHONE, Server, moves_of, problems, settle, shoot

pytestmark = pytest.mark.timeout(300)

COLOUR_OF = {"B": "blue", "G": "green", "P": "pink", "Y": "yellow"}

# Every card that flies, as it takes off: which card, to whom, and whether it left from a holder or the deck.
# A MutationObserver sees the flying copy the moment it is added, whatever redraws come after. With
# window.__freeze set, the first flight stops halfway (for a picture) until the test lets it go.
WATCH_THE_FLIGHTS = """
window.__flights = [];
new MutationObserver((changes) => {
  for (const change of changes) for (const el of change.addedNodes) {
    if (!(el instanceof Element) || !el.classList.contains('ds-flying')) continue;
    const r = el.getBoundingClientRect();
    const over = (sel) => [...document.querySelectorAll(sel)].some((h) => {
      const b = h.getBoundingClientRect();
      return Math.abs(b.left - r.left) < 2 && Math.abs(b.top - r.top) < 2;
    });
    window.__flights.push({ card: el.dataset.card, to: Number(el.dataset.to), from: over('.holder .ds-card') ? 'holder'
      : over('.ds-deck svg') ? 'deck' : 'elsewhere', running: el.getAnimations().length });
    if (window.__freeze) {
      window.__freeze = false;
      el.getAnimations().forEach((a) => { a.pause(); a.currentTime = 450; });
      window.__frozen = true;
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


OTHER_FACE = {"blue": "green", "green": "blue", "pink": "yellow", "yellow": "pink"}
RIMS_ARE_THE_OTHER_FACE = f"""() => {{
  const other = {OTHER_FACE!r}, root = getComputedStyle(document.documentElement);
  const paint = (c) => root.getPropertyValue('--ds-' + c).trim();
  return [...document.querySelectorAll('.frame .disc:not(.empty)')].every((d) => {{
    const face = Object.keys(other).find((c) => d.classList.contains(c)), s = getComputedStyle(d);
    return s.getPropertyValue('--face').trim() === paint(face)
      && s.getPropertyValue('--back').trim() === paint(other[face]);
  }});
}}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("dstable") / "e2e.db").start()
    yield srv
    srv.stop()


def click_a_column(page: Any, turn: int) -> None:
    """Click a drawn column (the whole slot when the die leaves one colour) or one of the discs held over it."""
    before = moves_of(page)
    slots, drops = page.locator(".slot.clickable"), page.locator(".ds-column button.drop")
    target = slots.nth(turn % slots.count()) if turn % 2 and slots.count() else drops.nth(turn * 3 % drops.count())
    target.click()
    page.wait_for_function(f"() => Number(document.body.dataset.moves) > {before}")


def drawn_colours(card: Any) -> list[str]:
    """The colours of the spots printed on a drawn card, top row first."""
    return list(card.evaluate("""(c) => [...c.querySelectorAll('.disc:not(.blank)')]
      .map((d) => ['blue', 'green', 'pink', 'yellow'].find((k) => d.classList.contains(k)))"""))


def printed(rows: list[str]) -> list[str]:
    return [COLOUR_OF[letter] for row in rows for letter in row if letter in COLOUR_OF]


def box(page: Any, selector: str) -> dict[str, float]:
    """Where the first match is on the page, read in one go (a redraw may replace the element at any time)."""
    found = page.evaluate("""(sel) => { const el = document.querySelector(sel); if (!el) return null;
      const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, width: r.width, height: r.height }; }""",
                          selector)
    assert found, f"nothing on the page matches {selector}"
    return dict(found)


def test_a_whole_game_on_the_drawn_table(server: Server, browser: Any, axe: Any) -> None:
    # seeded, so the same clicks meet the same dice and bot: a game in which cards are taken (an unseeded one
    # may end, rarely, with a full frame and no card taken, which is a true ending but not this test's game)
    t = server.create(ME_AND_A_BOT, game="double-spot", target=3, seed=11)
    context = browser.new_context(viewport={"width": 1280, "height": 900}, reduced_motion="no-preference")
    context.add_init_script(WATCH_THE_FLIGHTS)
    page = context.new_page()
    page.goto(t["seats"][0]["link"])
    page.wait_for_selector(".ds-column button.drop")
    settle(page)
    # the frame stands on its base with a card holder at each end, each holding a drawn card
    frame, base = box(page, ".frame"), box(page, ".ds-base")
    left, right = box(page, ".holder[data-holder='1']"), box(page, ".holder[data-holder='2']")
    assert left["x"] + left["width"] <= frame["x"] and right["x"] >= frame["x"] + frame["width"], (left, frame, right)
    for part in (left, right, frame):
        assert abs(part["y"] + part["height"] - base["y"]) < 12, (part, base)  # all standing on the base
    assert base["x"] <= left["x"] and base["x"] + base["width"] >= right["x"] + right["width"]
    for card in page.locator(".holder .ds-card").all():
        assert len(drawn_colours(card)) == 3 and card.get_attribute("aria-label").startswith("Pattern card: ")
    shoot_freeze = os.environ.get("SPOTS_SCREENSHOTS") == "1"
    page.evaluate(f"window.__freeze = {'true' if shoot_freeze else 'false'}")
    turn, shot = 0, False
    while True:
        page.wait_for_function(OVER_OR_A_DROP)
        if page.evaluate("window.__frozen === true"):
            shoot(page, "double-spot-claim.png")
            page.evaluate("document.querySelectorAll('.ds-flying').forEach((g) => g.getAnimations()"
                          ".forEach((a) => a.play())); window.__frozen = false")
        if page.get_attribute("body", "data-over") == "1":
            break
        split = page.locator(".ds-column .drops button.drop:nth-child(2)").count()  # two discs held over each column
        if not shot and turn >= 6 and (split or turn == 14):
            page.mouse.move(0, 0)
            shoot(page, "double-spot-table.png")
            shot = True
        # every disc in the frame shows its colour toward you, and on its rim its other face (the seed's pairs)
        assert page.evaluate(RIMS_ARE_THE_OTHER_FACE)
        click_a_column(page, turn)
        turn += 1
        assert turn < 60, "the game did not end"
    page.wait_for_selector("#end:not([hidden]) .headline")
    view = httpx.get(f"{server.url}/api/tables/{t['id']}").json()["view"]
    won = [p["won"] for p in view["players"]]
    # the end screen shows each player's cards as cards, spot for spot as the server has them (Tester's side)
    rows = page.locator("#end table.summary tbody tr")
    for seat, cards in enumerate(won):
        drawn = rows.nth(seat).locator(".end-cards .ds-card")
        assert [c.get_attribute("data-card") for c in drawn.all()] == cards
        for card, card_id in zip(drawn.all(), cards, strict=True):
            assert drawn_colours(card) == printed(view["patterns"][card_id]), card_id
            assert card.get_attribute("role") == "img" and card.get_attribute("aria-label").count(",") == 2
    assert rows.count() == len(won)  # a row per player (a game may end with a full frame and no card taken)
    # every card taken flew from a holder (or, dealt and taken at once, from the deck) to the player who took it
    flights = page.evaluate("window.__flights")
    assert sorted((f["card"], f["to"]) for f in flights) == sorted((c, s) for s, cards in enumerate(won) for c in cards)
    assert all(f["from"] in ("holder", "deck") and f["running"] == 1 for f in flights), flights
    page.wait_for_function("() => !document.querySelector('.ds-flying, .ds-card.arriving')")  # every flight landed
    shoot(page, "double-spot-end.png")
    assert problems(axe, page) == []  # the end screen's drawn cards are named for every reader
    context.close()


def test_nothing_flies_when_motion_is_reduced(server: Server, browser: Any) -> None:
    # Under the rules' own ending a frame that fills before anyone takes a card ends the game with none to show
    # (23 of 400 games of random drops against greedy, target 2): the test failed so. Lifting a full frame three
    # times plays on (0 of 400 games without a card; the first came by my 75th drop at the latest).
    t = server.create(ME_AND_A_BOT, game="double-spot", options={"target": 2, "lifts": 3})
    context = browser.new_context(reduced_motion="reduce")
    context.add_init_script(WATCH_THE_FLIGHTS)
    page = context.new_page()
    page.goto(t["seats"][0]["link"])
    turn = 0
    while page.evaluate("[...document.querySelectorAll('.card-count')].every((b) => b.textContent === '0')"):
        page.wait_for_function(OVER_OR_A_DROP)
        if page.get_attribute("body", "data-over") == "1":
            break
        click_a_column(page, turn)
        turn += 1
        assert turn < 150, "nobody took a card"
    try:
        page.wait_for_selector(".ds-player .won .ds-card")
    except Exception as exc:  # say what the page showed
        players = page.evaluate("[...document.querySelectorAll('.ds-player')].map((p) => p.outerHTML)")
        raise AssertionError(f"no won card shown after {turn} drops (over: "
                             f"{page.get_attribute('body', 'data-over')}): {players}") from exc
    assert page.evaluate("window.__flights") == []
    assert page.locator(".ds-player .won .ds-card.arriving").count() == 0  # the card is in its place at once
    context.close()


def test_the_table_on_a_phone(server: Server, browser: Any, axe: Any) -> None:
    t = server.create(ME_AND_A_BOT, game="double-spot")
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(t["seats"][0]["link"])
    page.wait_for_selector(".ds-column button.drop")
    for turn in range(4):
        page.wait_for_selector(".ds-column button.drop")
        click_a_column(page, turn)
    page.wait_for_selector(".ds-column button.drop")
    settle(page)  # the roll has tumbled in (mid-tumble the die is off to one side)
    # the cards stand above the two ends of the frame, the die between them; nothing runs off the screen
    frame, die = box(page, ".frame"), box(page, ".ds-die-face")
    left, right = box(page, ".holder[data-holder='1']"), box(page, ".holder[data-holder='2']")
    assert left["y"] + left["height"] <= frame["y"] + 8 and right["y"] + right["height"] <= frame["y"] + 8
    assert left["x"] + left["width"] <= die["x"] and die["x"] + die["width"] <= right["x"]
    assert left["x"] >= 0 and right["x"] + right["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    targets = page.evaluate("""() => [...document.querySelectorAll('.ds-column button.drop')].map((b) => {
      const r = b.getBoundingClientRect(); return Math.min(r.width, r.height); })""")
    assert targets and min(targets) >= 44, targets
    # the far player sits above the frame, you below it
    assert box(page, ".ds-player.far")["y"] < frame["y"] < box(page, ".ds-player.near")["y"]
    assert "Tester" in page.inner_text(".ds-player.near")
    shoot(page, "double-spot-phone.png")
    assert problems(axe, page) == []
    context.close()


def test_a_frame_wider_than_a_phone_scrolls_from_its_first_column(server: Server, browser: Any) -> None:
    """Twelve 44 px columns do not fit 390 px: the frame scrolls sideways, every column reachable, its panel behind."""
    t = server.create(ME_AND_A_BOT, game="double-spot", options={"columns": 12})
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(t["seats"][0]["link"])
    page.wait_for_selector(".ds-column button.drop")
    reach = """(end) => { const f = document.querySelector('.frame'); f.scrollLeft = end ? f.scrollWidth : 0;
      const box = f.getBoundingClientRect(), cols = [...f.querySelectorAll('.ds-column')];
      const col = (end ? cols[cols.length - 1] : cols[0]).getBoundingClientRect();
      return { scrolls: f.scrollWidth > f.clientWidth, inside: col.left >= box.left - 1 && col.right <= box.right + 1,
               panel: f.querySelector('.frame-panel').getBoundingClientRect().width >= f.scrollWidth - 1 }; }"""
    for end in (False, True):
        assert page.evaluate(reach, end) == {"scrolls": True, "inside": True, "panel": True}, end
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # only the frame scrolls
    context.close()
