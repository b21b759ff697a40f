"""The game registry seen from outside: ``spots games``, ``--game`` on every command, one API for both games.

The generic per-game checks are in ``test_games_generic.py``; these are the front ends and the
unified names (records, replay, errors, bots, advice) a user or a script meets.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import spots
from spots.cli import main
from spots.core import Advice, DeckError, RulesError, atomic_write
from spots.core.games import get, registry
from spots.games import double_spot

pytestmark = pytest.mark.timeout(300)


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def ds_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``spots selfplay --game double-spot --seed 3 --out g.json``."""
    path = tmp_path_factory.mktemp("ds") / "g.json"
    assert main(["selfplay", "--game", "double-spot", "--seed", "3", "--quiet", "--out", str(path)]) == 0
    return path


def test_spots_games_lists_every_game_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0
    for spec in registry().values():
        assert spec.name in out and spec.title in out
        assert all(option.flag in out for option in spec.options)
    code, out, _ = run(capsys, "games", "--json")
    doc = json.loads(out)
    assert [g["name"] for g in doc] == list(registry())
    ds = next(g for g in doc if g["name"] == "double-spot")
    assert ds["players"] == {"min": 2, "max": 2} and "mcts" in ds["bots"]
    claim = next(o for o in ds["options"] if o["name"] == "claim")
    assert claim["type"] == "choice" and claim["choices"] == ["mover", "first"] and claim["default"] == "mover"


def test_a_double_spot_game_through_every_command(capsys: pytest.CaptureFixture[str], ds_record: Path,
                                                  tmp_path: Path) -> None:
    doc = json.loads(ds_record.read_text())
    assert doc["format"] == "double-spot-record"
    state = double_spot.replay(doc["moves"], doc["rules"])
    assert state.is_terminal()
    code, out, err = run(capsys, "show", ds_record)
    assert code == 0, err
    assert double_spot.render(state) in out and "Legal:" not in out
    code, out, err = run(capsys, "replay", ds_record)
    assert code == 0 and f"{len(doc['moves'])} moves, all legal." in out
    partial = tmp_path / "partial.json"
    cut = next(i for i in range(30, len(doc["moves"])) if doc["moves"][i].startswith("roll"))
    partial.write_text(json.dumps({**doc, "moves": doc["moves"][:cut + 1]}))
    code, out, err = run(capsys, "hint", partial, "--limit", "3")
    assert code == 0, err
    table = out[out.index("rank"):].splitlines()
    assert table[0].split()[:3] == ["rank", "move", "estimate"] and len(table) >= 2
    legal = double_spot.replay(doc["moves"][:cut + 1], doc["rules"]).legal_actions()
    assert table[1].split()[1] == "drop" and " ".join(table[1].split()[1:4]) in legal
    code, _, err = run(capsys, "show", ds_record, "--game", "spots")
    assert code == 2 and "holds a Double Spot game, not Spots" in err
    code, _, err = run(capsys, "hint", partial, "--bot", "mcts")
    assert code == 2 and "hints come from the expectimax bot, not 'mcts'" in err


def test_the_double_spot_arena_reports_how_games_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "r.json"
    code, out, err = run(capsys, "arena", "--game", "double-spot", "--bots", "mcts,greedy", "--games", "4",
                         "--seed", "1", "--no-progress", "--budget", '{"mcts": {"iterations": 40}}',
                         "--columns", "5", "--rows", "4", "--target", "2", "--out", out_file)
    assert code == 0, err
    assert "Double Spot: 4 games, 2 players" in out and "mcts" in out and "greedy" in out
    assert "how they ended:" in out
    results = json.loads(out_file.read_text())
    assert [r["seats"] for r in results] == [["mcts", "greedy"], ["greedy", "mcts"]] * 2
    assert all(r["busts"] is None and r["ending"] for r in results)


