"""Each language in the real browser: the lobby and a table page, one screenshot per language.

Headless Chromium (``/usr/bin/chromium``) against the real server; the browser's locale sets
``Accept-Language``. Screenshots go to a temporary folder, or to ``docs/screenshots/lang-<code>.png``
when ``SPOTS_SCREENSHOTS=1`` (so a test run leaves the working tree as it was). For Chinese text a
CJK font is needed (Debian: ``fonts-wqy-microhei`` or ``fonts-noto-cjk``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spots import i18n
from support.e2e import Server
from support.processes import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.timeout(300)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
# The letters of ``text`` the page cannot draw: each is drawn on a canvas in the page's font and
# compared with an unassigned code point, which no font has (Chromium draws both as the same
# empty box). Catches a machine without a CJK font, where Chinese pages show only boxes.
MISSING_GLYPHS = """(text) => {
  const canvas = document.createElement('canvas');
  canvas.width = 48; canvas.height = 48;
  const g = canvas.getContext('2d', {willReadFrequently: true});
  g.font = '32px ' + getComputedStyle(document.body).fontFamily;
  const picture = (ch) => {
    g.clearRect(0, 0, 48, 48);
    g.fillText(ch, 4, 36);
    return g.getImageData(0, 0, 48, 48).data.join(',');
  };
  const missing = picture('\\u0378');
  return [...new Set(text)].filter((ch) => ch > '\\u007f' && /\\p{L}/u.test(ch) && picture(ch) === missing);
}"""
LOCALES = {"en": "en-US", "es": "es-ES", "vi": "vi-VN", "zh-Hant": "zh-HK"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("i18n") / "i18n.db", bot_delay=0.3).start()
    yield srv
    srv.stop()


# The New table form's controls that poke out of its card, and its menus whose chosen text is cut (both were seen
# at 1280 x 900: the Pace menu out of the card, a seat's "Bot: greedy (" cut).
OUTSIDE_THE_CARD = """() => {
  const form = document.getElementById('create-form');
  const edge = form.getBoundingClientRect().right;
  const out = [];
  for (const el of form.querySelectorAll('select, input, button')) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > edge + 1) out.push(['outside', el.id || el.name]);
  }
  for (const el of form.querySelectorAll('#seats select')) {
    if (el.scrollWidth > el.clientWidth + 1) out.push(['cut', el.name]);
  }
  return out;
}"""


DECK_LABEL_CLEAR = """() => {
  const label = document.querySelector('#board .deck .obj-label').getBoundingClientRect();
  const layers = [...document.querySelectorAll('#board .deck .stack i')];
  return layers.every((i) => i.getBoundingClientRect().bottom <= label.top + 1);
}"""


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_lobby_and_table_in_each_language(server: Server, browser: Any, code: str, tmp_path: Path) -> None:
    tr = i18n.translator(code)
    context = browser.new_context(locale=LOCALES[code], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    assert page.get_attribute("html", "lang") == code
    assert page.locator("main.lobby h1").inner_text() == tr.gettext("New table")
    page.wait_for_function("() => document.querySelectorAll('#seats .seat-row').length === 2")
    assert tr.gettext("Human") in page.locator("#seats").inner_text()
    assert page.locator(".languages a.current").inner_text() == i18n.LANGUAGES[code]
    assert page.evaluate(OUTSIDE_THE_CARD) == [], code  # at 1280 x 900: every control inside, no seat menu cut


    table = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy", "name": "Rex"}],
                          target=6)
    page.goto(table["seats"][0]["link"])
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
    page.wait_for_function("() => document.querySelector('#conn').classList.contains('ok')")
    page.wait_for_selector("#controls .your-turn, #controls .waiting")
    assert page.locator(".log-panel h2").inner_text() == tr.gettext("Game log")
    assert tr.gettext("Deck top").lower() in page.locator("#board").inner_text().lower()
    assert page.evaluate(DECK_LABEL_CLEAR), code  # "Deck top · 27 below" is not under the card stack
    assert tr.gettext("Walk") in page.locator("#board .tiles").inner_text()
    if code != "en":
        log = page.locator("#log").inner_text()
        assert " is dealt " not in log and " rolls " not in log, log
    missing = page.evaluate(MISSING_GLYPHS, page.locator("body").inner_text())
    assert not missing, f"{code}: drawn as empty boxes (no font has them; install fonts-wqy-microhei): {missing}"
    shots = DOCS if os.environ.get("SPOTS_SCREENSHOTS") == "1" else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"lang-{code}.png"), full_page=False)

    duel = server.create([{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy", "name": "Rex"}],
                         game="double-spot", target=5)
    page.goto(duel["seats"][0]["link"])
    page.wait_for_selector(".ds-column button.drop")
    board = page.locator("#board").inner_text()
    assert tr.gettext("Holder {n}").format(n=1).lower() in board.lower() and tr.gettext("Cards won") in board
    assert tr.gettext("The rim of each disc shows its other face: what {who} sees.").format(who="Rex") in board
    cards = page.locator(".holder .ds-card").evaluate_all("(cards) => cards.map((c) => c.getAttribute('aria-label'))")
    assert cards and all(c.startswith(tr.gettext("Pattern card: {spots}").split("{")[0]) for c in cards), cards
    assert tr.gettext("Seen from {who}'s side").format(who="Ann") in board
    assert page.locator("#controls").inner_text().startswith(tr.gettext("Your move"))
    assert not errors, errors
    context.close()


def test_the_switcher_changes_the_language_and_is_remembered(server: Server, browser: Any) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(server.url + "/")
    assert page.get_attribute("html", "lang") == "en"
    page.click(".languages a[data-lang='vi']")
    page.wait_for_function("() => document.documentElement.lang === 'vi'")
    page.goto(server.url + "/")  # remembered (a cookie), although the browser asks for English
    assert page.get_attribute("html", "lang") == "vi"
    assert page.locator("main.lobby h1").inner_text() == i18n.translator("vi").gettext("New table")
    context.close()


def test_the_missing_glyph_check_catches_a_machine_without_a_cjk_font(browser: Any, tmp_path: Path) -> None:
    """The check above fails on Chinese text when Chromium can only find Latin fonts (DejaVu here)."""
    dejavu = Path("/usr/share/fonts/truetype/dejavu")
    if not dejavu.is_dir():
        pytest.skip("needs the DejaVu fonts to stand for a machine without CJK fonts")
    config = tmp_path / "fonts.conf"
    config.write_text(f'<?xml version="1.0"?><fontconfig><dir>{dejavu}</dir>'
                      f'<cachedir>{tmp_path / "cache"}</cachedir></fontconfig>', "utf-8")
    latin_only = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                             env={**os.environ, "FONTCONFIG_FILE": str(config)})
    try:
        page = latin_only.new_page()
        page.set_content('<html lang="zh-Hant"><body>散步 (Walk) Tiếng Việt</body></html>')
        assert page.evaluate(MISSING_GLYPHS, "散步 (Walk) Tiếng Việt") == ["散", "步"]
    finally:
        latin_only.close()
