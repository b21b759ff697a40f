"""Puzzles (issue 47): each qualifying rule, checked against the evaluators themselves on a real game's decisions;
the open record's round trip; building, exporting and solving from the command line."""

from __future__ import annotations

import gzip
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from spots.analysis.engine import EPSILON, move_values
from spots.cli import main
from spots.core import games
from spots.puzzles.build import _positions, game_seed, read_puzzles, shipped, write_puzzles
from spots.puzzles.cli import chosen, solve
from spots.puzzles.judge import MARGIN, SCREEN, judge, kit_of, starting_rating
from spots.puzzles.progress import Progress
from support.puzzles import check_disagreements, check_every_puzzle, check_unconfirmed, lead, of_reason

pytest.importorskip("numpy")  # the learned value names a puzzle's answer
pytest.importorskip("numba")  # the independent check plays out on the compiled simulator
SPOTS = games.get("spots")


@pytest.fixture(scope="module")
def judged() -> dict[str, Any]:
    """Every decision of one seeded 2-player game (to 3 dogs, every trick tile drawn from the seed), judged."""
    rules = SPOTS.make_rules(players=2, target=3, tricks="random", tricks_seed=11)
    screen, kit = SPOTS.coach(), kit_of(SPOTS)
    positions = _positions(SPOTS, rules, ["greedy"] * 2, 11)
    verdicts = [(state, judge(SPOTS, state, screen, kit)) for _, _, state in positions]
    return {"screen": screen, "kit": kit, "verdicts": verdicts}


def test_a_forced_move_is_not_a_puzzle(judged: dict[str, Any]) -> None:
    for state in of_reason(judged, "forced"):
        values = move_values(judged["screen"], state)
        spread = [v[state.current_player()] for v in values.values()]
        assert len(values) == 1 or max(spread) - min(spread) <= EPSILON  # one move, or all worth the same


def test_a_lead_below_the_margin_is_not_a_puzzle(judged: dict[str, Any]) -> None:
    deep_checked = 0
    for state in of_reason(judged, "close"):
        seat = state.current_player()
        _, screened = lead(move_values(judged["screen"], state), seat)
        if screened >= SCREEN:  # past the screen: the deeper search found the lead too small
            _, margin = lead(move_values(judged["kit"].deep, state), seat)
            assert margin < MARGIN
            deep_checked += 1
    assert deep_checked > 0  # a lead the coach's search saw and the deeper one did not confirm


def test_two_evaluators_that_disagree_make_no_puzzle(judged: dict[str, Any]) -> None:
    check_disagreements(judged)


def test_a_lead_the_play_outs_do_not_confirm_is_not_a_puzzle(judged: dict[str, Any]) -> None:
    check_unconfirmed(judged)


def test_every_puzzle_meets_every_rule_and_round_trips_as_a_line(judged: dict[str, Any]) -> None:
    check_every_puzzle(SPOTS, judged)
    assert starting_rating(0.04) > starting_rating(0.08) > starting_rating(0.16)  # a narrower lead is harder


def test_the_same_position_is_judged_the_same_by_fresh_evaluators(judged: dict[str, Any]) -> None:
    """No memory of the build's searches changes a verdict: fresh evaluators give the same puzzle, line for line."""
    state, verdict = next((s, v) for s, v in judged["verdicts"] if v.puzzle is not None)
    again = judge(SPOTS, state, SPOTS.coach(), kit_of(SPOTS))
    assert again.puzzle is not None and verdict.puzzle is not None
    assert again.puzzle.to_line() == verdict.puzzle.to_line()
    assert game_seed(0, 5) == game_seed(0, 5) != game_seed(1, 5)


def test_a_damaged_puzzle_file_is_refused_naming_its_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.jsonl, line 1: not a puzzle"):
        read_puzzles(path)
    assert main(["puzzle", "--file", str(path)]) == 2


