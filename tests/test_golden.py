"""Behaviour kept across refactors: the same seeded games, records and study rows as the fixture recorded.

The fixture (``tests/fixtures/golden.json``) was written by this module from the code as it was before the
games moved into their own folders; each entry is what a user gets back from one front end (an arena's
per-game results, a ``spots selfplay --out`` record file, a study chunk's rows), over both games. A
change of any seeded result is a change of behaviour, and this test says which entry moved.

Regenerate (only when a behaviour change is meant): ``PYTHONPATH=src python tests/test_golden.py --write``
(it was written with ``PYTHONPATH`` at the code before the move, commit f263baa). Double Spot's entries
name ``lifts`` 3, its default when the fixture was written (the rules' ending, ``lifts`` 0, is the default
since): what they compare is the code, not the default.

One entry changed on purpose since: Double Spot's study rows now count a lead change made by the game's last
move, as Spots' always did (they left it out, ``study_final_lead=False``, so that rows stayed identical). Of
the fixture's 19 Double Spot study rows one moved, game 2 of configuration 3: 2-2 with seat 0 the leader kept through
the tie, seat 1 takes its third card and wins, ``lead_changes`` 0 -> 1. The field was edited alone; everything
else is as recorded before the move. (``GameSpec.study.rows_version`` 2 keeps a study's store from mixing such
rows with rows counted the old way.)

And one change of shape, not of behaviour: a study row now holds the shared columns and its own game's
(``Studies.columns``), where every row once held every game's. The fixture keeps the rows as recorded; each
row is compared on every column it has, and the columns it no longer has must be those that held only a
filler for its game (``MOVED_OUT``: Spots' ``full``, always false; Double Spot's tricks, bust limit, busts and
uses, always empty).
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from spots import cli
from spots.arena import run_match
from spots.core.games import get
from spots.study.play import play_chunk
from spots.study.spec import make_config

FIXTURE = Path(__file__).parent / "fixtures" / "golden.json"

# (game, options, bots, games, budget): short matches of each game, seats rotated
MATCHES: list[tuple[str, dict[str, Any], list[str], int, dict[str, Any]]] = [
    ("spots", {"players": 2, "target": 2}, ["greedy", "random"], 4, {}),
    ("spots", {"players": 3, "target": 1, "tricks": "all"}, ["expectimax", "greedy", "mcts"], 3,
     {"expectimax": {"nodes": 200}, "mcts": {"iterations": 20}}),
    ("double-spot", {"lifts": 3}, ["greedy", "random"], 4, {}),
    ("double-spot", {"columns": 4, "rows": 4, "target": 2, "claim": "first", "lifts": 3}, ["search", "mcts"], 2,
     {"search": {"nodes": 300}, "mcts": {"iterations": 20}}),
]
# (command-line arguments after "selfplay"): records as ``spots selfplay --out`` saves them
SELFPLAYS: list[list[str]] = [
    ["--game", "spots", "--seed", "3", "--bots", "greedy", "--target", "2"],
    ["--game", "spots", "--seed", "5", "--bots", "random,greedy,greedy", "--players", "3", "--target", "1"],
    ["--game", "double-spot", "--seed", "7", "--bots", "greedy,random", "--lifts", "3"],
    ["--game", "double-spot", "--seed", "9", "--bots", "greedy", "--lifts", "0", "--columns", "5", "--rows", "4"],
]
# (configuration, games): study rows from the reference runner (and the fast one for the second)
STUDIES: list[tuple[dict[str, Any], int]] = [
    ({"game": "spots", "bots": ["greedy"], "players": 3, "target": 2, "tricks": "random:6"}, 3),
    ({"game": "spots", "bots": ["random", "greedy:risk=0.5"], "players": 2, "target": 1}, 3),
    ({"game": "double-spot", "bots": ["greedy"], "claim": "first", "columns": 6, "rows": 4, "lifts": 3}, 3),
    ({"game": "double-spot", "bots": ["greedy", "random"], "columns": 5, "rows": 4, "target": 3, "lifts": 3}, 16),
]


def arena_results() -> list[list[dict[str, Any]]]:
    out = []
    for game, options, bots, games, budget in MATCHES:
        spec = get(game)
        results = run_match(spec.make_rules(**options), bots, games, seed=11, budget=budget)
        out.append([{k: v for k, v in dataclasses.asdict(r).items() if k != "decision_times"} for r in results])
    return out


def selfplay_records(tmp: Path) -> list[dict[str, Any]]:
    out = []
    for i, args in enumerate(SELFPLAYS):
        path = tmp / f"record-{i}.json"
        assert cli.main(["selfplay", *args, "--quiet", "--out", str(path)]) == 0
        out.append(json.loads(path.read_text(encoding="utf-8")))
    return out


def study_rows(engine: str) -> list[list[dict[str, Any]]]:
    out = []
    for index, (options, games) in enumerate(STUDIES):
        config = make_config(dict(options), f"golden configuration {index}")
        out.append(play_chunk(config, index, 16, 0, games, engine=engine))
    return out


def fast_rows() -> list[dict[str, Any]]:
    """Study rows from the fast simulator, for the Spots configurations it plays."""
    options, games = STUDIES[1]
    return play_chunk(make_config(dict(options), "golden configuration 1"), 1, 16, 0, games, engine="fast")


def record(tmp: Path) -> dict[str, Any]:
    return {"arena": arena_results(), "records": selfplay_records(tmp), "study": study_rows("reference"),
            "fast_study": fast_rows()}


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("index", range(len(MATCHES)))
def test_arena_results_are_unchanged(golden: dict[str, Any], index: int) -> None:
    game, options, bots, games, budget = MATCHES[index]
    spec = get(game)
    results = run_match(spec.make_rules(**options), bots, games, seed=11, budget=budget)
    got = [{k: v for k, v in dataclasses.asdict(r).items() if k != "decision_times"} for r in results]
    assert plain(got) == golden["arena"][index]


def test_selfplay_records_are_unchanged(golden: dict[str, Any], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert selfplay_records(tmp_path) == golden["records"]


# The columns each game's rows held only as a filler when every row had every game's columns: (column -> the
# filler, given the row's seat count).
MOVED_OUT: dict[str, dict[str, Any]] = {
    "spots": {"full": lambda seats: False},
    "double-spot": {"tricks": lambda seats: [], "bust_limit": lambda seats: 0, "busts": lambda seats: [0] * seats,
                    "uses": lambda seats: [[] for _ in range(seats)]},
}


def assert_rows_as_recorded(rows: list[dict[str, Any]], recorded: list[dict[str, Any]]) -> None:
    """``rows`` are the recorded rows: equal on every column they have, and a recorded column they lack held
    only its game's filler (``MOVED_OUT``)."""
    assert len(rows) == len(recorded)
    for row, old in zip(plain(rows), recorded, strict=True):
        gone = set(old) - set(row)
        assert set(row) <= set(old), f"new columns {sorted(set(row) - set(old))}"
        assert gone <= set(MOVED_OUT[old["kind"]]), f"{old['kind']} rows lost {sorted(gone)}"
        assert {k: old[k] for k in row} == row
        assert {k: old[k] for k in gone} == {k: MOVED_OUT[old["kind"]][k](old["players"]) for k in gone}


def test_reference_study_rows_are_unchanged(golden: dict[str, Any]) -> None:
    for rows, recorded in zip(study_rows("reference"), golden["study"], strict=True):
        assert_rows_as_recorded(rows, recorded)


def test_fast_study_rows_are_unchanged(golden: dict[str, Any]) -> None:
    """The compiled simulator's rows (Spots, random/greedy seats: its own dice, so rows of their own)."""
    pytest.importorskip("numba")
    assert_rows_as_recorded(fast_rows(), golden["fast_study"])


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        FIXTURE.write_text(json.dumps(plain(record(Path(tmp))), indent=None, sort_keys=True) + "\n",
                           encoding="utf-8")
    print(f"wrote {FIXTURE}")
