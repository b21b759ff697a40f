"""A third game plugs in through the registry alone: no front end names it.

``Take`` (take one or two stones; who takes the last one wins) lives in a folder of its own,
``tests/take/``: its rules, state, spec, summary, web view and browser files. Registered here
(or with ``SPOTS_GAMES=take`` for a server process), ``spots games``, the command line's ``--game``
choices and rules flags, ``GET /api/games``, the lobby's form and its list of tables show it;
``spots selfplay --game take`` and ``spots play --game take`` play it, a study runs it, and a
browser plays it with its own tiny renderer, with no line changed outside its folder.
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from spots import cli
from spots.core import games
from spots.core.games import GameSpec
from support.servers import Server
from support.web import client, token
from take import SPEC


@pytest.fixture
def take() -> Iterator[GameSpec]:
    games.register(SPEC)
    try:
        yield SPEC
    finally:
        games.unregister(SPEC.name)


def test_spots_games_lists_a_registered_game(take: GameSpec, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    assert "take         Take: take one or two stones" in out and "--pile" in out
    assert cli.main(["games", "--json"]) == 0
    assert "take" in [g["name"] for g in json.loads(capsys.readouterr().out)]


def test_the_command_line_offers_it_and_its_flags(take: GameSpec, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    game_flag = next(a for a in cli.build_parser()._subparsers._group_actions[0].choices["selfplay"]._actions
                     if a.dest == "game")
    assert "take" in game_flag.choices
    out = tmp_path / "t.json"
    assert cli.main(["selfplay", "--game", "take", "--pile", "5", "--bots", "random", "--out", str(out)]) == 0
    assert "0 stones left" in capsys.readouterr().out
    assert cli.main(["replay", str(out)]) == 0  # the file says which game it is
    assert cli.main(["selfplay", "--game", "take", "--pile", "0"]) == 2  # the schema's check, as for every game
    assert "pile must be from 1 to 99, not 0" in capsys.readouterr().err


def add_pile(sub: games.Subcommands) -> None:
    """A command of Take's own: ``spots pile`` says how many stones a game starts with."""
    p = sub.add_parser("pile", help="the stones a game of Take starts with")
    p.set_defaults(run=lambda args: print(f"{SPEC.option('pile').default} stones") or 0)


def test_a_game_adds_its_own_subcommands_and_a_clash_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """``GameSpec.cli.commands``: the command line adds each game's; a name another command has is a clear error."""
    from spots.games.spots.commands import add_tiles

    for commands, said in (((add_pile,), None), ((add_tiles,), "Take's command clashes with another command")):
        games.register(dataclasses.replace(SPEC, cli=games.CommandLine(commands=commands)))
        try:
            if said is None:
                assert cli.main(["pile"]) == 0 and capsys.readouterr().out == "7 stones\n"
                assert cli.main(["tiles"]) == 0 and "howl" in capsys.readouterr().out  # Spots' still there
            else:
                assert cli.main(["pile"]) == 2 and said in capsys.readouterr().err
        finally:
            games.unregister(SPEC.name)
    with pytest.raises(SystemExit):  # unregistered, the game's command is gone with it
        cli.main(["pile"])
    assert "invalid choice: 'pile'" in capsys.readouterr().err


