"""Exact solutions of small solitaire variants: the fewest expected turns, and the best chance within N turns.

Why it is built on the engine: every position the solver values is a position of the reference
engine (``State``), reached by the engine's own moves and chance outcomes, so every action of its
policy is legal there by construction. The solver compiles the game once into a graph:

- a *node* is a position, keyed by the engine's ``State.key()`` with the turn number left out and each
  seat's dogs sorted (neither changes the future: the turn limit is far away, and dogs are symmetric);
- its edges are the legal moves (a decision) or the chance outcomes with their probabilities (the deck
  is drawn uniformly from the cards left, as the engine draws it);
- an edge into the next turn is a *crossing*; within a turn the graph has no cycles, so a turn is
  valued children first (the order of a depth-first search) and only crossings feed values round.

Then (a) value iteration (Gauss-Seidel, children before parents) gives the fewest expected turns to
reach the target, a crossing costing one turn; and (b) N sweeps of backward induction give the best
chance to finish within N turns, a crossing spending one of them. Only what makes the state space
small is the variant: one player, a small deck, a dog limit, few tiles and treats (``VARIANTS``).
"""

from __future__ import annotations

import sys
import time
from array import array
from dataclasses import dataclass, field
from typing import Any

from .rules import Rules
from .state import State

DECISION, CHANCE, WON = 0, 1, 2
MAX_NODES = 1_500_000  # about a gigabyte of Python objects: the largest graph the solver builds
TURN_INDEX = 2  # where the turn number sits in the plain part of State.key()

# Three cards of the shipped deck: a 1-space dog and two 2-space dogs, so that which dog comes matters.
SMALL_DECK = (
    {"name": "Burt", "spaces": [1], "paws": 0},
    {"name": "Bristles", "spaces": [1, 2], "paws": 0},
    {"name": "Missy", "spaces": [3, 4], "paws": 0},
)


def _variant(target: int, tricks: tuple[str, ...], treats: int = 0,
             deck: tuple[dict[str, Any], ...] = SMALL_DECK) -> dict[str, Any]:
    """Solitaire with a small deck, a dog limit of the target (at least 2) and a small treat supply."""
    return {"players": 1, "target": target, "tricks": list(tricks), "deck": [dict(c) for c in deck],
            "dog_limit": max(2, target), "treats": treats, "starting_treats": min(1, treats)}


# The solved variants, by name: the rules options each is played with. ``solo-hand`` is small enough to
# work out by hand (tests/test_solve.py): one dog with one space, a 6, and a bust limit of 0. ``solo-1-pair``
# is the smallest with the standard bust limit: both cards of its deck are dealt, so no card is drawn.
VARIANTS: dict[str, dict[str, Any]] = {
    "solo-hand": {"players": 1, "target": 1, "tricks": ["howl", "walk"], "deck": [{"name": "Rex", "spaces": [6]}],
                  "starting_dogs": 1, "dog_limit": 1, "bust_limit": 0, "treats": 0, "starting_treats": 0},
    "solo-1-pair": _variant(1, ("howl", "walk"), deck=SMALL_DECK[:2]),
    "solo-1": _variant(1, ("howl", "walk")),
    "solo-1-treats": _variant(1, ("howl", "walk"), treats=1),
    "solo-1-beg": _variant(1, ("howl", "walk", "beg"), treats=1),
    "solo-2": _variant(2, ("howl", "walk")),
    "solo-3": _variant(3, ("howl", "walk")),
}


class TooBig(ValueError):
    """The variant's graph outgrows ``MAX_NODES``: it is not solved."""


def searched_moves(state: State) -> list[str]:
    """The legal moves, except that a roll's dice are resolved lowest face first (as ``ExpectimaxBot`` does).

    Why nothing is lost: each die goes to a space or the yard on its own, and a bust mid-roll returns the
    same dice as a bust at its end, so every order of resolving a roll reaches the same positions.
    """
    from .expectimax import ExpectimaxBot

    return ExpectimaxBot.candidates(state)


