"""The replay viewer's positions without replaying a whole game per request.

Why: ``/api/tables/<id>/replay?at=N`` used to replay N moves every time, so a
client stepping through (or hammering) a long game cost O(N) each request.
Here each table keeps a checkpoint every ``EVERY`` moves, built once, so any
position costs at most ``EVERY`` moves from the nearest checkpoint; finished
answers are kept in a small cache as JSON-ready data.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ..games import GameKind

EVERY = 16  # moves between checkpoints
TABLES = 16  # tables whose checkpoints are kept
ANSWERS = 512  # replay answers kept


class Replays:
    """Checkpoints per table (keyed by table id and its move count) and a cache of answers."""

    def __init__(self) -> None:
        self.checkpoints: OrderedDict[tuple[str, int], list[Any]] = OrderedDict()
        self.answers: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()

    def state_at(self, table_id: str, kind: GameKind, rules: Any, moves: list[str], count: int) -> Any:
        """The position after ``count`` moves (a copy; checkpoints are made on first use)."""
        key = (table_id, len(moves))
        points = self.checkpoints.get(key)
        if points is None:
            points = self._build(kind, rules, moves)
            self.checkpoints[key] = points
            while len(self.checkpoints) > TABLES:
                self.checkpoints.popitem(last=False)
        self.checkpoints.move_to_end(key)
        state = points[count // EVERY].clone()
        for move in moves[count - count % EVERY:count]:
            state.apply_action(move)
        return state

    @staticmethod
    def _build(kind: GameKind, rules: Any, moves: list[str]) -> list[Any]:
        state = kind.spec.new_state(rules)
        points = [state.clone()]
        for i, move in enumerate(moves, start=1):
            state.apply_action(move)
            if i % EVERY == 0:
                points.append(state.clone())
        return points

    def answer(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        found = self.answers.get(key)
        if found is not None:
            self.answers.move_to_end(key)
        return found

    def keep(self, key: tuple[Any, ...], data: dict[str, Any]) -> None:
        self.answers[key] = data
        while len(self.answers) > ANSWERS:
            self.answers.popitem(last=False)
