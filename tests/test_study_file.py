"""A study given as a small file: TOML, or YAML with the same keys; a bad file is a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from spots.study.spec import StudyError, load_study

TOML = """
name = "mine"
kind = "sets"
games = 30
seed = 4
chunk = 10
[base]
bots = ["greedy", "random"]
players = 2
[grid]
tricks = ["beginner", "dog-park"]
target = [3, 6]
[[cases]]
bust_limit = 5
[[cases]]
bust_limit = 9
"""

YAML = """
name: mine
kind: sets
games: 30
seed: 4
chunk: 10
base:
  bots: [greedy, random]
  players: 2
grid:
  tricks: [beginner, dog-park]
  target: [3, 6]
cases:
  - bust_limit: 5
  - bust_limit: 9
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_toml_file_declares_the_grid_bots_games_and_seed(tmp_path: Path) -> None:
    study = load_study(write(tmp_path, "mine.toml", TOML))
    assert study.source["file"] == str(tmp_path / "mine.toml")  # the report's "reproduce with" line
    assert (study.name, study.kind, study.games, study.seed, study.chunk) == ("mine", "sets", 30, 4, 10)
    assert len(study.configs) == 8 and study.total_games == 240  # 2 cases x 2 sets x 2 targets
    first = study.configs[0]
    assert first.bots == ("greedy", "random")
    assert dict(first.options) == {"players": 2, "tricks": "beginner", "target": 3, "bust_limit": 5}
    assert {c.options["bust_limit"] for c in study.configs} == {5, 9}


def test_a_yaml_file_gives_the_same_study(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    yaml_study = load_study(write(tmp_path, "mine.yaml", YAML))
    assert yaml_study == load_study(write(tmp_path, "mine.toml", TOML))
    assert yaml_study.fingerprint() == load_study(write(tmp_path, "mine.toml", TOML)).fingerprint()


def test_the_name_defaults_to_the_file_name(tmp_path: Path) -> None:
    assert load_study(write(tmp_path, "quick-look.toml", "games = 5\n")).name == "quick-look"


@pytest.mark.parametrize(("name", "text", "message"), [
    ("broken.toml", "games = \n", "is not valid TOML"),
    ("broken.yaml", "games: [1, 2\n", "is not valid YAML"),
    ("list.yaml", "- games\n- seed\n", "must hold a table of keys"),
    ("games.toml", "games = 0\n", "games must be a whole number of at least 1, not 0"),
    ("seed.toml", 'seed = "x"\n', "seed must be a whole number of at least 0, not 'x'"),
    ("kind.toml", 'kind = "fun"\n', "kind must be one of seats, ladder, sets, variants, tiles, double-spot, not 'fun'"),
    ("typo.toml", "game = 3\n", "unknown key(s) game; the keys are"),
    ("other.toml", 'kind = "tiles"\n[base]\ngame = "double-spot"\n',
     "a study of double-spot can be of kind seats, ladder, double-spot, not 'tiles'"),
    ("grid.toml", "[grid]\nplayers = 2\n", "grid.players must be a non-empty list of values, not 2"),
    ("option.toml", "[base]\nplayrs = 2\n", "configuration 1"),
    ("bots.toml", "[base]\nbots = [1]\n", "bots must be a list of bot names"),
    ("budget.toml", '[base]\nbots = ["greedy:risk"]\n', "options are written name:key=value"),
    ("notes.txt", "games = 5\n", "a study file ends in .toml, .yaml or .yml"),
])
def test_a_bad_file_says_what_is_wrong(tmp_path: Path, name: str, text: str, message: str) -> None:
    with pytest.raises(StudyError) as caught:
        load_study(write(tmp_path, name, text))
    assert message in str(caught.value) and name in str(caught.value)


def test_a_missing_file_or_unknown_name_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StudyError, match=r"cannot read study file .*nowhere\.toml: No such file"):
        load_study(str(tmp_path / "nowhere.toml"))
    with pytest.raises(StudyError, match="unknown study 'seat-advantages'; the studies are: seat-advantage"):
        load_study("seat-advantages")