def canonical_key(state: State) -> tuple[Any, ...]:
    """``State.key()`` without the turn number and with each seat's dogs in name order."""
    plain, rest = state.key()
    players = tuple((tuple(sorted(dogs)), yard, treats) for dogs, yard, treats in rest[0])
    return plain[:TURN_INDEX] + plain[TURN_INDEX + 1:], (players, *rest[1:])


@dataclass
class Graph:
    """The compiled game: per node its kind, its edges (move text, child, probability, crossing)."""

    rules: Rules
    index: dict[tuple[Any, ...], int] = field(default_factory=dict)
    kind: array = field(default_factory=lambda: array("b"))
    moves: list[tuple[str, ...]] = field(default_factory=list)
    children: list[tuple[int, ...]] = field(default_factory=list)
    probs: list[tuple[float, ...]] = field(default_factory=list)
    crossing: list[tuple[bool, ...]] = field(default_factory=list)
    order: list[int] = field(default_factory=list)  # children before parents within a turn
    root: int = -1
    seconds: float = 0.0

    def __len__(self) -> int:
        return len(self.kind)

    def edges(self) -> int:
        return sum(len(c) for c in self.children)

    def turn_starts(self) -> int:
        starts = {c for cs, xs in zip(self.children, self.crossing, strict=True)
                  for c, x in zip(cs, xs, strict=True) if x}
        return len(starts)


def build(rules: Rules, max_nodes: int = MAX_NODES) -> Graph:
    """Every position reachable from the deal, with its edges; raises ``TooBig`` past ``max_nodes``."""
    if rules.players != 1:
        raise ValueError(f"the solver plays solitaire (players=1) only, not {rules.players} players")
    start = time.perf_counter()
    builder = _Builder(Graph(rules), max_nodes)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20_000))
    try:
        builder.graph.root = builder.visit(State(rules))
        while builder.pending:
            node, state = builder.pending.pop()
            if not builder.status[node]:
                builder.expand(node, state)
    finally:
        sys.setrecursionlimit(limit)
    builder.graph.seconds = time.perf_counter() - start
    return builder.graph


class _Builder:
    """The depth-first search that compiles a turn; next turns' first positions wait in ``pending``."""

    def __init__(self, graph: Graph, max_nodes: int) -> None:
        self.graph = graph
        self.max_nodes = max_nodes
        self.pending: list[tuple[int, State]] = []
        self.status = bytearray()  # 0 reserved, 1 on the search stack, 2 done

    def node_of(self, state: State) -> tuple[int, bool]:
        """The node of ``state`` and whether it is new."""
        graph = self.graph
        key = canonical_key(state)
        found = graph.index.get(key)
        if found is not None:
            return found, False
        if len(graph.kind) >= self.max_nodes:
            raise TooBig(f"more than {self.max_nodes:,} positions")
        node = graph.index[key] = len(graph.kind)
        graph.kind.append(DECISION)
        graph.moves.append(())
        graph.children.append(())
        graph.probs.append(())
        graph.crossing.append(())
        self.status.append(0)
        return node, True

    def visit(self, state: State) -> int:
        """A position within the turn being compiled: its node, expanded now."""
        node, _ = self.node_of(state)
        status = self.status[node]
        if status == 1:
            raise AssertionError("the graph of one turn has a cycle")  # the rules never loop within a turn
        if status == 0:
            self.expand(node, state)
        return node

    def expand(self, node: int, state: State) -> None:
        graph = self.graph
        self.status[node] = 1
        if state.is_terminal():
            if state.winner is None:
                raise AssertionError("a solitaire game ended short of its target (the turn limit?)")
            graph.kind[node] = WON
        else:
            if state.is_chance_node():
                graph.kind[node] = CHANCE
                options = state.chance_outcomes()
                moves = tuple(m for m, _ in options)
                graph.probs[node] = tuple(p for _, p in options)
            else:
                moves = tuple(searched_moves(state))
            turn = state.turn
            kids: list[int] = []
            crosses: list[bool] = []
            for move in moves:
                child = state.clone()
                child.apply_trusted(move)
                crossing = not child.is_terminal() and child.turn != turn
                crosses.append(crossing)
                if crossing:
                    kid, new = self.node_of(child)
                    if new:
                        self.pending.append((kid, child))
                    kids.append(kid)
                else:
                    kids.append(self.visit(child))
            graph.moves[node], graph.children[node], graph.crossing[node] = moves, tuple(kids), tuple(crosses)
        self.status[node] = 2
        graph.order.append(node)


