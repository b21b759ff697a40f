"""Balance studies end to end on one local Ray session shared by the tests (Ray's start-up is slow)."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("pyarrow")
pytest.importorskip("matplotlib")

from spots.cli import main  # noqa: E402
from spots.study import load_study  # noqa: E402
from spots.study.execute import run_study, start_ray  # noqa: E402
from spots.study.play import play_chunk  # noqa: E402
from spots.study.report import write_report  # noqa: E402
from spots.study.stats import bradley_terry, proportion  # noqa: E402
from spots.study.store import ChunkStore  # noqa: E402

SRC = str(Path(__file__).resolve().parents[1] / "src")

SMALL = """
name = "small"
kind = "seats"
games = 12
seed = 5
chunk = 3
[base]
bots = ["greedy"]
target = 2
[grid]
players = [2, 3]
"""

LONGER = """
name = "longer"
kind = "seats"
games = 30
seed = 7
chunk = 2
[base]
bots = ["greedy"]
players = 2
target = 2
"""


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """One local Ray with 2 CPUs for every test here; yields its address for subprocesses to join."""
    if SRC not in sys.path:
        sys.path.insert(0, SRC)
    session, started = start_ray(None, 2)
    yield session.get_runtime_context().gcs_address
    if started:
        session.shutdown()


def write(tmp_path: Path, text: str, name: str = "study.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_same_rows_with_one_or_two_workers_and_a_report(cluster: str, tmp_path: Path) -> None:
    study = load_study(str(write(tmp_path, SMALL)))
    two = run_study(study, tmp_path / "two", workers=2, progress=False).load()
    one = run_study(study, tmp_path / "one", workers=1, progress=False).load()
    assert len(two) == 24 and two == one
    for engine in ("reference", "fast"):  # each engine on its own, whatever "auto" picked above
        if engine == "fast" and importlib.util.find_spec("numba") is None:
            continue
        pair = [run_study(study, tmp_path / f"{engine}{w}", workers=w, engine=engine, progress=False).load()
                for w in (2, 1)]
        assert pair[0] == pair[1] and {r["engine"] for r in pair[0]} == {engine}
    assert {(r["config"], r["game"]) for r in two} == {(c, g) for c in (0, 1) for g in range(12)}
    assert len({r["seed"] for r in two}) == 24  # every game its own dice
    assert all(r["winner"] >= 0 and r["scores"][r["winner"]] >= 2 > sorted(r["scores"])[-2] for r in two)
    # The CLI on the same folder plays nothing more and writes the report.
    assert main(["study", str(tmp_path / "study.toml"), "--out", str(tmp_path / "two"), "--no-progress",
                 "--workers", "2"]) == 0
    report = (tmp_path / "two" / "small" / "small.md").read_text(encoding="utf-8")
    assert "| 3 | 12 |" in report and "first player" in report
    for suffix in ("png", "svg"):
        assert (tmp_path / "two" / "small" / f"small-seats.{suffix}").stat().st_size > 1000


def test_a_killed_study_resumes_without_losing_or_repeating_a_game(cluster: str, tmp_path: Path) -> None:
    # The reference engine: the fast simulator could finish all 15 chunks before the kill lands.
    path = write(tmp_path, LONGER)
    out = tmp_path / "out"
    rows = out / "longer" / "rows"
    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.Popen([sys.executable, "-m", "spots.cli", "study", str(path), "--out", str(out), "--address",
                             cluster, "--workers", "1", "--no-report", "--no-progress", "--engine", "reference"],
                            env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while len(list(rows.glob("*.parquet"))) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = {p.name: p.stat().st_mtime_ns for p in rows.glob("*.parquet")}
    assert 3 <= len(before) < 15, proc.stderr.read() if proc.stderr else ""
    study = load_study(str(path))
    resumed = run_study(study, out, workers=2, engine="reference", progress=False)
    after = {p.name: p.stat().st_mtime_ns for p in rows.glob("*.parquet")}
    assert len(after) == 15 and all(after[name] == mtime for name, mtime in before.items())
    games = [r["game"] for r in resumed.load()]
    assert sorted(games) == list(range(30))
    straight = [r for start in range(0, 30, 2)
                for r in play_chunk(study.configs[0], 0, 7, start, start + 2, "reference")]
    assert resumed.load() == straight


def test_ctrl_c_stops_a_study_and_keeps_the_games_played(cluster: str, tmp_path: Path) -> None:
    """Ctrl-C on a terminal signals the command and the Ray it started (one process group): the
    command stops within seconds, says so, keeps the chunks written, and a rerun finishes the study."""
    path = write(tmp_path, LONGER.replace("games = 30", "games = 400"))
    out = tmp_path / "out"
    rows = out / "longer" / "rows"
    proc = subprocess.Popen([sys.executable, "-m", "spots.cli", "study", str(path), "--out", str(out), "--workers",
                             "1", "--no-report", "--no-progress"], env={**os.environ, "PYTHONPATH": SRC},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while len(list(rows.glob("*.parquet"))) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError(f"the study did not stop within 60 s of Ctrl-C: {proc.communicate()[1]}") from None
    assert proc.returncode == 130, err
    assert f"stopped; the games played so far are kept in {out}" in err
    kept = {p.name: p.stat().st_mtime_ns for p in rows.glob("*.parquet")}
    assert 2 <= len(kept) < 200
    study = replace(load_study(str(path)), games=len(kept) * 2 + 4)  # the kept chunks and two more
    resumed = run_study(study, out, workers=2, progress=False).load()
    assert all(p.stat().st_mtime_ns == kept[p.name] for p in rows.glob("*.parquet") if p.name in kept)
    straight = [r for start in range(0, study.games, 2) for r in play_chunk(study.configs[0], 0, 7, start, start + 2)]
    assert resumed == straight


def test_unknown_study_bad_grid_and_unreachable_cluster_are_clear_errors(
        cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "no-such-study"]) == 2
    assert "unknown study 'no-such-study'" in capsys.readouterr().err
    bad = write(tmp_path, SMALL.replace("players = [2, 3]", "players = [2, 9]"), "bad.toml")
    assert main(["study", str(bad), "--out", str(tmp_path / "bad")]) == 2
    err = capsys.readouterr().err
    assert "configuration 2" in err and "players must be from 1 to 4, not 9" in err
    empty = write(tmp_path, SMALL.replace("players = [2, 3]", "players = []"), "empty.toml")
    assert main(["study", str(empty), "--out", str(tmp_path / "bad")]) == 2
    assert "grid.players must be a non-empty list" in capsys.readouterr().err
    typo = write(tmp_path, SMALL.replace("[grid]", "[gird]"), "typo.toml")
    assert main(["study", str(typo), "--out", str(tmp_path / "bad")]) == 2
    assert "unknown key(s) gird" in capsys.readouterr().err
    bot = write(tmp_path, SMALL.replace('["greedy"]', '["grandmaster"]'), "bot.toml")
    assert main(["study", str(bot), "--out", str(tmp_path / "bad")]) == 2
    assert "unknown bot 'grandmaster'" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()  # nothing was written
    good = write(tmp_path, SMALL, "good.toml")
    assert main(["study", str(good), "--address", "127.0.0.1:1", "--out", str(tmp_path / "far")]) == 2
    assert "cannot reach a Ray cluster at 127.0.0.1:1" in capsys.readouterr().err


def test_list_describes_every_builtin_study(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "--list"]) == 0
    out = capsys.readouterr().out
    for name in ("seat-advantage", "tile-strength", "suggested-sets", "variants", "bot-ladder", "double-spot"):
        assert name in out


def test_results_from_another_version_of_a_study_are_not_mixed(tmp_path: Path) -> None:
    study = load_study(str(write(tmp_path, SMALL)))
    ChunkStore(tmp_path, study)
    changed = load_study(str(write(tmp_path, SMALL.replace("seed = 5", "seed = 6"))))
    with pytest.raises(ValueError, match="different version of study 'small'"):
        ChunkStore(tmp_path, changed)


def test_tile_and_double_spot_reports_from_real_games(tmp_path: Path) -> None:
    tiles = load_study(str(write(tmp_path, """
