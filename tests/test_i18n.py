"""Translations: every message in every language, plurals, fallback, and each front end in each language.

The catalogs are ``src/spots/i18n/locale/<lang>/LC_MESSAGES/spots.po`` (gettext, read with Babel);
the template ``messages.pot`` is extracted from the code, and a test checks it is up to date, so a
new text without translations fails the suite with its name.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest
from babel.messages.pofile import read_po

import spots
from spots import bots, i18n
from spots.games.spots.tricks import TILES
from spots.games.spots.words import describe_move, describe_phase
from support.processes import CHILD_ENV, PATIENT_S, as_at_a_terminal

pytestmark = pytest.mark.timeout(300)

I18N = Path(i18n.__file__).parent
POT = I18N / "messages.pot"
OTHERS = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]
FIELD = re.compile(r"\{(\w*)\}")


def catalog(code: str):
    with open(I18N / "locale" / i18n.FOLDERS[code] / "LC_MESSAGES" / "spots.po", "rb") as f:
        return read_po(f, locale=i18n.FOLDERS[code])


def template():
    with open(POT, "rb") as f:
        return read_po(f)


def test_the_template_lists_every_message_in_the_code(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", str(I18N / "babel.cfg"),
                    "-k", "N_", "-k", "NP_:1,2", "--no-location", "-o", str(fresh),
                    *[str(I18N.parent / p) for p in ("games", "play", "web", "analysis", "i18n", "puzzles")]],
                   check=True, capture_output=True)
    with open(fresh, "rb") as f:
        now = {m.id for m in read_po(f) if m.id}
    listed = {m.id for m in template() if m.id}
    assert not now - listed, f"messages in the code but not in messages.pot (run pybabel extract): {now - listed}"
    assert not listed - now, f"messages in messages.pot no longer in the code: {listed - now}"


@pytest.mark.parametrize("code", OTHERS)
def test_every_message_has_a_translation(code: str) -> None:
    po = catalog(code)
    problems = []
    for m in template():
        if not m.id:
            continue
        t = po.get(m.id)
        key = m.id if isinstance(m.id, str) else m.id[0]
        if t is None or t.fuzzy:
            problems.append(f"{key!r}: missing")
            continue
        strings = list(t.string) if isinstance(t.string, tuple) else [t.string]
        if isinstance(m.id, tuple) and len(strings) != po.num_plurals:
            problems.append(f"{key!r}: {len(strings)} plural forms, {po.num_plurals} needed")
        fields = set(FIELD.findall(m.id if isinstance(m.id, str) else m.id[-1]))
        for s in strings:
            if not s or not s.strip():
                problems.append(f"{key!r}: empty")
            elif set(FIELD.findall(s)) != fields:
                problems.append(f"{key!r}: placeholders {sorted(set(FIELD.findall(s)))} instead of {sorted(fields)}")
    assert not problems, f"{code}: " + "; ".join(problems)


@pytest.mark.parametrize("code", OTHERS)
def test_every_catalog_passes_babels_checks(code: str) -> None:
    """Babel's checkers: a translation keeps the %-placeholders its message is flagged with, and the plural count."""
    problems = [f"{m.id!r}: {', '.join(str(e) for e in errors)}" for m, errors in catalog(code).check()]
    assert not problems, f"{code}: " + "; ".join(problems)


@pytest.mark.parametrize("code", OTHERS)
def test_every_catalog_passes_msgfmt_check(code: str, tmp_path: Path) -> None:
    """GNU gettext's own check (formats, plurals, header), as a translator's tools run it; no warning either."""
    if shutil.which("msgfmt") is None:
        pytest.skip("msgfmt is not installed (Debian's gettext; scripts/test.sh installs it)")
    po = I18N / "locale" / i18n.FOLDERS[code] / "LC_MESSAGES" / "spots.po"
    done = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "spots.mo"), str(po)],
                          capture_output=True, text=True, env={**CHILD_ENV, "LC_ALL": "C"})
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@pytest.mark.parametrize("code", OTHERS)
def test_no_catalog_keeps_obsolete_entries(code: str) -> None:
    """Texts the code no longer has are purged (pybabel update --ignore-obsolete), not kept as '#~' lines."""
    po = I18N / "locale" / i18n.FOLDERS[code] / "LC_MESSAGES" / "spots.po"
    assert not catalog(code).obsolete, sorted(catalog(code).obsolete)
    assert "\n#~ " not in po.read_text("utf-8")


def test_no_message_is_flagged_as_a_percent_format() -> None:
    """The texts use {fields}: a '%' in a message must not read as a %-directive ('50% is' was '% i')."""
    flagged = [m.id for m in template() if m.id and "python-format" in m.flags]
    assert not flagged, f"messages extracted as python-format (reword the '%'): {flagged}"