# ----------------------------------------------------------------- values


@dataclass
class Solution:
    """The values of a solved variant.

    ``turns[node]``: the fewest expected turns still to start from the node until the target is reached.
    ``within[m][node]``: the best chance to reach it with at most ``m`` more turns started after the node's.
    The game's values are those of the root (the deal, before turn 1).
    """

    name: str
    graph: Graph
    turns: array
    within: list[array]
    sweeps: int
    seconds: float

    @property
    def horizon(self) -> int:
        return len(self.within) - 1

    def expected_turns(self) -> float:
        return self.turns[self.graph.root]

    def chance_within(self, turns: int) -> float:
        return self.within[turns][self.graph.root]


def expected_turns(graph: Graph, tolerance: float = 1e-10, max_sweeps: int = 100_000) -> tuple[array, int]:
    """Value iteration for the fewest expected turns (from zero, so the values rise to the fixed point)."""
    values = array("d", bytes(8 * len(graph)))
    kind, children, probs, crossing = graph.kind, graph.children, graph.probs, graph.crossing
    for sweep in range(1, max_sweeps + 1):
        change = 0.0
        for node in graph.order:
            what = kind[node]
            if what == WON:
                continue
            kids, crosses = children[node], crossing[node]
            if what == CHANCE:
                new = sum([p * (values[c] + x) for p, c, x in zip(probs[node], kids, crosses, strict=True)])
            else:
                new = min([values[c] + x for c, x in zip(kids, crosses, strict=True)])
            old = values[node]
            if new - old > change:
                change = new - old
            values[node] = new
        if change < tolerance:
            return values, sweep
    raise ArithmeticError(f"value iteration did not settle within {max_sweeps} sweeps")


def chances_within(graph: Graph, horizon: int) -> list[array]:
    """Backward induction: the best chance to finish with at most m more turns, for m = 0 .. horizon."""
    kind, children, probs, crossing = graph.kind, graph.children, graph.probs, graph.crossing
    layers: list[array] = []
    previous = array("d", bytes(8 * len(graph)))  # no turn left: a crossing is a loss
    for m in range(horizon + 1):
        values = array("d", bytes(8 * len(graph)))
        for node in graph.order:
            what = kind[node]
            if what == WON:
                values[node] = 1.0
                continue
            kids, crosses = children[node], crossing[node]
            if m == 0:
                outcome = [0.0 if x else values[c] for c, x in zip(kids, crosses, strict=True)]
            else:
                outcome = [previous[c] if x else values[c] for c, x in zip(kids, crosses, strict=True)]
            if what == CHANCE:
                values[node] = sum([p * v for p, v in zip(probs[node], outcome, strict=True)])
            else:
                values[node] = max(outcome)
        layers.append(values)
        previous = values
    return layers


def solve(name: str, horizon: int = 10, max_nodes: int = MAX_NODES) -> Solution:
    """Build the graph of a named variant and compute both objectives."""
    if name not in VARIANTS:
        raise ValueError(f"unknown solved variant {name!r}; the variants are: {', '.join(VARIANTS)}")
    if horizon < 0:
        raise ValueError(f"the horizon (turns) must be 0 or more, not {horizon}")
    start = time.perf_counter()
    graph = build(Rules(**VARIANTS[name]), max_nodes)
    turns, sweeps = expected_turns(graph)
    within = chances_within(graph, horizon)
    return Solution(name, graph, turns, within, sweeps, time.perf_counter() - start)


def variant_of(rules: Rules) -> str | None:
    """The name of the solved variant these rules are, or None (keyed dice change the deal, not the values)."""
    given = rules.to_dict()
    given.pop("keyed_dice", None)
    for name, options in VARIANTS.items():
        if Rules(**options).to_dict() == given:
            return name
    return None
