"""Drill your own mistakes: the coach's mistakes in your games' records, each position judged as a puzzle.

A mistake the coach names is a decision where the move played lost at least its threshold, confirmed by play-outs
(``docs/analysis.md``). It becomes a drill only where the position also qualifies as a puzzle (``judge``): a clear
best move, agreed and confirmed, so what you drill is what you should have played, not a coin flip.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..analysis import analyse
from ..analysis.engine import evaluator_of
from ..analysis.evaluator import Evaluator
from ..core import games
from ..core.games import sniff
from .judge import Puzzle, PuzzleKit, Verdict, judge, kit_of

__all__ = ["Deck", "deck_of", "drill_of"]


@dataclass
class Deck:
    """The drills from some records, and the mistakes that did not qualify as puzzles (by reason)."""

    puzzles: list[Puzzle] = field(default_factory=list)
    mistakes: int = 0
    turned_down: dict[str, int] = field(default_factory=dict)


_KEPT = threading.local()  # the evaluators keep memos as they search: each thread has its own


def _tools(game: str) -> tuple[Evaluator, PuzzleKit]:
    """The game's screen and kit, made once per thread (the learned model is read once in a worker)."""
    kept: dict[str, tuple[Evaluator, PuzzleKit]] = _KEPT.__dict__.setdefault("tools", {})
    if game not in kept:
        spec = games.get(game)
        kept[game] = evaluator_of(spec), kit_of(spec)
    return kept[game]


def drill_of(game: str, rules: Any, moves: Sequence[str], step: int, source: dict[str, Any]) -> Verdict:
    """The mistake at ``step`` of a game (its ``moves`` from the start) judged as a puzzle."""
    spec = games.get(game)
    state = spec.new_state(rules)
    for move in moves[:step]:
        state.apply_action(move)
    screen, kit = _tools(game)
    return judge(spec, state, screen, kit, source)


def deck_of(paths: Sequence[str], seat: str | None = None) -> Deck:
    """The drills of every person's mistakes in the records at ``paths``; where ``seat`` is given, only that seat's
    (its name, or its number from 1), whoever played it."""
    deck = Deck()
    for path in paths:
        spec, doc = sniff(path, "spots")
        record = spec.records.parse(doc, path)
        report = analyse(record, every_seat=seat is not None)  # a seat asked for by name is coached, bot or not
        for player in report.players:
            if seat is not None and seat not in (player.name, str(player.seat + 1)):
                continue
            for mistake in player.mistakes:
                deck.mistakes += 1
                source = {"record": Path(path).name, "step": mistake.step, "played": mistake.played,
                          "player": player.name}
                verdict = drill_of(spec.name, record.rules, record.moves, mistake.step, source)
                if verdict.puzzle is None:
                    deck.turned_down[verdict.reason] = deck.turned_down.get(verdict.reason, 0) + 1
                else:
                    deck.puzzles.append(verdict.puzzle)
    return deck
