"""Double Spot's puzzles: each qualifying rule checked against the kit's own evaluators on real games' decisions,
the play-out check repeatable, the themes in a player's words, a build and a solve from the command line."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from spots.analysis.engine import EPSILON, move_values
from spots.cli import main
from spots.core import games
from spots.games.double_spot.bots import GreedyBot
from spots.games.double_spot.puzzles import CHECK_PLAYOUTS, DEEP_NODES, greedy
from spots.puzzles.build import _positions, read_puzzles, shipped
from spots.puzzles.cli import chosen
from spots.puzzles.judge import MARGIN, REASONS, SCREEN, judge, kit_of
from support.puzzles import check_disagreements, check_every_puzzle, check_unconfirmed, lead, of_reason

DOUBLE = games.get("double-spot")
QUICK = {"columns": 4, "rows": 4, "target": 2, "claim": "first"}  # the lobby's quick game: short games, quick tests
SEEDS = (4, 7)  # two games that between them meet every reason a decision is turned down for, and puzzles


@pytest.fixture(scope="module")
def judged() -> dict[str, Any]:
    """Every decision of two seeded quick games between greedy bots, judged."""
    rules = DOUBLE.make_rules(**QUICK)
    screen, kit = DOUBLE.coach(), kit_of(DOUBLE)
    verdicts = [(state, judge(DOUBLE, state, screen, kit))
                for seed in SEEDS for _, _, state in _positions(DOUBLE, rules, ["greedy"] * 2, seed)]
    return {"screen": screen, "kit": kit, "verdicts": verdicts}


def test_every_decision_is_judged_and_says_why_it_is_turned_down(judged: dict[str, Any]) -> None:
    verdicts = [verdict for _, verdict in judged["verdicts"]]
    assert len(verdicts) >= 20  # every drop of both games
    for verdict in verdicts:
        assert (verdict.puzzle is None) == (verdict.reason in REASONS) and verdict.reason != "unchecked"
    assert judged["kit"].deep.nodes == DEEP_NODES >= 5 * judged["screen"].nodes  # several times the coach's budget


def test_a_forced_drop_is_not_a_puzzle(judged: dict[str, Any]) -> None:
    for state in of_reason(judged, "forced"):
        values = move_values(judged["screen"], state)
        spread = [v[state.current_player()] for v in values.values()]
        assert len(values) == 1 or max(spread) - min(spread) <= EPSILON


def test_a_lead_below_the_margin_is_not_a_puzzle(judged: dict[str, Any]) -> None:
    deep_checked = 0
    for state in of_reason(judged, "close"):
        seat = state.current_player()
        _, screened = lead(move_values(judged["screen"], state), seat)
        if screened >= SCREEN:  # past the coach's screen: the deeper search found the lead too small
            assert lead(move_values(judged["kit"].deep, state), seat)[1] < MARGIN
            deep_checked += 1
    assert deep_checked > 0


def test_two_evaluators_that_disagree_make_no_puzzle(judged: dict[str, Any]) -> None:
    check_disagreements(judged)


def test_a_lead_the_play_outs_do_not_confirm_is_not_a_puzzle(judged: dict[str, Any]) -> None:
    check_unconfirmed(judged)


def test_every_puzzle_meets_every_rule_and_round_trips_as_a_line(judged: dict[str, Any]) -> None:
    check_every_puzzle(DOUBLE, judged)


def test_the_check_is_the_same_every_time_and_plays_on_the_same_dice(judged: dict[str, Any]) -> None:
    """The same position gives the same play-outs (seeded from the position), a fresh kit the same puzzle."""
    state, verdict = next((s, v) for s, v in judged["verdicts"] if v.puzzle is not None)
    puzzle = verdict.puzzle
    assert puzzle is not None
    runner_up = next(m for m, _ in puzzle.values if m not in puzzle.answers)
    first = kit_of(DOUBLE).deep.check(state.clone(), runner_up, puzzle.best)  # a fresh kit: nothing remembered
    assert first.lost == pytest.approx(puzzle.checked)
    assert first.error == pytest.approx(puzzle.checked_error) and 0 < first.error < 0.05  # 1,000 play-outs each
    assert CHECK_PLAYOUTS == 1_000
    same = judged["kit"].deep.check(state, puzzle.best, puzzle.best)  # common dice: a move against itself loses 0
    assert same.lost == 0.0 and same.error == 0.0 and same.after_played == same.after_best
    fresh = judge(DOUBLE, state, DOUBLE.coach(), kit_of(DOUBLE))
    assert fresh.puzzle is not None and fresh.puzzle.to_line() == puzzle.to_line()


def test_the_play_outs_are_the_greedy_bots_drops(judged: dict[str, Any]) -> None:
    """The check's fast drop is the greedy bot's, the same tie-breaks included, so "play-outs by the greedy bot"
    is what the check does."""
    tables: dict[tuple[str, ...], Any] = {}
    for n, (state, _) in enumerate(judged["verdicts"]):
        assert greedy(state, random.Random(n), tables) == GreedyBot(n).choose(state)


def test_a_double_spot_build_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ds.jsonl.gz"
    assert main(["puzzles", "build", "--game", "double-spot", "--games", "1", "--seed", "5", "--columns", "4",
                 "--rows", "4", "--target", "2", "--claim", "first", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    built = read_puzzles(out)
    assert built and f"{len(built)} puzzles from 1 games" in said and "decisions turned down:" in said
    assert all(p.game == "double-spot" and p.source["bots"] == ["greedy", "greedy"] for p in built)


def test_the_shipped_set_is_solved_in_the_terminal_with_its_themes_in_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    puzzles = shipped("double-spot")
    assert len(puzzles) >= 100 and len({p.id for p in puzzles}) == len(puzzles)
    kit = kit_of(DOUBLE)
    for puzzle in puzzles:
        state = DOUBLE.load_state(puzzle.state)
        assert puzzle.game == "double-spot" and set(puzzle.answers) <= set(state.legal_actions())
        assert puzzle.margin >= MARGIN and puzzle.themes and set(puzzle.themes) <= set(kit.theme_names)
    first = chosen(puzzles, None, 1500, 0)[0]  # what a new solver meets first
    monkeypatch.setattr("sys.stdin", io.StringIO(first.best + "\nq\n"))
    assert main(["puzzle", "--game", "double-spot", "--progress", str(tmp_path / "p.json")]) == 0
    said = capsys.readouterr().out
    words = ", ".join(kit.theme_words[t] for t in first.themes)
    assert f"Puzzle {first.id}" in said and f"Themes: {words}." in said
    assert f"Right: {first.best} is the best move." in said and "confirmed by play-outs" in said
    out = tmp_path / "all.jsonl"
    assert main(["puzzles", "export", str(out), "--game", "double-spot"]) == 0
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == [p.id for p in puzzles]


def test_an_unknown_theme_is_refused_naming_the_themes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzle", "--game", "double-spot", "--theme", "which-trick"]) == 2  # a Spots theme
    err = capsys.readouterr().err
    assert "take-a-card" in err and "which-column" in err