def test_the_web_app_lists_it_and_its_lobby_form(take: GameSpec, tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        listed = {g["name"]: g for g in c.get("/api/games").json()}
        assert list(listed) == ["spots", "double-spot", "take"]
        assert listed["take"]["options"][0]["lobby"]["cap"] == [1, 30]
        lobby = c.get("/").text
        assert '<option value="take">Take</option>' in lobby
        assert 'id="opt-take-pile"' in lobby and 'max="30"' in lobby
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        r = c.post("/api/tables", json={"game": "take", "seats": seats, "options": {"pile": 31}})
        assert r.status_code == 400 and "pile must be from 1 to 30" in r.json()["message"]
        r = c.post("/api/tables", json={"game": "take", "seats": seats, "options": {"pile": 4}})
        assert r.status_code == 201, r.text


def test_its_table_pages_come_from_its_web_view(take: GameSpec, tmp_path: Path) -> None:
    """The header, the stylesheets and the scripts of a table are the game's own, with no front-end change."""
    with client(tmp_path / "s.db") as c:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
        table = c.post("/api/tables", json={"game": "take", "seats": seats, "options": {"pile": 4}}).json()
        pages = [c.get(f"/play/{token(table['seats'][0]['link'])}").text, c.get(f"/t/{table['id']}").text,
                 c.get(f"/t/{table['id']}/replay").text]
        for page in pages:
            assert '<a class="brand" href="/">Take</a>' in page and "the last stone wins" in page
            assert '<link rel="stylesheet" href="/games/take/take.css">' in page
            assert '<script src="/games/take/take.js"></script>' in page
            assert "double_spot" not in page and "roll dice, fill dogs" not in page  # no other game's look
            assert "/games/spots/" not in page and "spots-table.css" not in page
        assert f"<title>Table {table['id']} · Take</title>" in pages[0]
        assert f'<h1 class="who" id="who">Table {table["id"]} · you are Ann</h1>' in pages[0]
        assert '<button type="button" id="flip" class="icon-button" hidden>' in pages[2]  # one view for every seat
        script = c.get("/games/take/take.js")
        assert script.status_code == 200 and "Renderers.take" in script.text
        assert script.headers["content-type"].startswith("text/javascript")
        for hidden in ("__init__.py", "static", "..%2F__init__.py", "nothing.js"):  # only its static files
            assert c.get(f"/games/take/{hidden}").status_code == 404
        assert c.get("/games/spots/take.js").status_code == 404


def test_a_game_without_a_rules_page_has_no_rules_link_and_breaks_no_rules_page(take: GameSpec,
                                                                               tmp_path: Path) -> None:
    """Take's web view has no rules page: its table has no Rules link, /rules/take says so, the others still work."""
    with client(tmp_path / "s.db") as c:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
        table = c.post("/api/tables", json={"game": "take", "seats": seats, "options": {"pile": 4}}).json()
        page = c.get(f"/play/{token(table['seats'][0]['link'])}").text
        assert ">Rules</a>" not in page and 'href="/rules' not in page
        r = c.get("/rules/take")
        assert r.status_code == 404
        assert "Take has no rules page; there are rules for: Spots, Double Spot." in r.text
        first = c.get("/rules", follow_redirects=False)
        assert first.status_code == 307 and first.headers["location"] == "/rules/spots"
        for game, words in (("spots", "How to play Spots"), ("double-spot", "How to play Double Spot")):
            r = c.get(f"/rules/{game}")
            assert r.status_code == 200 and words in r.text, game
            assert 'href="/rules/take"' not in r.text  # the games' links: only those with a rules page
            assert 'href="/rules/spots"' in r.text and 'href="/rules/double-spot"' in r.text


def test_the_rules_of_an_unknown_game_are_a_clear_404(take: GameSpec, tmp_path: Path) -> None:
    with client(tmp_path / "s.db") as c:
        for game in ("chess", "Spots", "take%20it"):
            r = c.get(f"/rules/{game}")
            assert r.status_code == 404 and "There is no game" in r.text and "Not found" in r.text, game
        assert c.get("/rules/spots/extra").status_code == 404


def test_the_lobby_lists_its_tables_while_playing_and_once_over(take: GameSpec, tmp_path: Path) -> None:
    """``GET /api/tables`` asks each game for its summary: seats, scores, whose turn, the winner."""
    with client(tmp_path / "s.db", bot_delay=0.0) as c:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
        waiting = c.post("/api/tables", json={"game": "take", "seats": seats, "options": {"pile": 4}}).json()
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        played = c.post("/api/tables", json={"game": "take", "seats": bots, "options": {"pile": 5}}).json()
        deadline = time.monotonic() + 60  # the bots play on their own: poll the list until their game is over
        while True:
            rows = {t["id"]: t for t in c.get("/api/tables").json()["tables"]}
            if rows[played["id"]]["status"] == "over" or time.monotonic() > deadline:
                break
            time.sleep(0.02)  # a short pause between polls, not a wait for the event
        listed = rows[waiting["id"]]
        assert listed["game"] == "take" and listed["to_move"] == "Ann" and listed["target"] is None
        assert [p["scored"] for p in listed["players"]] == [0, 0]
        over = rows[played["id"]]
        assert over["status"] == "over" and over["to_move"] is None
        assert over["winner"] == "random bot"  # a bot seat nobody named, labelled by its bot (none is stored)
        assert over["players"][over["winner_seat"]]["bot"] == "random"
        assert sorted(p["scored"] for p in over["players"]) == [0, 1]


def test_it_plays_in_the_terminal_through_the_generic_screen(take: GameSpec, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``spots play --game take``: a bad move is refused, the numbers pick moves, the record is saved and reloads."""
    typed = iter(["take 3", "help", "2", "1", "1", "1", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    save = tmp_path / "take.json"
    assert cli.main(["play", "--game", "take", "--pile", "5", "--seat", "me", "--seat", "random", "--seed", "3",
                     "--fast", "--plain", "--autosave", str(save)]) == 0
    out = capsys.readouterr().out
    assert "5 stones left" in out and "not a legal move: 'take 3'. Legal here: take 1, take 2." in out
    assert "Type a move as it is listed" in out and "Game over (last stone taken)" in out
    record = json.loads(save.read_text())
    assert record["format"] == "take-record" and record["seats"] == ["me", "random"]
    assert sum(int(m.split()[1]) for m in record["moves"]) == 5  # every stone taken, by the moves saved
    assert cli.main(["replay", str(save)]) == 0 and "0 stones left" in capsys.readouterr().out


STUDY = """
name = "take-seats"
kind = "seats"
games = 6
seed = 3
chunk = 4
[base]
game = "take"
bots = ["random"]
[grid]
pile = [4, 7]
"""


def test_a_study_runs_it(take: GameSpec, tmp_path: Path) -> None:
    """A study file names the game; its rows come from the game's summary, the report reads them."""
    pytest.importorskip("matplotlib")
    from spots.study import load_study
    from spots.study.play import SHARED_COLUMNS, play_chunk
    from spots.study.report import write_report

    path = tmp_path / "take.toml"
    path.write_text(STUDY, encoding="utf-8")
    study = load_study(str(path))
    rows = [row for index, start, stop in study.chunks()
            for row in play_chunk(study.configs[index], index, study.seed, start, stop)]
    assert len(rows) == 12 and {r["kind"] for r in rows} == {"take"} and {r["engine"] for r in rows} == {"reference"}
    for row in rows:  # the shared columns and nothing of another game's (Take declares no columns of its own)
        assert set(row) == set(SHARED_COLUMNS)
        assert row["returns"][row["winner"]] == 1.0 and row["end_reason"] == "target"
        assert row["scores"] == [int(r) for r in row["returns"]] and sum(row["turns_taken"]) == row["turns"]
    again = play_chunk(study.configs[1], 1, study.seed, 0, 4)
    assert again == [r for r in rows if r["config"] == 1][:4]  # seeded: the same rows every time
    report = write_report(study, rows, tmp_path / "report").read_text()
    assert "12 games" in report and "Win rate by turn order" in report
    with pytest.raises(ValueError, match="game must be one of spots, double-spot, take, not 'taken'"):
        load_study(str(path.with_name("bad.toml"))) if path.with_name("bad.toml").write_text(
            STUDY.replace('"take"', '"taken"')) else None


def test_its_own_study_columns_are_declared_typed_and_filled(tmp_path: Path) -> None:
    """A game's own study columns: a type outside the list is refused when declared, a column filled but not
    declared (or declared but not filled) when a game is played, and declared ones reach the stored rows."""
    pytest.importorskip("pyarrow")
    from spots.study import load_study
    from spots.study.play import play_chunk
    from spots.study.store import ChunkStore

    with pytest.raises(ValueError, match="study column 'left' has type 'stones'; a column is one of str, bool"):
        games.Studies(columns={"left": "stones"})
    path = tmp_path / "take.toml"
    path.write_text(STUDY, encoding="utf-8")
    for study, said in ((games.Studies(row=lambda rules, state, moves: {"left": state.left}), "undeclared: left"),
                        (games.Studies(columns={"left": "int8"}), "missing: left")):
        games.register(dataclasses.replace(SPEC, study=study))
        try:
            with pytest.raises(ValueError, match=said):
                play_chunk(load_study(str(path)).configs[0], 0, 3, 0, 1)
        finally:
            games.unregister(SPEC.name)
    games.register(dataclasses.replace(SPEC, study=games.Studies(
        columns={"pile": "int8", "takes": "list[int8]"},
        row=lambda rules, state, moves: {"pile": rules.pile, "takes": [int(m.split()[1]) for _, m in moves]})))
    try:
        study = load_study(str(path))
        store = ChunkStore(tmp_path / "rows", study)
        for index, start, stop in study.chunks():
            store.write(index, start, stop, play_chunk(study.configs[index], index, study.seed, start, stop))
        rows = store.load()
    finally:
        games.unregister(SPEC.name)
    assert len(rows) == 12 and {r["pile"] for r in rows} == {4, 7}
    assert all(sum(r["takes"]) == r["pile"] for r in rows) and "tricks" not in rows[0]


def test_a_browser_plays_it_with_its_own_renderer(tmp_path: Path, browser: Any) -> None:
    """A real server that has the game from ``SPOTS_GAMES``; a person plays it by the buttons its script draws."""
    tests = str(Path(__file__).parent)
    env = {"SPOTS_GAMES": "take", "PYTHONPATH": os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")]))}
    server = Server(tmp_path / "take.db", "--host", "127.0.0.1", "--bot-delay", "0.05", "--log-level", "warning",
                    "--private", "--workers", "1", env=env).start()
    try:
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
        r = httpx.post(server.url + "/api/tables", json={"game": "take", "seats": seats, "options": {"pile": 5}})
        assert r.status_code == 201, r.text
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/play/{token(r.json()['seats'][0]['link'])}")
        page.wait_for_selector("body[data-game='take'] #pile")
        assert page.eval_on_selector(".take-pile", "el => getComputedStyle(el).fontSize") != "16px"  # take.css
        for _ in range(10):
            page.wait_for_function("() => document.body.dataset.over === '1' || "
                                   "document.querySelector('button.take-move:not([disabled])')")
            if page.get_attribute("body", "data-over") == "1":
                break
            before = int(page.get_attribute("#pile", "data-left") or 0)
            page.click("button.take-move")
            page.wait_for_function(f"() => Number(document.querySelector('#pile').dataset.left) < {before}")
        assert page.get_attribute("body", "data-over") == "1"
        assert page.get_attribute("#pile", "data-left") == "0"
        assert "took the last stone" in page.inner_text("#take-winner")
        assert errors == []
    finally:
        server.stop()


def test_a_game_adds_its_own_pages_a_lobby_button_and_a_table_mode(tmp_path: Path) -> None:
    """``WebView.routes``, ``links`` and ``modes`` (Spots' Daily page, its lobby button and its solo tables): the app
    serves a game's own pages and buttons, and a table page asked for a mode loads that mode's files, no other."""
    from fastapi import APIRouter
    from fastapi.responses import HTMLResponse

    from spots.core.webview import LobbyLink, TableMode

    router = APIRouter()

    @router.get("/take/puzzle", response_class=HTMLResponse)
    async def puzzle() -> str:
        return "<p>Take the last of 7 stones</p>"

    web = SPEC.web
    assert web is not None
    view = dataclasses.replace(web, routes=lambda: router, links=(LobbyLink("/take/puzzle", "Puzzle", "puzzle"),),
                               modes=(TableMode("puzzle", styles=("puzzle.css",), scripts=("puzzle.js",)),))
    games.register(dataclasses.replace(SPEC, web=view))
    try:
        with client(tmp_path / "s.db") as c:
            assert c.get("/take/puzzle").text == "<p>Take the last of 7 stones</p>"
            assert '<a class="button" href="/take/puzzle" id="puzzle">Puzzle</a>' in c.get("/").text
            seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
            table = c.post("/api/tables", json={"game": "take", "seats": seats, "options": {"pile": 4}}).json()
            link = f"/play/{token(table['seats'][0]['link'])}"
            plain, asked = c.get(link).text, c.get(link + "?puzzle=1").text
            for page, has in ((plain, False), (asked, True)):
                assert ('<link rel="stylesheet" href="/games/take/puzzle.css">' in page) is has
                assert ('<script src="/games/take/puzzle.js"></script>' in page) is has
                assert "solo.js" not in page and "SPOTS_SOLO" not in page  # Spots' solo mode is Spots' alone
    finally:
        games.unregister(SPEC.name)
