"""A solver's progress, kept between sessions: puzzle ratings (Glicko-2) and the drill deck (FSRS).

Each try is a game between the solver and the puzzle (``glicko2``): solving it is a win for the solver and a loss
for the puzzle, so both ratings move, the puzzle's by what this solver's tries showed. The drill deck schedules
each of your own mistakes with ``fsrs`` (spaced repetition): solved, it comes back later each time; missed, soon.
The scheduler does not fuzz its intervals, so the same tries at the same times give the same schedule.

The terminal keeps it in a JSON file (``default_path``: ``$XDG_DATA_HOME/spots/puzzles.json``), written whole or
not at all; a damaged file is refused with what to do, never overwritten.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from .judge import Puzzle

__all__ = ["PUZZLE_RD", "Progress", "Rated", "default_path", "new_card", "rate", "review", "start_of"]

PUZZLE_RD = 150.0  # a puzzle's starting rating deviation: its rating from the margin is a fair first guess
SOLVER = (1500.0, 350.0, 0.06)  # a new solver: Glicko-2's defaults


class Rated(NamedTuple):
    """A Glicko-2 rating: the rating, its deviation and its volatility."""

    rating: float
    rd: float
    vol: float


def rate(solver: Rated, puzzle: Rated, solved: bool) -> tuple[Rated, Rated]:
    """Both ratings after one try (a rating period of one game each)."""
    from glicko2 import Player

    def after(own: Rated, other: Rated, score: float) -> Rated:
        player = Player(rating=own.rating, rd=own.rd, vol=own.vol)
        player.update_player([other.rating], [other.rd], [score])
        return Rated(player.getRating(), player.getRd(), player.vol)

    return after(solver, puzzle, 1.0 if solved else 0.0), after(puzzle, solver, 0.0 if solved else 1.0)


def start_of(puzzle: Puzzle) -> Rated:
    """A puzzle's rating before anyone tried it: its starting rating (from its margin), ``PUZZLE_RD`` sure."""
    return Rated(float(puzzle.rating), PUZZLE_RD, SOLVER[2])


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "spots" / "puzzles.json"


def new_card(puzzle: Puzzle, due: datetime) -> dict[str, Any]:
    """A new drill's FSRS card (as ``Card.to_dict`` gives it), due at ``due``; its id from the puzzle's."""
    from fsrs import Card

    return dict(Card(card_id=int(puzzle.id, 16), due=due).to_dict())


def review(card: dict[str, Any], solved: bool, now: datetime) -> dict[str, Any]:
    """A drill's FSRS card (as ``Card.to_dict`` gives it) after an answer: Good when solved, Again when missed. The
    scheduler does not fuzz, so the same answers at the same times give the same schedule."""
    from fsrs import Card, Rating, Scheduler

    after, _ = Scheduler(enable_fuzzing=False).review_card(Card.from_dict(card),  # type: ignore[arg-type]
                                                           Rating.Good if solved else Rating.Again, now)
    return dict(after.to_dict())


@dataclass
class Progress:
    """The solver's rating, each tried puzzle's rating and result count, and the drill deck."""

    solver: Rated = field(default_factory=lambda: Rated(*SOLVER))
    puzzles: dict[str, Rated] = field(default_factory=dict)  # puzzle id -> its rating, as this solver moved it
    tries: dict[str, list[int]] = field(default_factory=dict)  # puzzle id -> [solved, tried]
    deck: dict[str, dict[str, Any]] = field(default_factory=dict)  # drill id -> {"puzzle": line, "card": FSRS card}

    def rating_of(self, puzzle: Puzzle) -> Rated:
        return self.puzzles.get(puzzle.id) or start_of(puzzle)

    def record(self, puzzle: Puzzle, solved: bool) -> float:
        """One try: both ratings moved; returns the solver's change."""
        before = self.solver.rating
        self.solver, self.puzzles[puzzle.id] = rate(self.solver, self.rating_of(puzzle), solved)
        counts = self.tries.setdefault(puzzle.id, [0, 0])
        counts[0] += int(solved)
        counts[1] += 1
        return self.solver.rating - before

    # ---------------------------------------------------------------- the drill deck

    def add_drills(self, puzzles: list[Puzzle], now: datetime | None = None) -> int:
        """New drills, due at once; a position already in the deck keeps its schedule. Returns how many are new."""
        added = 0
        for puzzle in puzzles:
            if puzzle.id not in self.deck:
                self.deck[puzzle.id] = {"puzzle": puzzle.to_line(), "card": new_card(puzzle, now or datetime.now(UTC))}
                added += 1
        return added

    def due(self, now: datetime | None = None) -> list[Puzzle]:
        """The drills due by ``now``, the longest overdue first."""
        now = now or datetime.now(UTC)
        waiting = sorted((datetime.fromisoformat(entry["card"]["due"]), key) for key, entry in self.deck.items())
        return [Puzzle.from_line(self.deck[key]["puzzle"]) for due, key in waiting if due <= now]

    def next_due(self) -> datetime | None:
        return min((datetime.fromisoformat(e["card"]["due"]) for e in self.deck.values()), default=None)

    def review(self, puzzle: Puzzle, solved: bool, now: datetime | None = None) -> datetime:
        """A drill answered: FSRS schedules it again (Good when solved, Again when missed); returns when."""
        entry = self.deck[puzzle.id]
        entry["card"] = review(entry["card"], solved, now or datetime.now(UTC))
        return datetime.fromisoformat(entry["card"]["due"])

    # ---------------------------------------------------------------- the file

    @classmethod
    def load(cls, path: Path) -> Progress:
        """The progress in ``path`` (a new one where there is no file); a damaged file is a clear error."""
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as exc:
            raise ValueError(f"{path}: the puzzle progress file cannot be read ({exc}); move it away to start "
                             "afresh") from None
        try:
            return cls(Rated(*doc["solver"]), {k: Rated(*v) for k, v in doc["puzzles"].items()},
                       {k: [int(n) for n in v] for k, v in doc["tries"].items()}, dict(doc["deck"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: not a puzzle progress file (missing or bad {exc}); move it away to start "
                             "afresh") from None

    def save(self, path: Path) -> None:
        """Written whole or not at all (a new file, then renamed over the old)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        doc = {"version": 1, "solver": list(self.solver), "puzzles": {k: list(v) for k, v in self.puzzles.items()},
               "tries": self.tries, "deck": self.deck}
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(doc, indent=1), encoding="utf-8")
        temporary.replace(path)
