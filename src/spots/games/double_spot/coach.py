"""The coach's evaluator for Double Spot: each player's chance to win, from the ``search`` bot's values.

The search bot values a position in cards: a drop by the cards it takes less what the opponent can
expect back several turns on (``SearchBot.rank``), a roll by what the roller can expect
(``SearchBot.roll_value``). The coach turns a card lead into a chance to win with a logistic,
``1 / (1 + exp(−lead / SCALE))``, the lead being the cards won so far plus the search's expected
swing; a sure win or loss in the search is 1 or 0. The budget is the bot's, with no clock, so the
same position always gets the same value. Reveals and claims are averaged over their exact outcomes.
"""

from __future__ import annotations

import math

from ...analysis.evaluator import terminal_values
from ...i18n import N_
from .expectimax import WIN, ExpectimaxBot
from .search import SearchBot
from .state import CLAIM, DROP, REVEAL, ROLL, State

__all__ = ["NODES", "SCALE", "SearchChances", "evaluator"]

NODES = 500  # the search bot's default node budget ...
DEPTH = 3  # ... to three turns (a drop, the opponent's roll, the mover's next): 3 ms a roll, 8 ms a drop
ROOT_WIDTH = 64  # more than the most drops (twice the columns): every drop at the same depth
REVEALS = 8  # a card still to be revealed inside a value: the mean over this many of the deck, evenly spaced
SCALE = 1.0  # cards of lead that make a win e times likelier than a loss (docs/analysis.md: calibration)


class SearchChances:
    """Both players' chances to win, by the search bot at a fixed node budget and no clock."""

    def __init__(self, nodes: int = NODES, depth: int = DEPTH, scale: float = SCALE) -> None:
        self.nodes, self.depth, self.scale = nodes, depth, scale
        self.name = (f"Double Spot search bot: {nodes} nodes, {depth} turns, no clock; a card lead of {scale:g} "
                     "makes a win e times likelier than a loss")
        self.title = N_("the search bot, looking a few turns ahead")  # the report's header, in the reader's words
        self._chance_memo: dict[object, list[float]] = {}
        self._ranked: dict[object, list[tuple[str, float]]] = {}

    def moves(self, state: State) -> dict[str, list[float]]:
        """Every legal drop's chances from one ranking (``SearchBot.rank``): what ``values`` of each child would
        cost sixteen searches for."""
        out = {}
        for move, swing in self._rank(state):
            child = state.clone()
            child.apply_action(move)
            out[move] = terminal_values(child) if child.is_terminal() else self._chances(state, state.seat, swing)
        return out

    def values(self, state: State) -> list[float]:
        if state.is_terminal():
            return terminal_values(state)
        if state.phase == DROP:
            best = max(v for _, v in self._rank(state))
            return self._chances(state, state.seat, best)
        if state.phase == ROLL:
            return self._chances(state, state.seat, self._bot().roll_value(state))
        if state.phase in (REVEAL, CLAIM):  # the exact mean over the cards drawn or who claims
            return self._mean(state)
        raise ValueError(f"no value for a Double Spot position in phase {state.phase!r}")

    def reasons(self, state: State, played: str, best: str) -> list[tuple[str, dict[str, str]]]:
        """What each drop takes and hands the opponent (their chance to finish a card on their roll)."""
        judged = {j.move: j for j in ExpectimaxBot(0).judge(state, only={played, best})}
        facts = []
        for move in (played, best):
            j = judged.get(move)
            if j is None:
                continue
            if j.takes:
                facts.append((N_("{move} takes a pattern card at once."), {"move": move}))
            elif j.ends is None:
                facts.append((N_("{move} leaves the opponent a {chance} chance to finish a card on their roll."),
                              {"move": move, "chance": f"{j.gives:.0%}"}))
        return facts

    def _bot(self) -> SearchBot:
        # fresh, so a value depends on the position only; every drop searched as deep (no shallower leftovers)
        return SearchBot(seed=0, nodes=self.nodes, depth=self.depth, root_width=ROOT_WIDTH)

    def _rank(self, state: State) -> list[tuple[str, float]]:
        key = state.key()
        if key not in self._ranked:
            self._ranked[key] = self._bot().rank(state)
        return self._ranked[key]

    def _chances(self, state: State, seat: int, swing: float) -> list[float]:
        if swing >= WIN / 2:
            mine = 1.0
        elif swing <= -WIN / 2:
            mine = 0.0
        else:
            lead = len(state.won[seat]) - len(state.won[1 - seat]) + swing
            mine = 1.0 / (1.0 + math.exp(-lead / self.scale))
        return [mine, 1.0 - mine] if seat == 0 else [1.0 - mine, mine]

    def _mean(self, state: State) -> list[float]:
        key = state.key()
        found = self._chance_memo.get(key)
        if found is None:
            found = [0.0, 0.0]
            outcomes = state.chance_outcomes()
            if len(outcomes) > REVEALS:
                outcomes = [outcomes[i * len(outcomes) // REVEALS] for i in range(REVEALS)]
            total = sum(p for _, p in outcomes)
            for outcome, p in outcomes:
                p /= total
                child = state.clone()
                child.apply_action(outcome)
                for seat, v in enumerate(self.values(child)):
                    found[seat] += p * v
            self._chance_memo[key] = found
        return list(found)


def evaluator() -> SearchChances:
    """The coach's evaluator at its documented budget (``GameSpec.coach``)."""
    return SearchChances()
