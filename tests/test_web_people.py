"""What people read on the web pages: seat numbers from 1, current names in the log, each game's own title.

The real app runs in-process on a real SQLite file (helpers from ``test_web_api``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spots.i18n import LANGUAGES, translator
from spots.web.pages.words import js_words, plurals
from support.web import Msg, client, is_state, new_table, opened, play, token, until

pytestmark = pytest.mark.timeout(300)

HUMANS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


def path(link: str) -> str:
    return link.replace("http://testserver", "")


def test_a_refused_move_names_the_seat_as_the_host_page_does(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c, seats=HUMANS)
        host = c.get(path(t["host"])).text
        assert "Seat 1: Ann" in host and "Seat 2: Bob" in host
        to_move = c.get(f"/api/tables/{t['id']}").json()["view"]["to_move"]
        waiting = 1 - to_move
        with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][waiting]['link'])}") as ws:
            opened(ws)
            reply, _ = play(ws, "score")
        assert reply["code"] == "not-your-turn"
        mover = ["Ann", "Bob"][to_move]
        assert reply["message"] == f"it is {mover}'s turn, not seat {waiting + 1}'s", reply


def test_after_a_rename_every_log_line_uses_the_new_name(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}])
        tid = t["id"]
        before = c.get(f"/api/tables/{tid}").json()["log"]
        assert any("Player 2" in line for line in before)
        spanish_before = c.get(f"/api/tables/{tid}/replay?lang=es").json()["log"]  # narrated in Spanish, kept
        jugador = translator("es").gettext("Player {n}").format(n=2)  # the unnamed seat, in the reader's words
        assert jugador != "Player 2" and any(jugador in line for line in spanish_before)
        assert not any("Player 2" in line for line in spanish_before)
        with c.websocket_connect(f"/ws/{tid}") as watcher:  # a spectator who was already watching
            opened(watcher)
            assert c.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Zoë"}).status_code == 200
            resent = until(watcher, lambda m: is_state(m) and m["log_start"] == 0)
        after = c.get(f"/api/tables/{tid}").json()["log"]
        assert len(after) == len(before)
        assert not any("Player 2" in line for line in after)
        assert after == [line.replace("Player 2", "Zoë") for line in before]
        assert resent["log"] == after and resent["view"]["players"][1]["name"] == "Zoë"
        spanish = c.get(f"/api/tables/{tid}/replay?lang=es").json()["log"]
        assert spanish == [line.replace(jugador, "Zoë") for line in spanish_before]


def test_a_seat_nobody_named_is_stored_without_a_name_and_shown_in_each_readers_words(tmp_path: Path) -> None:
    """No language's default is kept in the database: a bot seat and a person's seat left unnamed are stored with
    no name, and every page names them in its reader's language (the lobby from the seat's bot and number)."""
    with client(tmp_path / "s.db") as c:
        t = new_table(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True},
                                {"kind": "bot", "bot": "greedy"}])
        stored = c.app.state.hub.store.load_table(t["id"]).seats
        assert [s.name for s in stored] == ["Ann", "", ""]
        lobby = next(row for row in c.get("/api/tables").json()["tables"] if row["id"] == t["id"])
        assert [(p["name"], p["unnamed"]) for p in lobby["players"]] == [("Ann", False), ("Player 2", True),
                                                                          ("greedy bot", True)]
        for lang in LANGUAGES:
            tr = translator(lang)
            labels = [tr.gettext("Player {n}").format(n=2), tr.gettext("{bot} bot").format(bot="greedy")]
            if lang != "en":
                assert labels != ["Player 2", "greedy bot"], lang
            replay = c.get(f"/api/tables/{t['id']}/replay?lang={lang}").json()
            assert [p["name"] for p in replay["view"]["players"]] == ["Ann", *labels], lang
            host = c.get(path(t["host"]) + f"?lang={lang}").text
            assert all(label in host for label in labels), lang


def test_a_watcher_who_reconnects_after_a_rename_gets_the_new_log(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        t = new_table(c, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human", "open": True}])
        assert c.post(f"/api/tables/{t['id']}/join", json={"seat": 1, "name": "Zoë"}).status_code == 200
    with client(tmp_path / "s.db") as c:  # a restart: the log is told again from the stored names
        with c.websocket_connect(f"/ws/{t['id']}") as ws:
            log = opened(ws)["state"]["log"]
        assert any("Zoë" in line for line in log) and not any("Player 2" in line for line in log)


def test_each_game_has_its_own_title_and_tagline(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        spots_table = new_table(c, seats=HUMANS)
        r = c.post("/api/tables", json={"game": "double-spot", "seats": HUMANS})
        ds = r.json()
        for url in (ds["watch"], ds["seats"][0]["link"], ds["host"], ds["watch"] + "/replay"):
            page = c.get(path(url)).text
            title = re.search(r"<title>(.*?)</title>", page, re.S)
            assert title and "Double Spot" in title.group(1), url
            assert "drop discs, make the patterns" in page and "fill dogs" not in page, url
            assert "/games/double-spot/double_spot.css" in page or "host" in url
        for url in (spots_table["watch"], spots_table["seats"][0]["link"], spots_table["watch"] + "/replay"):
            page = c.get(path(url)).text
            assert "roll dice, fill dogs, don&#39;t bust" in page and "make the patterns" not in page, url
            assert "double_spot.css" not in page
        spanish = c.get(path(ds["watch"]), headers={"accept-language": "es"}).text
        assert "suelta discos, forma los patrones" in spanish


def test_a_replay_view_has_no_presence(tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        for body in ({"seats": HUMANS, "tricks": "beginner", "target": 1}, {"game": "double-spot", "seats": HUMANS}):
            t = c.post("/api/tables", json=body).json()
            with c.websocket_connect(f"/ws/{t['id']}?token={token(t['seats'][0]['link'])}") as ws:
                live: Msg = opened(ws)["state"]["view"]
                replay = c.get(f"/api/tables/{t['id']}/replay").json()["view"]
            assert live["live"] is True and replay["live"] is False, body


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_page_catalog_has_both_forms_of_every_plural(lang: str) -> None:
    """P() in base.html picks one of these two forms and fills it in (it used to look the form up again)."""
    tr = translator(lang)
    words = js_words(tr)
    for one, other in plurals():  # the shared ones and each hosted game's
        forms = words[one]
        assert forms == [tr.ngettext(one, other, 1), tr.ngettext(one, other, 2)], (lang, one)
    if lang == "en":
        assert words["{n} treat"] == ["{n} treat", "{n} treats"]


def test_every_plural_the_page_scripts_show_is_in_the_catalog() -> None:
    """A P(one, other, n) pair missing from the catalog's plurals would show English in every language."""
    src = Path(__file__).parent.parent / "src" / "spots"
    scripts = [*(src / "web" / "static").glob("*.js"), *(src / "games").glob("*/web/static/*.js")]  # each game's own
    pairs = {(m[0], m[1]) for js in scripts
             for m in re.findall(r'\bP\("((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"', js.read_text("utf-8"))}
    assert ("{n} card left in the deck", "{n} cards left in the deck") in pairs
    assert pairs <= set(plurals()), pairs - set(plurals())
