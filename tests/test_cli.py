"""The ``spots`` command (``spots.cli:main``): self-play, replay, show, hint, tiles, arena.

Most tests call ``main(argv)`` in-process and read stdout/stderr with capsys; a few
run the real console entry as a subprocess. Every user error must exit 2 with a
one-line ``spots: error: ...`` message on stderr, never a traceback.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spots import bots
from spots.arena import wilson
from spots.cli import main, result_line
from spots.games.double_spot import record as double_spot_record
from spots.games.spots import record as spots_record
from support.spots import play, start

SELFPLAY = ["selfplay", "--seed", "3", "--bots", "greedy,random"]
ARENA = ["arena", "--bots", "greedy,random", "--games", "12", "--seed", "1", "--no-progress"]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]):
    """Run ``main(argv)`` in-process: (exit code, stdout, stderr). A traceback fails the test."""

    def run(*argv: object) -> tuple[int, str, str]:
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:  # argparse usage errors
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception as exc:
            out, err = capsys.readouterr()
            pytest.fail(f"spots {' '.join(map(str, argv))} raised {exc!r} instead of a clear error\n{err}")
        out, err = capsys.readouterr()
        return code, out, err

    return run


def run_script(*argv: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The console entry in a fresh interpreter."""
    return subprocess.run(
        [sys.executable, "-m", "spots.cli", *map(str, argv)],
        capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})},
    )


