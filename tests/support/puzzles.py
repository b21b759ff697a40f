"""What every game's puzzle tests share: a lead by the tests' own reckoning, the decisions turned down for a reason,
and the rules every puzzle of a judged game must meet (``tests/test_puzzles.py``, ``test_puzzles_double_spot.py``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from spots.analysis.engine import EPSILON, move_values
from spots.puzzles.judge import AGREEMENT, CONFIRMED, MARGIN, Puzzle, starting_rating


def lead(values: dict[str, tuple[float, ...]], seat: int, answers: Any = None) -> tuple[set[str], float]:
    """The moves of the top value and their lead over the best of the rest (by this test's own reckoning)."""
    top = max(v[seat] for v in values.values())
    best = set(answers) if answers is not None else {m for m, v in values.items() if top - v[seat] <= EPSILON}
    rest = [v[seat] for m, v in values.items() if m not in best]
    return best, (min(values[m][seat] for m in best) - max(rest)) if rest else 0.0


def of_reason(judged: dict[str, Any], reason: str) -> list[Any]:
    """The positions a judged game turned down for ``reason`` (at least one: the test's games are chosen so)."""
    found = [state for state, verdict in judged["verdicts"] if verdict.reason == reason]
    assert found, f"the games have no decision turned down as {reason!r}: {[v.reason for _, v in judged['verdicts']]}"
    return found


def check_unconfirmed(judged: dict[str, Any]) -> None:
    """Each position turned down as unconfirmed: the kit's own check finds the lead too small or too uncertain."""
    kit = judged["kit"]
    for state in of_reason(judged, "unconfirmed"):
        seat = state.current_player()
        values = move_values(kit.deep, state)
        answers, _ = lead(values, seat)
        runner_up = max((m for m in values if m not in answers), key=lambda m: values[m][seat])
        checked = kit.deep.check(state, runner_up, sorted(answers, key=list(values).index)[0])
        assert checked.lost < CONFIRMED or checked.lost <= 2 * checked.error


def check_every_puzzle(spec: Any, judged: dict[str, Any]) -> None:
    """Every puzzle found meets every rule by the kit's own evaluators, and round-trips as a line."""
    kit = judged["kit"]
    puzzles = [verdict.puzzle for _, verdict in judged["verdicts"] if verdict.puzzle is not None]
    assert len(puzzles) >= 3
    for puzzle in puzzles:
        state = spec.load_state(puzzle.state)  # the game's own state document, as `spots hint` reads it
        assert not state.is_chance_node() and state.current_player() == puzzle.seat
        assert sorted(m for m, _ in puzzle.values) == sorted(state.legal_actions())
        answers, margin = lead(move_values(kit.deep, state), puzzle.seat)
        assert answers == set(puzzle.answers) and margin == pytest.approx(puzzle.margin) and margin >= MARGIN
        assert len(answers) <= kit.right_share * len(puzzle.values)
        assert lead(move_values(kit.other, state), puzzle.seat, answers)[1] >= AGREEMENT
        assert puzzle.checked >= CONFIRMED and puzzle.checked > 2 * puzzle.checked_error
        assert puzzle.themes and set(puzzle.themes) <= set(kit.theme_names)
        assert 600 <= puzzle.rating <= starting_rating(puzzle.margin)
        line = json.loads(puzzle.to_line())
        assert line["id"] == puzzle.id and line["best"] in line["answers"] and line["game"] == spec.name
        assert Puzzle.from_line(puzzle.to_line()).to_line() == puzzle.to_line()


def answer(c: Any, puzzle_id: str, move: str, **more: Any) -> dict[str, Any]:
    """A Spots puzzle answered on the web (a test client's request), checked accepted."""
    r = c.post(f"/api/puzzles/spots/{puzzle_id}/answer", json={"move": move, **more})
    assert r.status_code == 200, r.text
    return dict(r.json())


def wrong_move(puzzle: Puzzle) -> str:
    """A move of the puzzle that is not one of its answers."""
    return next(m for m, _ in puzzle.values if m not in puzzle.answers)


def check_disagreements(judged: dict[str, Any]) -> None:
    """Each position turned down as a disagreement: the deep search alone would have made it a puzzle, but the other
    evaluator does not rank its answer first by a clear lead."""
    kit = judged["kit"]
    for state in of_reason(judged, "disagree"):
        seat = state.current_player()
        answers, margin = lead(move_values(kit.deep, state), seat)
        assert margin >= MARGIN
        assert lead(move_values(kit.other, state), seat, answers)[1] < AGREEMENT
