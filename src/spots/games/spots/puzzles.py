"""Spots' puzzle kit (``spots.puzzles``): the two deep evaluators a puzzle's answer must satisfy, and its themes.

Both evaluators search one roll deeper than the coach and split each big roll into twice as many slices (the
coach's ``TurnSearch`` at ``DEEP_DEPTH`` and ``DEEP_WIDTH``); they differ in the value at the turn's end: the
recalibrated learned model (the one that names the answer) and the fitted linear value (the one that must
agree). The independent check is the coach's: play-outs to the end of the game on the same dice.
"""

from __future__ import annotations

from typing import Any

from .coach import CALIBRATION, DEPTH, WIDTH, TurnEnd, TurnSearch
from .greedy import GreedyBot
from .state import State
from .tricks import N_

__all__ = ["DEEP_DEPTH", "DEEP_LIMIT", "DEEP_WIDTH", "THEMES", "BoundedSearch", "kit", "themes"]

DEEP_DEPTH = DEPTH + 1
DEEP_WIDTH = 2 * WIDTH
DEEP_LIMIT = 20_000  # positions a deep search may ask about for one decision's moves (most ask under 3,100)


class BoundedSearch(TurnSearch):
    """The turn search with a budget: past ``DEEP_LIMIT`` positions asked about (memo hits too) for one decision,
    it gives up (``TooBig``), so a long chain of choices after a big roll cannot hold a build for many minutes."""

    def __init__(self, *args: Any, limit: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limit = limit  # None: DEEP_LIMIT as it is when asked (a test may lower it)
        self.asked = 0

    def moves(self, state: State) -> dict[str, tuple[float, ...]]:
        self.asked = 0
        return super().moves(state)

    def value(self, state: State, depth: int) -> tuple[float, ...]:
        self.asked += 1
        limit = DEEP_LIMIT if self.limit is None else self.limit
        if self.asked > limit:
            from ...puzzles.judge import TooBig

            raise TooBig(f"more than {limit} positions")
        return super().value(state, depth)
# The themes (a puzzle has one or more) and their words on a page, in the order a player meets them in a turn.
THEMES = {
    "which-trick": N_("which trick"), "score-now": N_("score now"), "place-or-bury": N_("place or bury"),
    "which-dog": N_("which dog"), "reroll": N_("reroll"), "choose-a-die": N_("choose a die"),
    "stop-or-roll-on": N_("stop or roll on"), "endgame": N_("endgame"),
}


def themes(state: State, best: str, runner_up: str) -> tuple[str, ...]:
    """What the choice is about, from the answer and the next best move (and ``endgame`` where a seat is a dog
    or two from the target)."""
    kinds = {best.split()[0], runner_up.split()[0]}
    found = []
    if kinds <= {"trick"}:
        found.append("which-trick")
    if "score" in kinds:
        found.append("score-now")
    if kinds & {"place", "bury"} and kinds != {"place"}:
        found.append("place-or-bury")
    if kinds == {"place"}:
        found.append("which-dog")
    if "reroll" in kinds:
        found.append("reroll")
    if "choose" in kinds:
        found.append("choose-a-die")
    if kinds & {"stop", "continue"}:
        found.append("stop-or-roll-on")
    if any(p.scored_count() >= state.rules.target - 2 for p in state.players):
        found.append("endgame")
    return tuple(found)


def kit() -> object:
    """The kit (``GameSpec.puzzles``); the learned model needs numpy (``spots[learn]``), a clear error without it."""
    from ...puzzles.judge import PuzzleKit
    from .learned_value import shipped

    learned = TurnEnd(shipped(None), CALIBRATION)
    return PuzzleKit(deep=BoundedSearch(DEEP_DEPTH, width=DEEP_WIDTH, turn_end=learned),
                     other=BoundedSearch(DEEP_DEPTH, width=DEEP_WIDTH, turn_end=TurnEnd()),
                     themes=themes, theme_words=THEMES, plain=GreedyBot(seed=0).choose)
