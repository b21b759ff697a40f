"""The fast simulator's Python API and ``spots arena --engine fast``, with and without Numba."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import spots
from spots.cli import main

SRC = str(Path(spots.__file__).resolve().parents[1])
ARENA = ["arena", "--bots", "greedy,random", "--games", "400", "--seed", "3", "--engine", "fast", "--no-progress"]


def without_numba(code: str) -> subprocess.CompletedProcess[str]:
    """Run Python code in a child process where ``import numba`` fails, as if the extra were missing."""
    blocker = f"import sys; sys.modules['numba'] = None; sys.path.insert(0, {SRC!r})\n"
    return subprocess.run([sys.executable, "-c", blocker + code], capture_output=True, text=True, timeout=120)


def test_without_numba_fast_engine_says_how_to_install_it() -> None:
    done = without_numba(f"from spots.cli import main; sys.exit(main({ARENA!r}))")
    assert done.returncode == 2
    assert 'pip install "spots[fast]"' in done.stderr
    assert "Traceback" not in done.stderr


def test_without_numba_everything_else_works() -> None:
    code = (
        "import spots, spots.fast\n"
        "from spots.cli import main\n"
        "assert not spots.fast.available()\n"
        "sys.exit(main(['arena', '--bots', 'greedy,random', '--games', '2', '--no-progress']))\n"
    )
    done = without_numba(code)
    assert done.returncode == 0, done.stderr
    assert "greedy" in done.stdout and "2 games" in done.stdout


numba = pytest.importorskip("numba")
from spots.fast import play_games  # noqa: E402


def test_arena_fast_engine_prints_the_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "games.json"
    assert main([*ARENA, "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "400 games" in text and "batch's mean time" in text
    greedy_row = next(line for line in text.splitlines() if line.startswith("greedy"))
    assert float(greedy_row.split()[3].rstrip("%")) > 90  # greedy beats random nearly always
    rows = json.loads(out.read_text())
    assert len(rows) == 400 and {tuple(r["seats"]) for r in rows} == {("greedy", "random"), ("random", "greedy")}


def test_arena_fast_engine_refuses_other_bots_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "mcts,random", "--engine", "fast", "--no-progress"]) == 2
    assert "--engine fast plays the bots random, greedy" in capsys.readouterr().err
    budget = ["--budget", '{"greedy": {"risk": 0.5, "depth": 2}}']
    assert main(["arena", "--bots", "greedy", "--engine", "fast", "--no-progress", *budget]) == 2


def test_play_games_is_reproducible_and_sums_up() -> None:
    rules = spots.Rules(players=3, tricks="all", turn_limit=200)
    a = play_games(rules, ["greedy", "random"], 300, seed=5, rotate=True)
    b = play_games(rules, ["greedy", "random"], 300, seed=5, rotate=True)
    c = play_games(rules, ["greedy", "random"], 300, seed=6, rotate=True)
    assert (a.winner == b.winner).all() and (a.busts == b.busts).all() and (a.tiles_used == b.tiles_used).all()
    assert not (a.turns == c.turns).all()
    assert a.returns.sum(axis=1) == pytest.approx(1.0)
    assert a.tiles_used.shape == (300, 22) and (a.tiles_used.sum(axis=1) > 0).all()
    assert (a.turns_taken.sum(axis=1) == a.turns).all()
    won = a.winner >= 0
    assert (a.scored[won, a.winner[won]] >= rules.target).all()
    greedy_seats = a.seats == 0
    assert a.returns[greedy_seats].mean() > 0.6  # greedy wins most games against random


def test_play_games_refuses_bad_input() -> None:
    rules = spots.Rules()
    with pytest.raises(ValueError, match="random, greedy, not mcts"):
        play_games(rules, ["mcts"], 10)
    with pytest.raises(ValueError, match="1 to 2 policies"):
        play_games(rules, ["random"] * 3, 10)
    with pytest.raises(ValueError, match="games must be at least 1"):
        play_games(rules, ["random"], 0)
    big = [{"name": f"Dog {i}", "spaces": [1, 2, 3, 4, 5, 6]} for i in range(40)]
    with pytest.raises(ValueError, match="up to 2048 moves at once"):
        play_games(spots.Rules(deck=big, dog_limit=40), ["random"], 1)


def test_compiled_code_is_forgotten_when_any_source_changes(tmp_path: Path) -> None:
    """Numba would reuse a function compiled against another file's old code: the cache follows all sources."""
    from spots.fast import drop_stale_cache

    (tmp_path / "machine.py").write_text("x = 1\n")
    (tmp_path / "steps.py").write_text("y = 1\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    compiled = [cache / "machine.advance-1.py311.nbi", cache / "machine.advance-1.py311.1.nbc"]

    def compile_all() -> None:
        for f in compiled:
            f.write_text("compiled")

    compile_all()
    drop_stale_cache(tmp_path)  # first run: nothing says what the cache was built from
    assert not any(f.exists() for f in compiled)
    compile_all()
    drop_stale_cache(tmp_path)
    assert all(f.exists() for f in compiled), "unchanged sources keep their compiled code"
    (tmp_path / "steps.py").write_text("y = 2\n")  # another file than the cached function's
    drop_stale_cache(tmp_path)
    assert not any(f.exists() for f in compiled)