def test_tile_texts_and_titles_are_in_the_catalogs() -> None:
    for code in OTHERS:
        tr = i18n.translator(code)
        for tile in TILES.values():
            assert tr.gettext(tile.title) != tile.title, (code, tile.name)
            assert tr.gettext(tile.text) != tile.text, (code, tile.name)


def test_plurals_and_numbers_in_each_language() -> None:
    assert i18n.translator("en").ngettext("{n} treat", "{n} treats", 1).format(n=1) == "1 treat"
    assert i18n.translator("en").ngettext("{n} treat", "{n} treats", 3).format(n=3) == "3 treats"
    es = i18n.translator("es")
    assert es.ngettext("{n} treat", "{n} treats", 1).format(n=1) == "1 golosina"
    assert es.ngettext("{n} treat", "{n} treats", 3).format(n=3) == "3 golosinas"
    assert i18n.translator("vi").ngettext("{n} treat", "{n} treats", 3).format(n=3) == "3 xương chó"
    assert i18n.translator("zh-Hant").ngettext("{n} treat", "{n} treats", 3).format(n=3) == "3 個 treat"



def test_spanish_plural_forms_many_and_other_agree() -> None:
    """Spanish has three plural forms here (one; many, for whole millions; other), but words do not change
    between many and other: a msgstr[2] left singular printed '5 partida puntuable' on the leaderboard."""
    differ = [(m.id[0], m.string[1], m.string[2]) for m in catalog("es")
              if m.id and isinstance(m.id, tuple) and m.string[1] != m.string[2]]
    assert not differ, differ
    es = i18n.translator("es")
    for m in catalog("es"):
        if m.id and isinstance(m.id, tuple):
            assert es.ngettext(*m.id, 5) == es.ngettext(*m.id, 1_000_000) == m.string[2], m.id

def test_unknown_languages_fall_back_to_english() -> None:
    for lang in ("xx", "fr-FR", "", None, "C", "zh-CN", "de;q=1"):
        tr = i18n.translator(lang)
        assert tr.gettext("Hint") == "Hint"
    assert i18n.negotiate("fr-FR, de;q=0.8") == "en"
    assert i18n.negotiate(None) == "en"
    assert i18n.negotiate("garbage;;q=x,,") == "en"
    assert i18n.negotiate("fr, es-MX;q=0.9, vi;q=0.5") == "es"
    assert i18n.negotiate("zh-HK,zh;q=0.9,en;q=0.8") == "zh-Hant"
    assert i18n.negotiate("en-GB;q=0.4, vi-VN") == "vi"
    assert i18n.normalize("zh_TW.UTF-8") == "zh-Hant"
    assert i18n.from_environment({"LANG": "es_ES.UTF-8"}) == "es"
    assert i18n.from_environment({"LANG": "C.UTF-8"}) == "en"
    assert i18n.from_environment({"LANGUAGE": "fr:vi", "LANG": "fr_FR.UTF-8"}) == "vi"


def a_game(seed: int = 3) -> list[tuple[spots.State, str, spots.State]]:
    rules = spots.Rules(players=2, tricks="all", target=3)
    state = spots.Game(rules).new_initial_state()
    players = [bots.make("greedy", seed=seed), bots.make("random", seed=seed + 1)]
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal() and len(steps) < 600:
        before = state.clone()
        move = state.sample_chance(rng) if state.is_chance_node() else players[state.current_player()].choose(state)
        if not before.is_chance_node():
            state.apply_action(move)
        steps.append((before, move, state.clone()))
    return steps


def test_the_game_log_in_every_language() -> None:
    steps = a_game()
    for code in i18n.LANGUAGES:
        tr = i18n.translator(code)
        lines = [describe_move(b, m, a, ["Ann", "Bob"], tr) for b, m, a in steps]
        phases = [describe_phase(a, tr) for _, _, a in steps]
        assert all(lines) and all(phases)
        assert not any("{" in line for line in lines + phases), code
        if code != "en":
            english = [describe_move(b, m, a, ["Ann", "Bob"]) for b, m, a in steps]
            assert sum(x != y for x, y in zip(lines, english, strict=True)) > len(lines) * 0.9, code
    # the default is English, unchanged
    b, m, a = steps[0]
    assert describe_move(b, m, a) == describe_move(b, m, a, None, i18n.translator("en"))


# ---------------------------------------------------------------- the terminal

PROMPTS = {"en": "Seat 1 > ", "es": "Asiento 1 > ", "vi": "Ghế 1 > ", "zh-Hant": "座位 1 > "}
PHASE = {"en": "choose a trick or score", "es": "elige un truco o puntúa", "vi": "chọn một mánh khóe hoặc ghi điểm",
         "zh-Hant": "揀一個 trick 或者收狗"}


