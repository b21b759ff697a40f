"""The exact policy of a solved variant (``solve.py``) as move values, a bot (``optimal``) and a check by play.

Move values are read from the solved graph; a position the solver never compiled (another bot resolved a
roll highest face first, say) is valued by searching its turn down to positions the graph holds, so
every legal move of every reachable position has its exact value. That is what the error rates use.
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ...core.play import play_out
from .solve import DECISION, VARIANTS, Solution, canonical_key, solve, variant_of
from .state import State

OBJECTIVES = ("turns", "within")
CACHE_SIZE = 2  # solutions kept in memory (the largest takes a few hundred MB)
_CACHE: OrderedDict[str, Solution] = OrderedDict()


def solution_for(name: str, horizon: int = 10) -> Solution:
    """The solution of a named variant, solved on first use and kept (at most ``CACHE_SIZE`` of them)."""
    found = _CACHE.get(name)
    if found is None or found.horizon < horizon:
        found = solve(name, horizon=max(horizon, 10))
        _CACHE[name] = found
    _CACHE.move_to_end(name)
    while len(_CACHE) > CACHE_SIZE:
        _CACHE.popitem(last=False)
    return found


def supported(state: State) -> str:
    """The solved variant of this game, or a ValueError naming the variants the optimal policy knows."""
    name = variant_of(state.rules)
    if name is None:
        known = "; ".join(f"{n} ({describe(n)})" for n in VARIANTS)
        raise ValueError(f"the optimal bot has no solution for these rules; it plays only the solved variants: {known}")
    return name


def describe(name: str) -> str:
    options = VARIANTS[name]
    deck = ", ".join(c["name"] for c in options["deck"])
    return (f"players 1, target {options['target']}, tricks {','.join(options['tricks'])}, "
            f"dog limit {options['dog_limit']}, treats {options['treats']}, deck of {deck}")


class MoveValues:
    """Exact values of positions and moves under one objective.

    ``turns``: expected turns still to start (lower is better). ``within``: the chance to reach the target
    by the end of turn ``horizon`` (higher is better).
    """

    def __init__(self, solution: Solution, objective: str = "turns", horizon: int | None = None) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r}; allowed: {', '.join(OBJECTIVES)}")
        if objective == "within" and (horizon is None or not 1 <= horizon <= solution.horizon):
            raise ValueError(f"the within objective needs a horizon of 1 to {solution.horizon} turns, not {horizon}")
        self.solution = solution
        self.objective = objective
        self.horizon = horizon or 0
        self._memo: dict[tuple[Any, ...], float] = {}

    def left(self, state: State) -> int:
        """Turns that may still start after this position's turn (the within objective)."""
        return self.horizon - state.turn

    def better(self, a: float, b: float) -> bool:
        return a < b if self.objective == "turns" else a > b

    def best(self, values: list[float]) -> float:
        return min(values) if self.objective == "turns" else max(values)

    def value(self, state: State, left: int) -> float:
        """The exact value of a position with ``left`` turns to come (ignored by the turns objective)."""
        if state.is_terminal():
            return 0.0 if self.objective == "turns" else 1.0
        if self.objective == "within" and left < 0:
            return 0.0
        key = canonical_key(state)
        graph = self.solution.graph
        node = graph.index.get(key)
        if node is not None:
            return self.solution.turns[node] if self.objective == "turns" else self.solution.within[left][node]
        memo_key = (key, left)
        cached = self._memo.get(memo_key)
        if cached is None:
            if state.is_chance_node():
                cached = sum(p * self._after(state, o, left) for o, p in state.chance_outcomes())
            else:
                cached = self.best([self._after(state, m, left) for m in state.legal_actions()])
            if len(self._memo) > 200_000:
                self._memo.clear()
            self._memo[memo_key] = cached
        return cached

    def _after(self, state: State, move: str, left: int) -> float:
        child = state.clone()
        child.apply_trusted(move)
        if child.is_terminal() or child.turn == state.turn:
            return self.value(child, left)
        if self.objective == "turns":
            return 1.0 + self.value(child, left)
        return self.value(child, left - 1)

    def moves(self, state: State) -> list[tuple[str, float]]:
        """Every legal move of a decision with its exact value, in the engine's order."""
        left = self.left(state)
        return [(m, self._after(state, m, left)) for m in state.legal_actions()]

    def solved_moves(self, state: State) -> list[tuple[str, float]] | None:
        """The moves the solver searched from this position, with their values, read from the graph without
        playing them (None off the graph). A roll's dice come lowest face first, as in ``solve.searched_moves``."""
        graph = self.solution.graph
        node = graph.index.get(canonical_key(state))
        if node is None or graph.kind[node] != DECISION:
            return None
        crossings = zip(graph.moves[node], graph.children[node], graph.crossing[node], strict=True)
        if self.objective == "turns":
            turns = self.solution.turns
            return [(m, turns[c] + crossing) for m, c, crossing in crossings]
        left = self.left(state)
        now, after = self.solution.within[left], self.solution.within[left - 1] if left > 0 else None
        return [(m, (0.0 if after is None else after[c]) if crossing else now[c]) for m, c, crossing in crossings]


