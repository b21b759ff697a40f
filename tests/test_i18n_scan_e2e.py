"""No English reaches a page: every page a player opens, read in Vietnamese and in Cantonese, holds none of the
app's English messages.

Headless Chromium against the real server (the coach in its worker process, as in production). Each page's text
(what is drawn, and the titles, labels and placeholders a screen reader or a pointer shows) is searched for the
English messages of the catalog: every phrase of two words or more, and every one-word message standing alone
as a line or label. Words a language keeps in English by design (the tiles' printed names beside their
translation, 'trick' and 'treat' in Cantonese) are in its own translations, so they are not English leaks; the
bots' identifiers (``greedy``), the players' own names and the move notation (in ``<code>``, the same in every
language, as chess notation is) are allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import httpx
import pytest
from babel.messages.pofile import read_po

from spots import i18n
from support.e2e import play_plainly
from support.processes import PATIENT_REPORT_MS
from support.servers import Server

pytestmark = pytest.mark.timeout(300)

LOCALES = {"vi": "vi-VN", "zh-Hant": "zh-HK"}
HOLES = re.compile(r"\{\w*\}|'[^']*'|<[^>]*>|\n")  # placeholders, move notation and commands, markup
TRIM = " .,:;!?()[]…·—–-→★%/\"“”"
# Everything a page shows: its text as drawn (one line each, and each innermost element's on its own), its title,
# the menus' choices, and the words given to a pointer or a screen reader.
PAGE_TEXT = """() => {
  const out = [document.title, ...document.body.innerText.split('\\n')];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  for (const el of document.querySelectorAll('input[type=submit], input[type=button]')) out.push(el.value);
  for (const el of document.body.querySelectorAll('*')) {  // each drawn word on its own: a button beside another
    if (el.closest('code')) continue;  // the move notation ("reroll 2 5"): one language for all, like "e4"
    if (!el.children.length && (el.getClientRects().length || el.tagName === 'OPTION')) out.push(el.textContent);
  }
  return out.map((t) => t.trim()).filter((t) => t);
}"""


@cache
def english(code: str) -> tuple[frozenset[str], frozenset[str]]:
    """The catalog's English as it could leak into a ``code`` page: (phrases of two words or more, one-word messages),
    less whatever the language's own translations hold (kept in English by design)."""
    with open(i18n.LOCALE_DIR / i18n.FOLDERS[code] / "LC_MESSAGES" / "spots.po", "rb") as f:
        po = read_po(f, locale=i18n.FOLDERS[code])
    translated = "\n".join(str(s) for m in po if m.id for s in (m.string if isinstance(m.string, tuple)
                                                                 else [m.string]))
    phrases, words = set(), set()
    for m in po:
        for text in ([m.id] if isinstance(m.id, str) else list(m.id)) if m.id else []:
            for piece in HOLES.split(text):
                piece = piece.strip(TRIM)
                if len(re.findall(r"[A-Za-z]{2,}", piece)) < 1 or piece in translated:
                    continue
                if " " in piece and len(piece) >= 8:
                    phrases.add(piece)
                elif piece == text.strip(TRIM) and re.fullmatch(r"[A-Za-z]{3,}", piece):
                    words.add(piece)
    return frozenset(phrases), frozenset(words)


def leaks(page: Any, code: str, allowed: set[str]) -> list[str]:
    """The English messages on the page as it is now, each with the text it was found in."""
    phrases, words = english(code)
    found = []
    for text in page.evaluate(PAGE_TEXT):
        clean = text
        for name in allowed:
            clean = clean.replace(name, " ")
        alone = clean.strip(TRIM + "0123456789 ")  # a one-word message standing alone, a number beside it or not
        hits = [p for p in phrases if p in clean] + ([alone] if alone in words else [])
        found += [f"{hit!r} in {text[:120]!r}" for hit in hits]
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("scan") / "scan.db", "--host", "127.0.0.1", "--bot-delay", "0.05",
                 "--log-level", "warning", "--private", "--workers", "1").start()
    yield srv
    srv.stop()