def spawn(tmp_path: Path, *args: str, lang: str = "C.UTF-8") -> pexpect.spawn:
    cmd = [sys.executable, "-m", "spots.cli", "play", "--fast", "--plain", "--seat", "me", "--seat", "greedy",
           "--seed", "4", "--target", "2", *args]
    return pexpect.spawn(cmd[0], cmd[1:], cwd=str(tmp_path), encoding="utf-8", timeout=PATIENT_S,
                         preexec_fn=as_at_a_terminal, dimensions=(50, 140),
                         env={**CHILD_ENV, "LANG": lang})


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_the_terminal_game_starts_in_each_language(tmp_path: Path, code: str) -> None:
    child = spawn(tmp_path, "--lang", code)
    child.expect_exact(PHASE[code])
    child.expect_exact(PROMPTS[code])
    child.sendline("rules")
    child.expect_exact(i18n.translator(code).gettext(TILES["howl"].text)[:30])
    child.expect_exact(PROMPTS[code])
    child.sendline("1")
    child.expect_exact(PROMPTS[code])
    child.sendline("quit")
    child.expect(pexpect.EOF)


REFUSED = "{move} is not a legal move here. Legal here: {legal}"


def expect_hints_and_a_refusal(child: pexpect.spawn, code: str, heads: tuple[str, ...], move: str) -> None:
    """At the prompt: 'hint' shows the table headed in the language; a bad move is refused in it too."""
    tr = i18n.translator(code)
    child.expect_exact(PROMPTS[code])
    child.sendline("hint")
    child.expect_exact(PROMPTS[code])
    shown = child.before
    assert all(tr.gettext(word) in shown for word in heads), shown
    child.sendline(move)
    if code == "en":
        child.expect_exact("illegal drop" if "drop" in move else "malformed move")
    else:
        child.expect_exact(tr.gettext(REFUSED).split("{legal}")[0].format(move=repr(move)))
    child.expect_exact(PROMPTS[code])
    if code != "en":
        left = [word for word in (*heads, "malformed", "illegal", "Legal here") if word in shown + child.before]
        assert not left, f"English left in the {code} terminal: {left}"
    child.sendline("quit")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_terminal_hints_and_refused_moves_in_each_language(tmp_path: Path, code: str) -> None:
    expect_hints_and_a_refusal(spawn(tmp_path, "--lang", code), code, ("rank", "estimate", "bust now"), "fly away")


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_double_spot_terminal_hints_and_refused_moves_in_each_language(tmp_path: Path, code: str) -> None:
    child = pexpect.spawn(sys.executable, ["-m", "spots.cli", "play", "--game", "double-spot", "--fast", "--plain",
                                           "--seat", "me", "--seat", "greedy", "--seed", "4", "--lang", code],
                          cwd=str(tmp_path), encoding="utf-8", timeout=PATIENT_S, dimensions=(50, 140),
                          preexec_fn=as_at_a_terminal,
                          env={**CHILD_ENV, "LANG": "C.UTF-8"})
    expect_hints_and_a_refusal(child, code, ("rank", "value", "what it does"), "drop 99 blue")


def test_spots_hint_counts_treats_in_english_plurals() -> None:
    """``spots hint`` and ``spots show`` print the position with render(): '1 treat', '3 treats'."""
    from spots.games.spots.words import render

    state = spots.Game(spots.Rules(players=2, treats=3, starting_treats=1)).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.sample_chance(rng)
    text = render(state)
    assert "Seat 0: 1 treat," in text and "supply: 38 dice, 1 treat\n" in text and "1 treats" not in text, text


def test_the_terminal_follows_LANG_and_falls_back_to_english(tmp_path: Path) -> None:
    child = spawn(tmp_path, lang="es_ES.UTF-8")
    child.expect_exact(PROMPTS["es"])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child = spawn(tmp_path, "--lang", "klingon", lang="C.UTF-8")
    child.expect_exact(PROMPTS["en"])
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# ---------------------------------------------------------------- the web app

LOBBY = {"en": "New table", "es": "Nueva mesa", "vi": "Bàn mới", "zh-Hant": "開新枱"}
HEADER = {"en": "en", "es": "es-ES,es;q=0.9", "vi": "vi-VN,vi;q=0.9,en;q=0.5", "zh-Hant": "zh-HK,zh;q=0.9"}


@pytest.fixture()
def web(tmp_path: Path):
    from fastapi.testclient import TestClient

    from spots.web import create_app

    with TestClient(create_app(tmp_path / "t.db", bot_delay=30.0)) as c:
        yield c