name = "tiles"
kind = "tiles"
games = 40
[base]
players = 2
tricks = "random:6"
target = 1
""")))
    rows = play_chunk(tiles.configs[0], 0, tiles.seed, 0, 40)
    assert all(len(r["uses"][0]) == 6 for r in rows)
    text = write_report(tiles, rows, tmp_path).read_text(encoding="utf-8")
    assert "| fetch |" in text and (tmp_path / "tiles-forest.svg").exists()
    ds = load_study(str(write(tmp_path, """
name = "ds"
kind = "double-spot"
games = 30
[base]
game = "double-spot"
columns = 4
rows = 3
""")))
    rows = play_chunk(ds.configs[0], 0, ds.seed, 0, 30)
    assert all(r["full"] == (r["end_reason"] == "full-board") for r in rows)
    text = write_report(ds, rows, tmp_path).read_text(encoding="utf-8")
    assert "4x3, claim mover | 30 |" in text


def test_bradley_terry_recovers_a_known_gap() -> None:
    results = [(0, 1, 1.0)] * 750 + [(0, 1, 0.0)] * 250 + [(1, 2, 1.0)] * 500 + [(1, 2, 0.0)] * 500
    a, b, c = bradley_terry(results, 3, prior=0)
    assert a - b == pytest.approx(400 * 0.4771, abs=2)  # 3:1 odds is 191 Elo points
    assert b == pytest.approx(c, abs=1)
    assert proportion(0, 10).low == 0 and 0 < proportion(0, 10).high < 0.35


def test_the_fast_runner_seam_is_used_only_where_it_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    import types

    from spots.study.play import reference_chunk, runner_for
    from spots.study.spec import make_config

    greedy = make_config({"bots": ["greedy", "random"]}, "test")
    strong = make_config({"bots": ["expectimax"]}, "test")
    if importlib.util.find_spec("spots.fast") is None:  # before the compiled simulator is installed
        assert runner_for(greedy) is reference_chunk
        with pytest.raises(ValueError, match=r"engine fast needs spots\.fast"):
            runner_for(greedy, "fast")
    seen: list[tuple[dict[str, object], list[tuple[int, int]]]] = []
    fake = types.ModuleType("spots.fast")

    def study_rows(config: dict[str, object], games: list[tuple[int, int]]) -> list[dict[str, int]]:
        seen.append((config, games))
        return [{"game": g} for g, _ in games]

    fake.study_rows = study_rows  # type: ignore[attr-defined]
    fake.supports = importlib.import_module("spots.fast").supports  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "spots.fast", fake)
    assert runner_for(greedy)(greedy, 3, [(0, 11), (1, 12)]) == [
        {"config": 3, "engine": "fast", "game": 0}, {"config": 3, "engine": "fast", "game": 1}]
    assert seen[0][0]["bots"] == ["greedy", "random"]
    assert runner_for(strong) is reference_chunk
    assert runner_for(greedy, "reference") is reference_chunk


def test_double_spot_results_played_under_another_default_are_not_mixed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same study file, once under the engine whose default lifted a full frame three times: its rows
    are refused, although the options the file names are the same."""
    from spots.games.double_spot import Rules as DsRules
    from spots.study import play

    text = SMALL.replace('kind = "seats"', 'kind = "double-spot"').replace("[base]", '[base]\ngame = "double-spot"')
    text = text[:text.index("[grid]")] + '[grid]\nclaim = ["mover", "first"]\n'
    ChunkStore(tmp_path, load_study(str(write(tmp_path, text))))
    assert load_study(str(write(tmp_path, text))).fingerprint() == load_study(str(write(tmp_path, text))).fingerprint()
    monkeypatch.setattr(play, "make_rules", lambda config, seed: DsRules(**{"lifts": 3, **config.options}))
    with pytest.raises(ValueError, match="different version of study 'small'"):
        ChunkStore(tmp_path, load_study(str(write(tmp_path, text))))