@pytest.mark.parametrize("code", list(LOCALES))
def test_no_page_shows_english_in_vietnamese_or_cantonese(server: Server, browser: Any, code: str) -> None:
    name = {"vi": "Lan", "zh-Hant": "Wing"}[code]
    allowed = {name, "greedy", "random", "search", "Spots", "Double Spot", f"{name} club"}
    context = browser.new_context(locale=LOCALES[code], viewport={"width": 1280, "height": 900})
    page = context.new_page()
    found: dict[str, list[str]] = {}

    def scan(where: str) -> None:
        found[where] = list(dict.fromkeys(leaks(page, code, allowed)))

    for path in ("/", "/signin", "/signup", "/reset", "/rules", "/rules/spots", "/rules/double-spot", "/daily",
                 "/leaderboard/spots", "/leaderboard/double-spot", "/tournaments"):
        page.goto(server.url + path)
        scan(path)
    page.goto(server.url + "/signup")
    page.fill("#account-name", name)
    page.fill("#account-password", "correct horse battery")
    page.click("#account-submit")
    page.wait_for_url("**/me")
    scan("/me")
    page.goto(server.url + "/puzzles")  # signed in: the rating is the account's
    page.wait_for_selector("#choices button")
    page.locator("#choices button").first.click()
    page.wait_for_function("() => document.body.dataset.answered !== '0'")
    scan("/puzzles, answered")
    page.goto(server.url + f"/players/{name}")
    scan("/players/NAME")
    page.goto(server.url + "/tournaments")  # signed in: the form to make an event; then its page, signed up
    scan("/tournaments, signed in")
    page.fill("#t-name", name)
    page.click("#t-submit")
    page.click("#join")
    page.wait_for_selector("#withdraw")
    scan("/tournaments/ID")
    page.goto(server.url + "/clubs")
    scan("/clubs")
    page.fill("#club-name", f"{name} club")
    page.click("#club-submit")
    page.wait_for_selector("#invite-link")
    scan("/clubs/ID, its admin")
    # a Spots table against a bot on a clock, both seats left unnamed: the seats, the clocks, the host page, the end,
    # the coach, the replay
    r = httpx.post(server.url + "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                                                    "tricks": "beginner", "target": 1, "clock": "rapid"})
    assert r.status_code == 201, r.text
    table = r.json()
    page.goto(table["seats"][0]["link"])
    page.wait_for_function("() => Number(document.body.dataset.moves) >= 0 && document.querySelector('#board svg')")
    page.click("#talk-phrases button[data-phrase='good-luck']")  # the unnamed seat says something: its label
    page.wait_for_selector("#talk-lines .talk-who")
    scan("a Spots table")
    play_plainly(page)
    page.wait_for_function("() => document.body.dataset.coach === 'ready'", timeout=PATIENT_REPORT_MS)
    scan("the end of a Spots game, with the coach's report")
    page.goto(server.url + f"/t/{table['id']}/replay?at=3")
    page.wait_for_function("() => document.body.dataset.at === '3' && document.body.dataset.coach === 'ready'",
                           timeout=PATIENT_REPORT_MS)
    scan("a replay")
    page.goto(table["host"])
    scan("the host page")
    page.goto(server.url + "/")
    page.wait_for_selector(f"li.table-row[data-table='{table['id']}']")
    scan("the lobby with a finished table")
    r = httpx.post(server.url + "/api/tables", json={"game": "double-spot", "clock": "day",
                                                    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    assert r.status_code == 201, r.text
    page.goto(r.json()["seats"][0]["link"])
    page.wait_for_selector(".ds-column")
    scan("a Double Spot table")
    context.close()
    bad = {where: hits for where, hits in found.items() if hits}
    assert not bad, f"{code}: English on the pages:\n" + "\n".join(f"{where}: {hits}" for where, hits in bad.items())


def test_the_scan_finds_english_where_there_is_some() -> None:
    """The check itself: an English message on a page is found, a name and a tile's printed name are not."""
    phrases, words = english("zh-Hant")
    assert "Back to the lobby" in phrases and "Resign" in words

    class Page:
        def __init__(self, lines: list[str]) -> None:
            self.lines = lines

        def evaluate(self, _script: str) -> list[str]:
            return self.lines

    translated = i18n.translator("zh-Hant").gettext("Back to the lobby")
    assert leaks(Page(["Back to the lobby", "Resign"]), "zh-Hant", set()) != []
    assert leaks(Page(["Player 2"]), "zh-Hant", set()) != []  # an unnamed seat's label left in English
    assert leaks(Page([translated, "Wing", "greedy", "散步 (Walk)"]), "zh-Hant", {"Wing", "greedy"}) == []
