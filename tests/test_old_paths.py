"""The import paths from before the layout move keep working: people's scripts use them.

``spots.odds``, ``spots.advisor``, ``spots.double_spot``, ``spots.engine`` and the
Spots bots' modules moved under ``spots.games``; the old names give the very same
modules (so classes and ``isinstance`` checks are shared), checked in a fresh process.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

CODE = """
import importlib.resources, spots
import spots.odds, spots.advisor, spots.engine.errors
from spots import double_spot
from spots.double_spot.bots import make
from spots.bots.greedy import GreedyBot
import spots.games.spots.advice as advice, spots.games.spots.odds as odds, spots.games.double_spot as ds
assert spots.odds is odds and spots.advisor is advice and double_spot is ds
assert spots.engine.errors.IllegalMoveError is spots.IllegalMoveError
assert type(spots.bots.make("greedy")) is GreedyBot and make("greedy").name == "greedy"
assert spots.double_spot.__spec__.name == "spots.games.double_spot"  # the real spec, so package data is found
assert importlib.resources.files("spots.double_spot").joinpath("data/patterns.json").is_file()
import random
state, rng = spots.Game(spots.Rules(players=2)).new_initial_state(), random.Random(1)
while state.is_chance_node():
    state.sample_chance(rng)
print(spots.advisor.advise(state)[0].move in state.legal_actions(), double_spot.replay([]).is_chance_node())
"""


def test_the_old_module_paths_give_the_moved_modules() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]


def test_an_old_path_warns_with_the_new_place() -> None:
    code = "import warnings; warnings.simplefilter('always'); import spots.odds, spots.double_spot.bots"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert "DeprecationWarning: spots.odds moved to spots.games.spots.odds; import it from there" in out.stderr
    assert "spots.double_spot moved to spots.games.double_spot" in out.stderr


def test_the_old_terminal_module_names_give_the_renamed_ones() -> None:
    """``spots.play.terminal`` and ``.view`` (later ``spots_terminal`` and ``spots_view``) moved into the game's
    folder, as ``spots.games.spots.terminal`` and ``terminal_view``."""
    code = ("import spots, spots.play.terminal as old, spots.games.spots.terminal as new\n"
            "import spots.play.spots_terminal as later\n"
            "from spots.play.view import board\n"
            "import spots.games.spots.terminal_view as view\n"
            "from spots.core import games\n"
            "print(old is new is later, board is view.board, games.get('spots').terminal.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "spots.games.spots.spec"]  # a face is an object of the game


def test_faces_named_by_module_attr_strings_still_work_and_warn() -> None:
    """A spec written before faces were objects (``terminal="module:function"``, ``web="module:name"``)."""
    from dataclasses import replace

    from spots.web.words import WEB_VIEW

    from spots.core import games

    old = replace(games.get("spots"), terminal="spots.play.spots_terminal:start", web="spots.web.words:WEB_VIEW")
    with pytest.warns(DeprecationWarning, match="GameSpec.terminal is a 'module:attr' string"):
        start = old.terminal_start()
    from spots.play.spots_terminal import start as spots_start

    assert start is spots_start
    with pytest.warns(DeprecationWarning, match="GameSpec.web is a 'module:attr' string"):
        assert old.web_view() is WEB_VIEW


def test_a_web_view_given_by_a_function_still_works_and_warns() -> None:
    """Before the spec held its ``WebView`` itself, ``GameSpec.web`` was a function giving it."""
    from dataclasses import replace

    from spots.core import games
    from spots.games.spots.web_view import WEB_VIEW

    spec = games.get("spots")
    assert spec.web is WEB_VIEW and spec.web_view() is WEB_VIEW  # the object itself, no warning
    with pytest.warns(DeprecationWarning, match="GameSpec.web is a function; give the WebView itself"):
        assert replace(spec, web=lambda: WEB_VIEW).web_view() is WEB_VIEW


def test_the_views_that_moved_into_the_game_folders_keep_their_old_names() -> None:
    """Each game's terminal and web views left ``spots.play`` and ``spots.web`` for its folder; the old names give
    the very same modules, with a warning naming the new place (in a fresh process, so each warns once)."""
    pairs = {"spots.web.words": "spots.games.spots.web_view",
             "spots.web.double_spot_words": "spots.games.double_spot.web_view",
             "spots.play.double_spot_terminal": "spots.games.double_spot.terminal",
             "spots.play.double_spot_view": "spots.games.double_spot.terminal_view",
             "spots.play.spots_view": "spots.games.spots.terminal_view"}
    code = ("import importlib, warnings\nwarnings.simplefilter('always')\n"
            f"pairs = {pairs!r}\n"
            "print(all(importlib.import_module(old) is importlib.import_module(new) for old, new in pairs.items()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True"]
    for old, new in pairs.items():
        assert f"{old} moved to {new}; import it from there" in out.stderr


def test_the_old_solo_module_names_give_spots_own_modules_and_warn() -> None:
    """``spots.web.solo`` (the Daily page) and ``spots.solo_cli`` (``spots play --daily``) moved into Spots' folder:
    the shells name no game."""
    code = ("import warnings; warnings.simplefilter('always')\n"
            "import spots.web.solo as old_web, spots.solo_cli as old_cli\n"
            "import spots.games.spots.solo_web as web, spots.games.spots.solo_play as play\n"
            "print(old_web is web, old_cli is play, old_cli.play_solo is play.play_solo)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True"]
    assert "spots.web.solo moved to spots.games.spots.solo_web" in out.stderr
    assert "spots.solo_cli moved to spots.games.spots.solo_play" in out.stderr