@pytest.mark.parametrize(("argv", "message"), [
    (["selfplay", "--game", "double-spot", "--columns", "2"], "columns must be from 3 to 12, not 2"),
    (["selfplay", "--game", "double-spot", "--claim", "last"], "claim must be one of mover, first"),
    (["selfplay", "--columns", "5"], "--columns is a Double Spot option: add --game double-spot"),
    (["arena", "--game", "double-spot", "--bots", "greedy", "--players", "3"], "--players is a Spots option"),
    (["selfplay", "--game", "double-spot", "--bots", "ppo"], "unknown bot 'ppo'"),
    (["selfplay", "--target", "0"], "target must be at least 1, not 0"),
])
def test_options_are_checked_by_the_schema(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("spots: error: ") and message in err, err


def test_replay_takes_the_history_then_the_rules() -> None:
    state, rng = spots.Game(spots.Rules(players=2, target=1)).new_initial_state(), random.Random(1)
    for _ in range(12):
        if state.is_chance_node():
            state.sample_chance(rng)
        else:
            state.apply_action(state.legal_actions()[0])
    history = state.history()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert spots.replay(history, state.rules) == spots.replay(history, state.rules.to_dict())
        assert spots.replay(history, state.rules).history() == history
        assert spots.replay([]) == spots.Game(spots.Rules()).new_initial_state()
        ds = double_spot.new_game(target=2)
        assert double_spot.replay(ds.history(), {"target": 2}) == ds
    with pytest.raises(RulesError, match="rules must be an object of options, not list"):
        spots.replay(state.rules, history)  # type: ignore[arg-type]


def test_one_set_of_errors_bots_and_advice() -> None:
    assert double_spot.DeckError is DeckError and issubclass(DeckError, RulesError)
    assert double_spot.DoubleSpotRulesError is RulesError
    with pytest.raises(RulesError):
        double_spot.Rules(columns=99)
    from spots.core.bots import RandomBot
    from spots.core.mcts import Mcts
    from spots.games.double_spot.bots import BOTS
    from spots.games.spots.mcts import MctsBot

    assert BOTS["random"] is RandomBot and issubclass(MctsBot, Mcts)
    assert isinstance(spots.bots.make("mcts"), Mcts) and isinstance(double_spot.bots.make("mcts"), Mcts)
    state = double_spot.new_game()
    while state.is_chance_node():
        state.sample_chance(random.Random(2))
    advice = get("double-spot").advise(state, seed=1)
    assert all(isinstance(a, Advice) and a.bust is None and a.score == a.value for a in advice)


def test_double_spot_bots_do_not_import_the_spots_bots() -> None:
    code = ("import sys, spots.games.double_spot.bots, spots.games.double_spot.advice; "
            "print(sorted(m for m in sys.modules if m.startswith('spots.bots')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60).stdout
    assert out.strip() == "[]"


def test_atomic_write_keeps_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    atomic_write(path, "old")

    with pytest.raises(TypeError):
        atomic_write(path, 42)  # type: ignore[arg-type]
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_api_games_serves_the_registry(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from spots.web import create_app

    with TestClient(create_app(tmp_path / "db.sqlite3", bot_delay=30.0)) as client:
        response = client.get("/api/games")
        spanish = client.get("/api/games", headers={"Accept-Language": "es"}).json()
    assert response.status_code == 200
    games = response.json()
    assert [g["name"] for g in games] == list(registry())
    spots_spec = next(g for g in games if g["name"] == "spots")
    players = next(o for o in spots_spec["options"] if o["name"] == "players")
    assert (players["min"], players["max"], players["default"], players["label"]) == (1, 4, 2, "Players")
    columns = next(o for o in spanish[1]["options"] if o["name"] == "columns")
    assert columns["label"] == "Columnas" and columns["help"] == "columns of the frame"


def test_a_table_draws_the_dice_its_game_gives_it() -> None:
    """``GameSpec.dealing``: Spots' keyed rules give a table a deal of its own, drawn from the shell's generator; a game
    without the hook (Double Spot) draws from that generator itself, and so do Spots' unkeyed rules."""
    from spots.games.spots.keyed import KeyedDice

    spots_spec, ds = get("spots"), get("double-spot")
    plain = random.Random(5)
    assert ds.dealing is None and ds.table_dice(ds.make_rules(), plain) is plain
    assert spots_spec.table_dice(spots_spec.make_rules(), plain) is plain
    keyed = spots_spec.table_dice(spots_spec.make_rules(keyed_dice="on"), random.Random(5))
    assert isinstance(keyed, KeyedDice)
    assert keyed.deal == spots_spec.table_dice(spots_spec.make_rules(keyed_dice="on"), random.Random(5)).deal
    assert keyed.deal != spots_spec.table_dice(spots_spec.make_rules(keyed_dice="on"), random.Random(6)).deal