def test_build_then_solve_in_the_terminal(judged: dict[str, Any], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set.jsonl.gz"
    made = main(["puzzles", "build", "--games", "1", "--players", "2", "--target", "3", "--seed", "4",
                 "--out", str(out)])
    assert made == 0
    said = capsys.readouterr().out
    built = read_puzzles(out)
    assert f"{len(built)} puzzles from 1 games" in said and "decisions turned down:" in said and built
    assert gzip.decompress(out.read_bytes()).decode().count("\n") == len(built)
    right, wrong = built[0], built[1 % len(built)]
    legal = SPOTS.load_state(wrong.state).legal_actions()
    miss = next(m for m in legal if m not in wrong.answers)
    screen = io.StringIO()
    typed = iter([right.best + "\n", "99\n", miss + "\n", "q\n"] if len(built) > 1 else [right.best + "\n", ""])
    solved, tried = solve(built, lambda: next(typed), screen)
    text = screen.getvalue()
    assert f"Right: {right.best} is the best move." in text
    if len(built) > 1:
        assert (solved, tried) == (1, 2)
        assert f"'99' is not one of the choices: type 1 to {len(legal)}" in text
        assert f"Not the best: {wrong.best} was, by" in text and "confirmed by play-outs" in text


def test_the_shipped_set_exports_whole_and_each_line_is_a_puzzle(tmp_path: Path) -> None:
    shipped_set = shipped("spots")
    assert len(shipped_set) >= 2000 and len({p.id for p in shipped_set}) == len(shipped_set)
    out = tmp_path / "all.jsonl"
    assert main(["puzzles", "export", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["id"] for line in lines] == [p.id for p in shipped_set]
    first = json.loads(lines[0])
    assert {"id", "game", "state", "best", "values", "margin", "themes", "rating"} <= set(first)
    assert main(["puzzles", "export", str(out), "--game", "double-spot"]) == 0  # each game its own set
    assert {json.loads(line)["game"] for line in out.read_text(encoding="utf-8").splitlines()} == {"double-spot"}
    assert write_puzzles(tmp_path / "again.jsonl", shipped_set[:3]) == 3


def test_drill_turns_the_coachs_mistakes_into_puzzles_spaced_by_fsrs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from spots.puzzles.drill import deck_of

    record, progress = tmp_path / "g.json", tmp_path / "progress.json"
    assert main(["selfplay", "--seed", "3", "--bots", "random,greedy", "--target", "2", "--out", str(record),
                 "--quiet"]) == 0
    capsys.readouterr()
    deck = deck_of([str(record)], "1")
    assert deck.mistakes >= len(deck.puzzles) >= 1
    for puzzle in deck.puzzles:  # the position before the mistake: what was played is not an answer
        assert puzzle.source["player"] == "random" and puzzle.source["played"] not in puzzle.answers
        assert puzzle.source["played"] in dict(puzzle.values)
    answers = [deck.puzzles[0].best] + [p.source["played"] for p in deck.puzzles[1:]]  # the first right, then misses
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(a + "\n" for a in answers)))
    assert main(["drill", str(record), "--seat", "1", "--progress", str(progress)]) == 0
    out = capsys.readouterr().out
    n = len(deck.puzzles)
    assert f"Mistakes found by the coach: {deck.mistakes}; clear enough to drill: {n}; new in your review list: {n}." \
        in out and f"{n} {'position' if n == 1 else 'positions'} to review." in out
    assert f"Right: {deck.puzzles[0].best} is the best move." in out and "In the game, random played" in out
    kept = Progress.load(progress)
    solved_due = datetime.fromisoformat(kept.deck[deck.puzzles[0].id]["card"]["due"])
    for missed in deck.puzzles[1:]:  # a miss comes back sooner than a solve
        assert datetime.fromisoformat(kept.deck[missed.id]["card"]["due"]) < solved_due
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["drill", str(record), "--seat", "1", "--progress", str(progress)]) == 0  # the same again: not new
    out = capsys.readouterr().out
    assert "new in your review list: 0." in out
    later = datetime.now(UTC) + timedelta(days=400)
    assert {p.id for p in kept.due(later)} == {p.id for p in deck.puzzles}  # all due again in time, none lost


def test_a_solve_raises_the_solvers_rating_and_lowers_the_puzzles(tmp_path: Path) -> None:
    puzzle = shipped("spots")[0]
    progress = Progress()
    up = progress.record(puzzle, True)
    assert up > 0 and progress.rating_of(puzzle).rating < puzzle.rating and progress.tries[puzzle.id] == [1, 1]
    down = progress.record(puzzle, False)
    assert down < 0 and progress.tries[puzzle.id] == [1, 2]
    path = tmp_path / "p.json"
    progress.save(path)
    assert Progress.load(path) == progress
    path.write_text("{broken", encoding="utf-8")
    with pytest.raises(ValueError, match=r"cannot be read .* move it away to start afresh"):
        Progress.load(path)
    assert path.read_text(encoding="utf-8") == "{broken"  # never overwritten
    assert Progress.load(tmp_path / "none.json") == Progress()  # no file yet: a new solver


def test_spots_puzzle_keeps_the_rating_between_sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "progress.json"
    first = chosen(shipped("spots"), None, 1500, 0)[0]  # what a new solver meets first
    monkeypatch.setattr("sys.stdin", io.StringIO(first.best + "\nq\n"))
    assert main(["puzzle", "--progress", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Your puzzle rating: 1500. Your progress is kept in" in out and f"Puzzle {first.id}" in out
    rating = round(Progress.load(path).solver.rating)
    assert rating > 1500 and f"Your puzzle rating: {rating} (+{rating - 1500})." in out
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["puzzle", "--progress", str(path), "--lang", "es"]) == 0
    out = capsys.readouterr().out
    assert f"Tu puntuación en problemas: {rating}. Tu progreso se guarda en" in out  # in the solver's language
    assert f"Problema {first.id}" not in out and "Tu jugada (su número o su texto; q para parar)" in out  # a new one


def test_a_position_beyond_the_deep_searchs_budget_is_not_judged(judged: dict[str, Any],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A build takes a bounded time: where the deep search would ask about more positions than its budget, the
    decision is turned down as too big rather than searched for minutes."""
    import spots.games.spots.puzzles as spots_puzzles

    state = next(s for s, v in judged["verdicts"] if v.puzzle is not None)
    monkeypatch.setattr(spots_puzzles, "DEEP_LIMIT", 10)
    assert judge(SPOTS, state, judged["screen"], kit_of(SPOTS)).reason == "too-big"