def new_table(c) -> dict:
    r = c.post("/api/tables", json={"seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}],
                                    "tricks": "beginner", "target": 1})
    assert r.status_code == 201
    return r.json()


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_web_pages_in_each_language(web, code: str) -> None:
    lobby = web.get("/", headers={"Accept-Language": HEADER[code]})
    assert lobby.status_code == 200
    assert f'<html lang="{code}">' in lobby.text and LOBBY[code] in lobby.text
    assert all(f'data-lang="{c}"' in lobby.text for c in i18n.LANGUAGES)  # the switcher
    table = new_table(web)
    link = table["seats"][0]["link"].replace("http://testserver", "")
    page = web.get(link, headers={"Accept-Language": HEADER[code]})
    assert page.status_code == 200 and i18n.translator(code).gettext("Game log") in page.text
    ws_headers = {"Accept-Language": HEADER[code]}
    with web.websocket_connect(f"/ws/{table['id']}?token={table['seats'][0]['link'].rsplit('/', 1)[1]}",
                               headers=ws_headers) as ws:
        assert ws.receive_json()["type"] == "hello"
        msg = ws.receive_json()
        assert msg["type"] == "state"
        tr = i18n.translator(code)
        status = msg["view"]["status"]
        who = msg["view"]["players"][msg["view"]["to_move"]]["name"]
        assert who in status and PHASE[code] in status, status
        assert tr.gettext("Walk") in [b["label"] for b in msg["view"]["legal"]]
        assert tr.gettext(TILES["walk"].text) in [t["text"] for t in msg["view"]["tiles"]]
        assert msg["log"] and all("{" not in line for line in msg["log"])
        ws.send_json({"type": "move", "move": "fly away"})
        err = ws.receive_json()
        while err["type"] == "state":  # presence updates may come first
            err = ws.receive_json()
        assert err["type"] == "error" and err["code"] in ("illegal-move", "not-your-turn")
        if code != "en":
            assert "not a legal move" not in err["message"] and "turn, not seat" not in err["message"], err


def test_the_switcher_is_remembered_and_unknown_languages_fall_back(web) -> None:
    r = web.get("/?lang=vi", headers={"Accept-Language": "es"})
    assert '<html lang="vi">' in r.text and r.cookies.get("lang") == "vi"
    r = web.get("/", headers={"Accept-Language": "es"})  # the cookie wins over the browser
    assert '<html lang="vi">' in r.text
    web.cookies.clear()
    r = web.get("/?lang=klingon", headers={"Accept-Language": "tlh, fr;q=0.5"})
    assert r.status_code == 200 and '<html lang="en">' in r.text and LOBBY["en"] in r.text
    table = new_table(web)
    r = web.get(f"/api/tables/{table['id']}/replay?at=3", headers={"Accept-Language": "zh-HK"})
    assert r.status_code == 200 and any("座位" in line or "派到" in line for line in r.json()["log"])


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_a_double_spot_table_in_each_language(web, code: str) -> None:
    """The view's words, the drop labels, the log and a refused move, all in the table's language."""
    r = web.post("/api/tables", json={"game": "double-spot",
                                      "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "greedy"}]})
    assert r.status_code == 201
    table = r.json()
    tr = i18n.translator(code)
    link = table["seats"][0]["link"].replace("http://testserver", "")
    page = web.get(link, headers={"Accept-Language": HEADER[code]})
    assert json.dumps(tr.gettext("Pattern card: {spots}")) in page.text  # the page scripts' catalog
    token = table["seats"][0]["link"].rsplit("/", 1)[1]
    with web.websocket_connect(f"/ws/{table['id']}?token={token}", headers={"Accept-Language": HEADER[code]}) as ws:
        assert ws.receive_json()["type"] == "hello"
        msg = ws.receive_json()
        view = msg["view"]
        face = {"blue": "blue", "green": "green", "pink": "pink", "yellow": "yellow",
                "blue-green": "blue/green", "pink-yellow": "pink/yellow"}[view["die"]["face"]]
        assert view["die"]["label"] == tr.gettext(face)
        status = tr.gettext("{who} rolled {face} and drops a disc.").format(who="Ann", face=tr.gettext(face))
        assert view["status"] == status
        move = view["legal"][0]
        n, colour = move["move"].split()[1:]
        assert move["label"] == tr.gettext("Column {n}, {colour} toward you").format(n=n, colour=tr.gettext(colour))
        assert msg["log"][0] == tr.gettext("Card {card} goes into holder {h}.").format(card=view["cards"][0]["id"], h=1)
        ws.send_json({"type": "move", "move": "drop 99 blue"})
        err = ws.receive_json()
        while err["type"] == "state":
            err = ws.receive_json()
        assert err["code"] == "illegal-move"
        if code != "en":
            assert "illegal drop" not in err["message"] and "drop 1" in err["message"], err
