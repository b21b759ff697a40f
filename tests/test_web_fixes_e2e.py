"""In Chromium: Double Spot in colour-blind mode and with reduced motion, the replay controls, plurals and renames.

The real server runs in a subprocess (``Server`` from ``test_web_e2e``); skipped, with the
reason, when Chromium or Playwright is missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from spots.i18n import LANGUAGES, translator
from support.e2e import ME_AND_A_BOT, OVER_OR_A_DROP, PHONE, Server, drop_once, wait_until_over

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("webfix") / "e2e.db").start()
    yield srv
    srv.stop()


HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]

# every disc and die face carries the shape of its own colour (and no other)
SHAPES_MATCH = """() => [...document.querySelectorAll('.frame .disc:not(.empty), .pattern .disc:not(.blank)')]
  .every((d) => {
  const use = d.querySelector('svg.sym use');
  return use && ['blue', 'green', 'pink', 'yellow'].some((c) => d.classList.contains(c)
    && use.getAttribute('href') === '#ds-sym-' + c && document.getElementById('ds-sym-' + c));
})"""


def symbols_shown(page: Any) -> bool:
    return bool(page.evaluate("""() => {
      const placed = document.querySelector('.ds-die-face .sym');
      return document.documentElement.classList.contains('ds-symbols') && placed
        && placed.getBoundingClientRect().width > 0;
    }"""))


def test_a_double_spot_game_in_colour_blind_mode(server: Server, browser: Any) -> None:
    t = server.create(ME_AND_A_BOT, game="double-spot", target=2)
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(t["seats"][0]["link"])
    page.wait_for_selector("body[data-game='double-spot'] .ds-die-face")
    assert "Double Spot" in page.title() and "Double Spot" in page.inner_text("header.top")
    assert not page.is_checked("#ds-symbols") and not symbols_shown(page)
    assert page.locator(".ds-legend").is_hidden()
    drops = page.evaluate("""() => [...document.querySelectorAll('.ds-column button.drop')].map((b) => {
      const r = b.getBoundingClientRect(); return [r.width, r.height]; })""")
    assert drops and all(w >= 44 and h >= 44 for w, h in drops), drops  # touch targets on a phone
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # and the frame still fits
    assert page.evaluate("(() => { const f = document.querySelector('.frame'); "
                         "return f.scrollWidth <= f.clientWidth; })()")
    page.check("#ds-symbols")
    assert symbols_shown(page) and page.locator(".ds-legend").is_visible()
    assert page.locator(".ds-column button.drop .sym").first.is_visible()
    assert page.locator(".ds-column button.drop .arrow").first.is_hidden()
    drop_once(page, 0)
    page.reload()  # the choice is remembered in this browser
    page.wait_for_selector(".ds-die-face")
    assert page.is_checked("#ds-symbols") and symbols_shown(page)
    assert page.locator(".frame .disc:not(.empty) .sym").first.is_visible()
    turns = 1
    while True:
        page.wait_for_function(OVER_OR_A_DROP)
        assert page.evaluate(SHAPES_MATCH)
        if page.get_attribute("body", "data-over") == "1":
            break
        drop_once(page, turns)
        turns += 1
        assert turns < 60, "the game did not end"
    end = page.inner_text("#end")
    # the target reached (one drop may take both cards), or the frame full first with any score
    assert re.search(r"wins with [23] cards|The board is full: .* wins with 1 card\b|a draw", end), end
    assert page.locator(".frame .disc:not(.empty) .sym").first.is_visible()
    page.uncheck("#ds-symbols")
    assert page.locator(".frame .disc:not(.empty) .sym").first.is_hidden()
    page.reload()
    page.wait_for_selector(".ds-die-face, .frame")
    assert not page.is_checked("#ds-symbols")
    context.close()


# Counts the table's state messages as they arrive, before the page handles them.
COUNT_STATES = """
window.__states = 0;
const NativeSocket = window.WebSocket;
window.WebSocket = class extends NativeSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (e) => { if (JSON.parse(e.data).type === "state") window.__states++; });
  }
};
"""


def test_a_state_that_changes_nothing_leaves_the_board_as_it_is(server: Server, browser: Any) -> None:
    """Half a second after a player arrives the table tells everyone again who is online; for the player who
    arrived nothing has changed, and a redraw then would replace the board under their finger (a tap between
    press and release was lost so, on a loaded machine). The page also asks for everything again (as it does
    when it has missed a message), so a state that changes nothing comes after the drop button is marked."""
    t = server.create(ME_AND_A_BOT, game="double-spot", target=2)
    context = browser.new_context()
    page = context.new_page()
    page.add_init_script(COUNT_STATES)
    page.goto(t["seats"][0]["link"])
    page.wait_for_selector(".ds-column button.drop")
    seen = page.evaluate("""() => {
      document.querySelector('.ds-column button.drop').dataset.kept = 'yes';
      window.SpotsTable.send({ type: 'sync' });
      return window.__states;
    }""")
    page.wait_for_function(f"() => window.__states > {seen}")  # the arrival told again, or the answer to the sync
    kept = page.locator(".ds-column button.drop[data-kept='yes']")
    assert kept.count() == 1  # the very button drawn before: the board was not redrawn
    drop_once(page, 0)  # a real change is drawn
    assert kept.count() == 0
    context.close()


ANIMATION = """(what) => {
  const el = document.querySelector(what);
  return el ? getComputedStyle(el).animationName : null;
}"""


# Read when the page draws them, not by polling: on a loaded machine a later redraw (a presence update)
# replaced the elements before a poll saw them (a run under load timed out so). A MutationObserver runs
# right after the drawing, before any other message can redraw.
CATCH_THE_DROP = f"""() => {{
  window.__drop = null;
  const animation = {ANIMATION};
  new MutationObserver(() => {{
    const f = animation('.frame .disc.dropped'), r = animation('.ds-die-face.rolling');
    if (window.__drop === null && f !== null && r !== null) {{
      const fall = getComputedStyle(document.querySelector('.frame .disc.dropped')).getPropertyValue('--fall');
      window.__drop = [f, r, fall];
    }}
  }}).observe(document.body, {{ subtree: true, childList: true }});
}}"""


@pytest.mark.parametrize(("motion", "fall", "roll"), [("no-preference", "ds-fall", "ds-roll"),
                                                      ("reduce", "none", "none")])
def test_drops_fall_and_the_die_tumbles_unless_motion_is_reduced(server: Server, browser: Any, motion: str,
                                                                  fall: str, roll: str) -> None:
    t = server.create(HUMANS, game="double-spot")
    context = browser.new_context(reduced_motion=motion)
    page = context.new_page()
    page.goto(t["seats"][0]["link"])
    page.wait_for_selector(".ds-column button.drop")
    assert page.locator(".disc.dropped").count() == 0  # nothing moves on arrival
    page.evaluate(CATCH_THE_DROP)
    page.locator(".ds-column button.drop").first.click()
    # after the drop: the new disc falls from above its column, and Bob's roll tumbles in
    seen = page.wait_for_function("() => window.__drop").json_value()
    assert seen[:2] == [fall, roll]
    assert int(seen[2]) >= 1  # rows to fall: from the top of the frame to where it lands
    context.close()


def test_replay_controls_are_drawn_stay_on_screen_and_show_no_presence(server: Server, browser: Any) -> None:
    bots = server.create([{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}], target=2)
    row = wait_until_over(server, bots["id"])
    humans = server.create(HUMANS, game="double-spot")
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{bots['watch']}/replay")
    page.wait_for_function("() => document.body.dataset.at === '0'")
    for button in ("first", "prev", "next", "last"):
        b = page.locator(f"#{button}")
        assert b.inner_text().strip() == "" and b.get_attribute("aria-label")  # a drawn icon, named for readers
        assert page.evaluate(f"""() => {{
          const use = document.querySelector('#{button} svg use');
          const box = document.querySelector('#{button} svg').getBoundingClientRect();
          return !!document.querySelector(use.getAttribute('href')) && box.width >= 12 && box.height >= 12;
        }}""")
    assert page.locator("#play svg use").get_attribute("href") == "#i-play"
    page.click("#last")
    page.wait_for_function(f"() => document.body.dataset.at === '{row['moves']}'")
    assert page.evaluate("window.scrollY") == 0  # the page stayed where it was
    box = page.locator("#last").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert page.evaluate("""() => {
      const panel = document.querySelector('.log-panel'), line = document.querySelector('#log li.current');
      const p = panel.getBoundingClientRect(), l = line.getBoundingClientRect();
      return panel.scrollTop > 0 && l.top >= p.top - 1 && l.bottom <= p.bottom + 1;
    }""")  # the log panel scrolled to the current line by itself
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    box = page.locator("#prev").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]  # the controls stay on screen
    page.click("#prev")
    page.wait_for_function(f"() => document.body.dataset.at === '{row['moves'] - 1}'")
    page.click("#play")
    assert page.locator("#play svg use").get_attribute("href") == "#i-pause"
    page.click("#play")
    for url in (f"{humans['watch']}/replay", f"{server.create(HUMANS)['watch']}/replay"):
        page.goto(url)
        page.wait_for_selector("#board .player")
        board = page.inner_text("#board")
        for word in ("away", "online", "free seat"):
            assert word not in board, (url, word)
    context.close()


def test_earlier_log_lines_take_a_new_name(server: Server, browser: Any) -> None:
    t = server.create([{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}])
    page = browser.new_page()
    page.goto(t["watch"])
    page.wait_for_selector("#log li")
    assert "Player 2" in page.inner_text("#log")
    r = httpx.post(f"{server.url}/api/tables/{t['id']}/join", json={"seat": 1, "name": "Zoë"})
    assert r.status_code == 200
    page.wait_for_function("() => document.querySelector('#log').textContent.includes('Zoë')")
    log = page.inner_text("#log")
    assert "Player 2" not in log and log.count("Zoë") >= 2
    page.close()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_plurals_on_the_pages(server: Server, browser: Any, lang: str) -> None:
    tr = translator(lang)
    one, two = (tr.ngettext("{n} treat", "{n} treats", n).format(n=n) for n in (1, 2))
    ds = server.create(HUMANS, game="double-spot", target=1)
    page = browser.new_page()
    page.goto(f"{server.url}/?lang={lang}")
    assert page.evaluate("P('{n} treat', '{n} treats', 1)") == one
    assert page.evaluate("P('{n} treat', '{n} treats', 2)") == two
    if lang == "en":
        assert page.evaluate("P('treat', 'treats', 1)") == "treat"
        assert page.evaluate("P('{n} card left in the deck', '{n} cards left in the deck', 1)") == \
            "1 card left in the deck"
        page.wait_for_selector(f"li[data-table='{ds['id']}']")
        row = page.inner_text(f"li[data-table='{ds['id']}']")
        assert "first to 1 card" in row and "1 cards" not in row, row
    page.close()