class OptimalBot:
    """``spots.bots.make("optimal", objective="turns")`` or ``objective="within", turns=N``: the exact policy.

    It plays only the solved solitaire variants (``solve.VARIANTS``) and says so on any other game.
    Ties go to the engine's first legal move; past the deadline of ``within`` it plays for fewest turns.
    """

    name = "optimal"

    def __init__(self, seed: int = 0, objective: str = "turns", turns: int = 6) -> None:
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r}; allowed: {', '.join(OBJECTIVES)}")
        if objective == "within" and not 1 <= turns <= 40:
            raise ValueError(f"turns (the within objective's deadline) must be from 1 to 40, not {turns}")
        self.objective = objective
        self.turns = turns
        self._values: dict[str, tuple[MoveValues, MoveValues]] = {}

    def _for(self, state: State) -> MoveValues:
        name = supported(state)
        if name not in self._values:
            solution = solution_for(name, self.turns)
            self._values[name] = (MoveValues(solution), MoveValues(solution, "within", self.turns))
        fewest, within = self._values[name]
        if self.objective == "within" and within.left(state) >= 0:
            return within
        return fewest

    def choose(self, state: State) -> str:
        values = self._for(state)
        ranked = values.solved_moves(state) or values.moves(state)
        best_move, best_value = ranked[0]
        for move, value in ranked[1:]:
            if values.better(value, best_value) and abs(value - best_value) > 1e-12:
                best_move, best_value = move, value
        return best_move


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95%), as the arena reports win rates."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class PlayCheck:
    """The optimal policy played on the engine: turns to the target, and how often within the horizon."""

    games: int
    mean_turns: float
    turns_interval: tuple[float, float]
    within: int
    within_rate: float
    within_interval: tuple[float, float]


def play_policy(name: str, games: int, seed: int, objective: str = "turns", horizon: int = 6) -> PlayCheck:
    """Play ``games`` games of a solved variant with the optimal bot, chance drawn from ``random.Random(seed)``."""
    from .rules import Rules

    rules = Rules(**VARIANTS[name])
    bot = OptimalBot(objective=objective, turns=horizon)
    rng = random.Random(seed)
    lengths: list[int] = []
    for _ in range(games):  # apply_action checks every move the policy picks is legal
        lengths.append(play_out(State(rules), [bot], rng).turn)
    mean = sum(lengths) / games
    spread = math.sqrt(sum((t - mean) ** 2 for t in lengths) / max(1, games - 1))
    half = 1.959964 * spread / math.sqrt(games)
    hits = sum(1 for t in lengths if t <= horizon)
    return PlayCheck(games, mean, (mean - half, mean + half), hits, hits / games, wilson(hits, games))


@dataclass
class ErrorRate:
    """One bot's decisions on a solved variant, judged against the exact values (as GNU Backgammon rates play).

    A decision is non-forced when it has two or more legal moves. ``turns_lost``: expected turns the chosen
    move costs over the best; ``chance_lost``: chance of finishing within the horizon it costs (decisions
    taken before the horizon only).
    """

    bot: str
    games: int = 0
    decisions: int = 0
    unforced: int = 0
    turns_lost: float = 0.0
    chance_lost: float = 0.0
    chance_unforced: int = 0
    errors: int = 0  # unforced decisions that lose anything in expected turns

    def per_decision(self) -> tuple[float, float]:
        return self.turns_lost / max(1, self.unforced), self.chance_lost / max(1, self.chance_unforced)


def error_rate(name: str, bot: Any, label: str, games: int, seed: int, horizon: int = 6) -> ErrorRate:
    """Play ``games`` games of a solved variant with ``bot`` and price each of its decisions exactly."""
    from .rules import Rules

    rules = Rules(**VARIANTS[name])
    solution = solution_for(name, horizon)
    fewest, within = MoveValues(solution), MoveValues(solution, "within", horizon)
    rng = random.Random(seed)
    rate = ErrorRate(label, games)

    class Priced:
        """The bot, each of its decisions priced against the exact values before it is played."""

        name = label

        def choose(self, state: Any) -> str:
            move: str = bot.choose(state)
            rate.decisions += 1
            if len(state.legal_actions()) > 1:
                rate.unforced += 1
                values = dict(fewest.moves(state))
                loss = values[move] - min(values.values())
                rate.turns_lost += loss
                rate.errors += loss > 1e-9
                if within.left(state) >= 0:
                    chances = dict(within.moves(state))
                    rate.chance_unforced += 1
                    rate.chance_lost += max(chances.values()) - chances[move]
            return move

    for _ in range(games):
        play_out(State(rules), [Priced()], rng)
    return rate
