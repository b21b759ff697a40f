"""Monte Carlo tree search for any ``GameState``, with explicit chance nodes: the one MCTS of the package.

Each game supplies its rollout ``policy`` and its ``value`` function (Spots: the
greedy bot and the win-chance estimate, ``spots.games.spots.mcts``; Double Spot: a
claim-first rollout and the card lead, ``spots.games.double_spot.bots``). Decision
nodes pick children by UCT for the seat moving there; chance nodes sample the
engine's distribution and keep one child per outcome seen. A simulation follows
``policy`` for at most ``depth`` decisions, then scores every seat with ``value``
(exact ``returns()`` at the end). With a ``turn`` counter, a simulation instead
stops (in the tree and in the rollout) when ``horizon`` turns have begun since
the root: Spots judges whole turns, not a count of dice decisions.

Below the root, a decision node first expands the move the policy would play and
widens only slowly (``widen`` × √visits children): expanding every reply at once
would make the opponent look like a random player inside the tree, and moves
that hand the opponent a gift would look safe. ``widen=None`` expands every move
(in random order) before selecting: right when all moves are plausible, as in a
Spots turn.

``prior`` (optional) gives each root move a value for the mover in [0, 1]; it is
counted as ``prior_weight`` visits, so with few simulations the search keeps to
the prior's order and spends its budget checking the strongest candidates.

Budget: ``iterations`` simulations (the same moves on any machine for a seed),
and optionally ``time_ms``: the search stops early once that many milliseconds
have passed and answers from the simulations done (at least one; a time budget
depends on the machine and its load).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from .bots import deadline, time_budget
from .protocol import GameState

Policy = Callable[[Any, random.Random], str]
Value = Callable[[Any], list[float]]


def random_policy(state: GameState, rng: random.Random) -> str:
    moves = state.legal_actions()
    return moves[int(rng.random() * len(moves))]


def terminal_value(state: GameState) -> list[float]:
    return state.returns()


def _no_turns(state: GameState) -> float:
    return 0.0


class Node:
    __slots__ = ("children", "totals", "untried", "visits")

    def __init__(self, moves: list[str] | None, players: int) -> None:
        self.children: dict[str, Node] = {}
        self.untried = list(moves) if moves is not None else None  # None at chance nodes
        self.visits = 0.0  # float: root moves may start with virtual visits from a prior
        self.totals = [0.0] * players


class Mcts:
    """UCT search; ``choose(state)`` returns the most visited move."""

    name = "mcts"

    def __init__(
        self,
        policy: Policy = random_policy,
        value: Value = terminal_value,
        players: int | None = None,
        seed: int = 0,
        iterations: int = 200,
        depth: int = 1000,
        c: float = 0.7,
        widen: float | None = 0.5,
        prior: Callable[[Any], dict[str, float]] | None = None,
        prior_weight: float = 0.0,
        turn: Callable[[Any], int] | None = None,
        horizon: int = 1,
        time_ms: float | None = None,
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        self.rng = random.Random(seed)
        self.policy = policy
        self.value = value
        self.players = players  # None: as many as the state's returns() has
        self._seats = players or 2
        self.iterations = iterations
        self.depth = depth
        self.c = c
        self.widen = widen
        self.prior = prior
        self.prior_weight = prior_weight
        self.turn = turn
        self.horizon = horizon
        self.time_ms = time_budget(time_ms)

    def choose(self, state: GameState) -> str:
        return self.rank(state)[0][0]

    def rank(self, state: GameState) -> list[tuple[str, float]]:
        """Legal moves scored by visits plus the mover's mean value (visits first, value breaks ties), best first."""
        return [(move, visits + value) for move, visits, value in self.analyse(state)]

    def analyse(self, state: GameState) -> list[tuple[str, float, float]]:
        """Legal moves with their visit counts and the mover's mean value, best first (for hints).

        Best is most visited, the value (in [0, 1]) breaking ties: ordered by visits + value.
        """
        moves = state.legal_actions()
        mover = state.current_player()
        if len(moves) == 1:
            return [(moves[0], self.iterations, 0.5)]
        self._seats = self.players or len(state.returns())
        root = Node(moves, self._seats)
        if self.prior is not None and self.prior_weight > 0:
            self._seed_root(state, root, moves)
        stop = deadline(self.time_ms)
        for i in range(self.iterations):
            if i and time.perf_counter() > stop:
                break  # the time budget is spent: the visits so far answer
            self._simulate(state.clone(), root)
        ranked = [(m, child.visits, child.totals[mover] / child.visits if child.visits else 0.5)
                  for m, child in root.children.items()]
        ranked.sort(key=lambda mv: -(mv[1] + mv[2]))
        return ranked

    def _simulate(self, state: GameState, root: Node) -> None:
        apply = getattr(state, "apply_trusted", state.apply_action)
        path = [root]
        node = root
        decisions = 0
        clock, stop = self._clock(state)
        widen = self.widen
        while not state.is_terminal() and clock(state) < stop:
            if state.is_chance_node():
                outcome = state.sample_chance(self.rng)
                child = node.children.get(outcome)
                if child is None:
                    child = node.children[outcome] = self._new_node(state)
                    path.append(child)
                    break
                node = child
            else:
                mover = state.current_player()
                decisions += 1
                if node.untried and (node is root or widen is None
                                     or len(node.children) < 1 + widen * math.sqrt(node.visits)):
                    move = self._expand(state, node, node is root)
                    apply(move)
                    child = node.children[move] = self._new_node(state)
                    path.append(child)
                    break
                move, node = self._select(node, mover)
                apply(move)
            path.append(node)
        values = self._rollout(state, apply, decisions, clock, stop)
        for n in path:
            n.visits += 1
            for s, v in enumerate(values):
                n.totals[s] += v

    def _clock(self, state: GameState) -> tuple[Callable[[Any], float], float]:
        """The turn counter and the turn at which simulations from ``state`` stop (never without a counter)."""
        if self.turn is None:
            return _no_turns, math.inf
        return self.turn, self.turn(state) + self.horizon

    def _seed_root(self, state: GameState, root: Node, moves: list[str]) -> None:
        """Give every root move ``prior_weight`` virtual visits at its prior value."""
        assert self.prior is not None
        values = self.prior(state)
        mover = state.current_player()
        w = self.prior_weight
        for move in moves:
            after = state.clone()
            getattr(after, "apply_trusted", after.apply_action)(move)
            child = root.children[move] = self._new_node(after)
            child.visits = w
            v = values.get(move, 0.5)
            others = (1.0 - v) / max(1, self._seats - 1)
            child.totals = [w * (v if s == mover else others) for s in range(self._seats)]
            root.visits += w
        root.untried = []

    def _expand(self, state: GameState, node: Node, at_root: bool) -> str:
        untried = node.untried
        assert untried
        if not at_root and not node.children and self.widen is not None:
            move = self.policy(state, self.rng)
            if move in untried:
                untried.remove(move)
                return move
        return untried.pop(int(self.rng.random() * len(untried)))

    def _new_node(self, state: GameState) -> Node:
        moves = None if state.is_chance_node() or state.is_terminal() else state.legal_actions()
        return Node(moves, self._seats)

    def _select(self, node: Node, mover: int) -> tuple[str, Node]:
        log_n = math.log(node.visits + 1)

        def uct(item: tuple[str, Node]) -> float:
            child = item[1]
            return child.totals[mover] / child.visits + self.c * math.sqrt(log_n / child.visits)

        return max(node.children.items(), key=uct)

    def _rollout(self, state: GameState, apply: Callable[[str], None], decisions: int,
                 clock: Callable[[Any], float], stop: float) -> list[float]:
        depth = self.depth
        while not state.is_terminal() and decisions < depth and clock(state) < stop:
            if state.is_chance_node():
                state.sample_chance(self.rng)
            else:
                apply(self.policy(state, self.rng))
                decisions += 1
        return state.returns() if state.is_terminal() else self.value(state)