def assert_clean_error(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert "Traceback" not in err
    assert err.startswith("spots: error: "), err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The record of ``selfplay --seed 3 --bots greedy,random``."""
    path = tmp_path_factory.mktemp("record") / "game.json"
    assert main([*SELFPLAY, "--quiet", "--out", str(path)]) == 0
    return path


# --------------------------------------------------------------------------- selfplay


def test_selfplay_prints_moves_and_final_position_and_writes_a_record(cli, tmp_path: Path) -> None:
    out_file = tmp_path / "rec.json"
    code, out, err = cli(*SELFPLAY, "--out", out_file)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["1", "chance", "reveal"]  # numbered moves, the deal first
    assert any(" seat 0 " in line and "trick " in line for line in lines)
    assert any(" seat 1 " in line for line in lines)
    assert "Game over" in out
    assert "Seat 0:" in out and "Seat 1:" in out
    assert f"record written to {out_file}" in out
    doc = json.loads(out_file.read_text("utf-8"))
    assert doc["format"] == "spots-record"
    assert doc["rules"]["players"] == 2
    # Every move is printed, numbered in order.
    numbered = [line for line in lines if line[:5].strip().isdigit()]
    assert len(numbered) == len(doc["moves"])
    assert [line[15:] for line in numbered] == doc["moves"]  # "{n:5d}  {who:<7} {move}"


@pytest.mark.parametrize(("game", "load"), [("spots", spots_record.load_record),
                                             ("double-spot", double_spot_record.load_record)])
@pytest.mark.parametrize("seed", [1, 2, 5])
def test_selfplay_says_who_won(cli, tmp_path: Path, game: str, load, seed: int) -> None:
    """The last line names the winner, seats counted from 0 as in the move log; the record agrees."""
    code, out, err = cli("selfplay", "--game", game, "--seed", seed, "--bots", "greedy,random", "--quiet",
                         "--out", tmp_path / "game.json")
    assert code == 0, err
    state = load(tmp_path / "game.json")
    assert state.is_terminal() and state.winner is not None
    result = f"result: seat {state.winner} ({['greedy', 'random'][state.winner]}) wins"
    assert out.splitlines()[-2:] == [result, f"record written to {tmp_path / 'game.json'}"]


def test_the_result_line_of_a_draw() -> None:
    assert result_line([0.5, 0.5], ["greedy", "mcts"]) == "result: a draw"
    assert result_line([0.0, 0.5, 0.5], ["a", "b", "c"]) == "result: a draw between seats 1 (b), 2 (c)"
    assert result_line([0.0, 1.0], ["a", "b"]) == "result: seat 1 (b) wins"


def test_selfplay_same_seed_same_game(cli, tmp_path: Path) -> None:
    code1, out1, _ = cli(*SELFPLAY, "--out", tmp_path / "a.json")
    code2, out2, _ = cli(*SELFPLAY, "--out", tmp_path / "b.json")
    assert code1 == code2 == 0
    assert out1.replace("a.json", "X") == out2.replace("b.json", "X")
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    code3, out3, _ = cli("selfplay", "--seed", "4", "--bots", "greedy,random")
    assert code3 == 0 and out3 != out1


def test_selfplay_as_a_real_process_matches_in_process(cli) -> None:
    """The console entry works, and the game does not depend on the interpreter's hash seed."""
    code, out, _ = cli(*SELFPLAY, "--quiet")
    assert code == 0
    proc = run_script(*SELFPLAY, "--quiet", env={"PYTHONHASHSEED": "123"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == out
    assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- replay


def test_replay_a_record(cli, record: Path) -> None:
    code, out, err = cli("replay", record)
    assert code == 0, err
    moves = json.loads(record.read_text())["moves"]
    assert f"{len(moves)} moves, all legal" in out
    assert "Game over" in out


def test_replay_reports_the_corrupted_move(cli, record: Path, tmp_path: Path) -> None:
    doc = json.loads(record.read_text())
    assert len(doc["moves"]) > 41
    doc["moves"][40] = "place 6 nobody"  # move 41, counting from 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, out, err = cli("replay", bad)
    assert_clean_error(code, err, "move 41", "place 6 nobody")
    assert "all legal" not in out


def test_replay_corrupted_move_as_a_real_process(record: Path, tmp_path: Path) -> None:
    doc = json.loads(record.read_text())
    doc["moves"][40] = "bury 9"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    proc = run_script("replay", bad)
    assert_clean_error(proc.returncode, proc.stderr, "move 41")


def bad_files(tmp_path: Path, record: Path) -> dict[str, Path]:
    doc = json.loads(record.read_text())
    files = {
        "missing": tmp_path / "missing.json",
        "not-json": tmp_path / "not.json",
        "empty": tmp_path / "empty.json",
        "not-utf8": tmp_path / "binary.json",
        "wrong-format": tmp_path / "wrong.json",
        "a-list": tmp_path / "list.json",
        "moves-not-strings": tmp_path / "moves.json",
        "bad-rules": tmp_path / "rules.json",
        "directory": tmp_path,
    }
    files["not-json"].write_text("{this is not json")
    files["empty"].write_text("")
    files["not-utf8"].write_bytes(b"\xff\xfe\x00\x81")
    files["wrong-format"].write_text(json.dumps({**doc, "format": "chess-pgn"}))
    files["a-list"].write_text("[1, 2, 3]")
    files["moves-not-strings"].write_text(json.dumps({**doc, "moves": [1, 2]}))
    files["bad-rules"].write_text(json.dumps({**doc, "rules": {**doc["rules"], "players": 7}}))
    return files


EXPECTED_WORDS = {
    "missing": "cannot read", "not-json": "not valid JSON", "empty": "not valid JSON", "not-utf8": "UTF-8",
    "wrong-format": "format", "a-list": "JSON object", "moves-not-strings": "moves", "bad-rules": "players",
    "directory": "cannot read",
}


@pytest.mark.parametrize("command", ["replay", "show", "hint"])
def test_bad_files_give_a_clear_error(cli, record: Path, tmp_path: Path, command: str) -> None:
    for kind, path in bad_files(tmp_path, record).items():
        code, _out, err = cli(command, path)
        assert_clean_error(code, err, EXPECTED_WORDS[kind])
        assert len(err.strip().splitlines()) == 1, (kind, err)


def test_missing_file_as_a_real_process(tmp_path: Path) -> None:
    proc = run_script("replay", tmp_path / "nope.json")
    assert_clean_error(proc.returncode, proc.stderr, "nope.json")
    assert proc.stdout == ""


# --------------------------------------------------------------------------- show and hint


def test_show_a_saved_state(cli, tmp_path: Path) -> None:
    state = start()
    path = tmp_path / "state.json"
    path.write_text(state.to_json())
    code, out, err = cli("show", path)
    assert code == 0, err
    assert "Seat 0" in out and "Wilbur" in out and "Doog" in out
    assert "Legal: " + ", ".join(state.legal_actions()) in out


def test_show_a_record(cli, record: Path, tmp_path: Path) -> None:
    # A finished game: the position, and no legal moves.
    code, out, err = cli("show", record)
    assert code == 0, err
    assert "Game over" in out and "Legal:" not in out
    # A record cut after 60 moves: the position and its legal moves.
    doc = json.loads(record.read_text())
    doc["moves"] = doc["moves"][:60]
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps(doc))
    code, out, err = cli("show", partial)
    assert code == 0, err
    assert "Seat 0" in out and "Legal: " in out


def test_hint_ranks_the_moves_of_a_saved_state(cli, tmp_path: Path) -> None:
    state = play(start(), "trick walk", "roll 4 6")
    path = tmp_path / "state.json"
    path.write_text(state.to_json())
    code, out, err = cli("hint", path)
    assert code == 0, err
    assert "In hand: 4 6" in out  # the position first
    table = out[out.index("rank"):].splitlines()
    assert table[0].split() == ["rank", "move", "estimate", "bust", "now"]
    rows = table[1:]
    legal = state.legal_actions()
    assert len(rows) == len(legal)
    assert [row.split()[0] for row in rows] == [str(i) for i in range(1, len(legal) + 1)]
    assert sorted(" ".join(row.split()[1:-2]) for row in rows) == sorted(legal)
    estimates = [float(row.split()[-2]) for row in rows]
    assert estimates == sorted(estimates, reverse=True)
    bury6 = next(row for row in rows if " bury 6 " in row)
    assert bury6.split()[-1] == "100.0%"  # the chance it busts at once: yard 3 + 6 = 9 > 7
    bury4 = next(row for row in rows if " bury 4 " in row)
    assert bury4.split()[-1] == "0.0%"  # yard 3 + 4 = 7


def test_hint_at_a_finished_game(cli, record: Path) -> None:
    code, out, err = cli("hint", record)
    assert code == 0, err
    assert "No decision to advise on here." in out


def test_hint_unknown_bot(cli, tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(start().to_json())
    code, _, err = cli("hint", path, "--bot", "nobot")
    assert_clean_error(code, err, "nobot", *bots.names())


# --------------------------------------------------------------------------- tiles and rules options


def test_tiles_lists_22_tiles(cli) -> None:
    code, out, _ = cli("tiles")
    assert code == 0
    lines = out.strip().splitlines()
    assert len(lines) == 22
    names = [line.split()[0] for line in lines]
    assert len(set(names)) == 22
    assert {"howl", "roll-over", "walk", "fetch", "search", "play-dead"} <= set(names)
    colours = [line.split()[1] for line in lines]
    assert colours.count("red") == 2
    assert all(colours.count(c) == 5 for c in ("yellow", "purple", "green", "blue"))


@pytest.mark.parametrize(
    ("option", "word"),
    [
        pytest.param(["--players", "7"], "players", id="players-7"),
        pytest.param(["--players", "0"], "players", id="players-0"),
        pytest.param(["--target", "0"], "target", id="target-0"),
        pytest.param(["--tricks", "nonsense"], "nonsense", id="tricks-unknown"),
        pytest.param(["--bust-limit", "-1"], "bust", id="bust-limit-negative"),
        pytest.param(["--deck", "/nonexistent/deck.json"], "deck", id="deck-missing"),
    ],
)
def test_bad_rules_option(cli, option: list[str], word: str) -> None:
    code, _, err = cli("selfplay", "--quiet", *option)
    assert_clean_error(code, err, word)


def test_bad_rules_option_as_a_real_process() -> None:
    proc = run_script("selfplay", "--players", "7")
    assert_clean_error(proc.returncode, proc.stderr, "players")


def test_selfplay_wrong_number_of_bots(cli) -> None:
    code, _, err = cli("selfplay", "--bots", "greedy,random,random")
    assert_clean_error(code, err, "3 bots", "2 players")
    code, _, err = cli("selfplay", "--bots", "nobot")
    assert_clean_error(code, err, "nobot")


def test_usage_errors_exit_2(cli) -> None:
    assert cli()[0] == 2
    assert cli("fly")[0] == 2
    assert cli("arena")[0] == 2  # --bots is required
    assert cli("selfplay", "--seed", "x")[0] == 2


# --------------------------------------------------------------------------- arena


def per_game(doc: list[dict]) -> list[tuple]:
    return [(g["game"], tuple(g["seats"]), g["winner"], tuple(g["returns"]), g["turns"], tuple(g["busts"]))
            for g in doc]


@pytest.fixture(scope="module")
def arena_two_jobs(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    """``arena ... --jobs 2 --out results.json``, run once for the module."""
    import contextlib
    import io

    path = tmp_path_factory.mktemp("arena") / "results.json"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*ARENA, "--jobs", "2", "--out", str(path)])
    return code, out.getvalue(), path


def test_arena_table_and_json(arena_two_jobs) -> None:
    code, out, path = arena_two_jobs
    assert code == 0
    assert "12 games, 2 players" in out and "seed 1" in out
    assert "win rate" in out and "95% CI (Wilson)" in out
    doc = json.loads(path.read_text("utf-8"))
    assert len(doc) == 12
    assert [g["game"] for g in doc] == list(range(12))
    # Seats are rotated: each bot plays each seat in half the games.
    assert [g["seats"] for g in doc] == [["greedy", "random"], ["random", "greedy"]] * 6
    for g in doc:
        assert g["winner"] in (0, 1, None)
        assert sum(g["returns"]) == pytest.approx(1.0)
    # Each bot's row: seats, wins, win rate and the Wilson interval of its wins.
    for bot in ("greedy", "random"):
        wins = sum(g["returns"][g["seats"].index(bot)] for g in doc)
        low, high = wilson(wins, 12)
        row = next(line for line in out.splitlines() if line.startswith(bot + " "))
        assert row.split()[1] == "12"
        assert f"{wins / 12:.1%}" in row
        assert f"[{low:.1%}, {high:.1%}]" in row
    assert f"per-game results written to {path}" in out


def test_arena_results_do_not_depend_on_worker_count(arena_two_jobs, cli, tmp_path: Path) -> None:
    _, _, two = arena_two_jobs
    one = tmp_path / "one.json"
    code, _, err = cli(*ARENA, "--jobs", "1", "--out", one)
    assert code == 0, err
    assert per_game(json.loads(one.read_text())) == per_game(json.loads(two.read_text()))


def test_arena_results_do_not_depend_on_hash_seed(arena_two_jobs, tmp_path: Path) -> None:
    _, _, two = arena_two_jobs
    other = tmp_path / "other.json"
    proc = run_script(*ARENA, "--jobs", "1", "--out", other, env={"PYTHONHASHSEED": "987"})
    assert proc.returncode == 0, proc.stderr
    assert per_game(json.loads(other.read_text())) == per_game(json.loads(two.read_text()))


def test_arena_writes_csv(cli, tmp_path: Path, arena_two_jobs) -> None:
    path = tmp_path / "results.csv"
    code, _, err = cli(*ARENA, "--games", "4", "--out", path)
    assert code == 0, err
    with path.open(newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["game", "seat", "bot", "return", "winner", "turns", "busts", "turns_taken",
                       "decisions", "mean_decision_ms"]
    assert len(rows) == 1 + 4 * 2  # one row per game and seat
    assert [r[0] for r in rows[1:]] == ["0", "0", "1", "1", "2", "2", "3", "3"]
    # The first 4 games are the same as in the 12-game match.
    two = json.loads(arena_two_jobs[2].read_text())
    for r in rows[1:]:
        game = two[int(r[0])]
        assert game["seats"][int(r[1])] == r[2]
        assert r[4] == str(game["winner"])


def test_arena_unknown_bot(cli) -> None:
    code, _, err = cli("arena", "--bots", "greedy,nobot", "--games", "2", "--no-progress")
    assert_clean_error(code, err, "nobot", *bots.names())


@pytest.mark.parametrize(
    "bots_arg",
    [",", " "],
)
def test_arena_no_bot_names(cli, bots_arg: str) -> None:
    code, _, err = cli("arena", "--bots", bots_arg, "--games", "2", "--no-progress")
    assert_clean_error(code, err, "bot")


@pytest.mark.parametrize(
    "budget",
    ["not json", "[1]", '{"greedy": 5}', '{"greedy": {"no_such_option": 1}}'],
)
def test_arena_bad_budget(cli, budget: str) -> None:
    code, _, err = cli("arena", "--bots", "greedy,random", "--games", "2", "--no-progress", "--budget", budget)
    assert_clean_error(code, err)


def test_arena_unwritable_output(cli, tmp_path: Path) -> None:
    code, _, err = cli(*ARENA, "--games", "2", "--out", tmp_path / "no" / "such" / "dir.json")
    assert_clean_error(code, err)


def test_serve_is_wired_to_the_web_server(capsys: pytest.CaptureFixture[str]) -> None:
    """`spots serve --help` reaches the web server's own options (the README's run command)."""
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--db" in out and "--port" in out and "--host" in out


def test_play_help_names_every_games_bots(capsys: pytest.CaptureFixture[str]) -> None:
    """`spots play --help` says which bots may sit at each game (it said only "a bot name")."""
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "--help"])
    assert exit_info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "spots: random, greedy, expectimax, expectimax-learned" in out and "double-spot: random, greedy" in out
