"""Which positions are puzzles: the best choice is clearly best, by three estimates that do not share their errors.

A decision is a puzzle only when all of these hold (``judge``; the numbers are ``docs/puzzles.md``'s):

1. **Not forced**: at least two legal moves, and not all of them worth the same.
2. **A clear margin by a deeper search**: the game's deep evaluator (several times the coach's budget) puts the
   best move (or moves of exactly equal value: each is a right answer) at least ``MARGIN`` of win chance above
   the next best. The coach's own evaluator screens first (half the margin), because it is cheap. A game's kit may
   also refuse a position where most moves are right answers (``PuzzleKit.right_share``: Double Spot's).
3. **The other evaluator agrees**: an evaluator with another value at its leaves ranks the same answer first, at
   least half the margin above that next best move.
4. **An independent check confirms it**: the evaluator's ``check`` (Spots: play-outs to the end of the game on the
   same dice) finds the next best move loses at least half the margin and more than twice its standard error.

A position that fails says why (``Verdict.reason``), so a build can count what it turned down.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..analysis.engine import EPSILON, move_values
from ..analysis.evaluator import Evaluator
from ..core.games import AnySpec

__all__ = ["MARGIN", "REASONS", "Puzzle", "PuzzleKit", "TooBig", "Verdict", "judge", "kit_of", "starting_rating"]

MARGIN = 0.04  # win chance by which the best move must lead the next best, by the deeper search
AGREEMENT = MARGIN / 2  # the lead the other evaluator must also give it
CONFIRMED = MARGIN / 2  # the loss the independent check must find (and more than twice its standard error)
SCREEN = MARGIN / 2  # the coach's own lead below which a position is not looked at further
REASONS = {
    "forced": "one legal move, or every move worth the same",
    "close": f"the best move leads the next by less than {MARGIN:.0%} of win chance",
    "disagree": "the other evaluator does not rank the same move first by a clear lead",
    "unconfirmed": "the independent check does not confirm the lead",
    "unchecked": "the independent check cannot run here",
    "same-choice": "a later part of a choice already taken as a puzzle (another die of the same roll)",
    "too-big": "the deep search would value more positions than its budget allows (a long chain of choices)",
    "guessable": "more of the legal moves are right answers than the game's kit allows: a guess would do",
}
PLAIN_FOUND = 250  # rating points less where a plain player's move (the kit's ``plain``) is a right answer


class TooBig(Exception):
    """Raised by a kit's evaluator when a position is beyond its budget: the position is not judged (``too-big``),
    so a build takes a bounded time whatever the games hold."""


@dataclass(frozen=True)
class PuzzleKit:
    """What a game gives its puzzles (``GameSpec.puzzles``): two deep evaluators with different values at their
    leaves (``deep`` names the answer and its margin, ``other`` must agree), and the themes of a position."""

    deep: Evaluator
    other: Evaluator
    themes: Callable[[Any, str, str], tuple[str, ...]]  # (state, best, next best) -> theme names
    theme_words: Mapping[str, str] = field(default_factory=dict)  # each theme's words (a message id), in order
    plain: Callable[[Any], str] | None = None  # the move a plain player makes (an easier puzzle where it is right)
    right_share: float = 1.0  # the most of the legal moves that may be right answers (more: a guess would do)

    @property
    def theme_names(self) -> tuple[str, ...]:
        return tuple(self.theme_words)


@dataclass(frozen=True)
class Puzzle:
    """A position, its right answers and what every move is worth (the open record, ``to_line``)."""

    game: str
    state: dict[str, Any]  # the game's own state document (what ``spots hint`` reads)
    seat: int  # the seat to move
    answers: tuple[str, ...]  # the best move, and any move of exactly the same value
    values: tuple[tuple[str, float], ...]  # every legal move and the mover's win chance after it, best first
    margin: float  # the answer's lead over the next best move, by the deep evaluator
    agreement: float  # ... by the other evaluator
    checked: float  # ... by the independent check
    checked_error: float  # its standard error
    themes: tuple[str, ...]
    rating: int
    source: dict[str, Any] = field(default_factory=dict)  # where it came from: bots, seed, step

    @property
    def best(self) -> str:
        return self.answers[0]

    @cached_property
    def id(self) -> str:
        """A short name that is the same wherever the position and game are the same (worked out once: it is a
        digest of the whole position)."""
        text = json.dumps([self.game, self.state], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def to_line(self) -> str:
        """One JSON object: ``id``, ``game``, ``state``, ``best``, ``values`` (each move's text and the mover's
        estimated win chance), ``margin``, ``themes``, ``rating``, and how it was checked."""
        return json.dumps({
            "id": self.id, "game": self.game, "state": self.state, "seat": self.seat, "best": self.best,
            "answers": list(self.answers), "values": [{"move": m, "win": round(v, 4)} for m, v in self.values],
            "margin": round(self.margin, 4), "agreement": round(self.agreement, 4),
            "checked": {"lost": round(self.checked, 4), "error": round(self.checked_error, 4)},
            "themes": list(self.themes), "rating": self.rating, "source": self.source,
        }, sort_keys=False, ensure_ascii=False)

    @classmethod
    def from_line(cls, line: str) -> Puzzle:
        doc = json.loads(line)
        return cls(str(doc["game"]), dict(doc["state"]), int(doc["seat"]), tuple(doc["answers"]),
                   tuple((str(v["move"]), float(v["win"])) for v in doc["values"]), float(doc["margin"]),
                   float(doc["agreement"]), float(doc["checked"]["lost"]), float(doc["checked"]["error"]),
                   tuple(doc["themes"]), int(doc["rating"]), dict(doc.get("source", {})))


@dataclass(frozen=True)
class Verdict:
    """A position judged: the puzzle, or None and the reason (a key of ``REASONS``)."""

    puzzle: Puzzle | None
    reason: str = ""


def starting_rating(margin: float) -> int:
    """A puzzle's first rating, from its margin: the narrower the lead, the harder to see. 1500 at a lead of 8
    points of win chance, 350 more for each halving (1850 at 4 points), 350 less for each doubling; 600 to 2600
    (and ``PLAIN_FOUND`` less where a plain player's move is right)."""
    return round(min(2600.0, max(600.0, 1500 + 350 * math.log2(0.08 / max(margin, 1e-6)))))


def kit_of(spec: AnySpec) -> PuzzleKit:
    """The game's puzzle kit; a clear error for a game that has none."""
    if spec.puzzles is None:
        raise ValueError(f"{spec.title} has no puzzles yet")
    kit: PuzzleKit = spec.puzzles()
    return kit


def _ranked(values: dict[str, tuple[float, ...]], seat: int) -> list[tuple[str, float]]:
    return sorted(((m, v[seat]) for m, v in values.items()), key=lambda mv: -mv[1])


def _lead(ranked: Sequence[tuple[str, float]]) -> tuple[tuple[str, ...], str | None, float]:
    """The moves of the top value, the best move below them (None: every move is equal) and the top's lead."""
    top = ranked[0][1]
    answers = tuple(m for m, v in ranked if top - v <= EPSILON)
    below = next(((m, v) for m, v in ranked if top - v > EPSILON), None)
    return answers, (below[0] if below else None), (top - below[1] if below else 0.0)


def judge(spec: AnySpec, state: Any, screen: Evaluator, kit: PuzzleKit, source: dict[str, Any] | None = None
          ) -> Verdict:
    """Whether the decision at ``state`` is a puzzle (see the module's docstring), checked in order of cost."""
    if len(state.legal_actions()) < 2:
        return Verdict(None, "forced")
    seat = state.current_player()
    answers, runner_up, lead = _lead(_ranked(move_values(screen, state), seat))
    if runner_up is None:
        return Verdict(None, "forced")
    if lead < SCREEN:
        return Verdict(None, "close")
    try:
        ranked = _ranked(move_values(kit.deep, state), seat)
        other = dict(_ranked(move_values(kit.other, state), seat))
    except TooBig:
        return Verdict(None, "too-big")
    answers, runner_up, margin = _lead(ranked)
    if runner_up is None:
        return Verdict(None, "forced")
    if margin < MARGIN:
        return Verdict(None, "close")
    if len(answers) > kit.right_share * len(ranked):
        return Verdict(None, "guessable")
    agreement = min(other[a] for a in answers) - max(v for m, v in other.items() if m not in answers)
    if agreement < AGREEMENT:
        return Verdict(None, "disagree")
    check = getattr(kit.deep, "check", None)
    checked = check(state, runner_up, answers[0]) if check is not None else None
    if checked is None:
        return Verdict(None, "unchecked")
    if checked.lost < CONFIRMED or checked.lost <= 2 * checked.error:
        return Verdict(None, "unconfirmed")
    themes = kit.themes(state, answers[0], runner_up)
    rating = starting_rating(margin)
    if kit.plain is not None and kit.plain(state.clone()) in answers:
        rating = max(600, rating - PLAIN_FOUND)
    return Verdict(Puzzle(spec.name, state.to_dict(), seat, answers, tuple(ranked), margin, agreement, checked.lost,
                          checked.error, themes, rating, dict(source or {})))
