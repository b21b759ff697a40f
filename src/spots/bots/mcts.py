"""Monte Carlo tree search over whole games, with explicit chance nodes.

Decision nodes choose children by UCT from the point of view of the seat that
moves there; chance nodes draw an outcome from the engine's distribution and
keep one child per outcome seen. A simulation plays the greedy bot (the fast
rollout policy) to the end of the turn ``horizon`` turns ahead, then scores every
seat with the value function's win chance (``value.evaluate``), so long-horizon
choices (which trick, when to score) are judged by where they lead.
"""

from __future__ import annotations

import math
import random

from ..engine.state import State
from .greedy import GreedyBot
from .value import evaluate


class Node:
    __slots__ = ("children", "totals", "untried", "visits")

    def __init__(self, moves: list[str] | None, players: int) -> None:
        self.children: dict[str, Node] = {}
        self.untried = list(moves) if moves is not None else None  # None at chance nodes
        self.visits = 0
        self.totals = [0.0] * players


class MctsBot:
    name = "mcts"

    def __init__(self, seed: int = 0, iterations: int = 150, horizon: int = 1, c: float = 0.7) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.horizon = horizon
        self.c = c
        self.policy = GreedyBot(seed=seed)

    def choose(self, state: State) -> str:
        return max(self.rank(state), key=lambda mv: mv[1])[0]

    def rank(self, state: State) -> list[tuple[str, float]]:
        """Legal moves with their visit share and mean value for the mover, most visited first."""
        moves = state.legal_actions()
        if len(moves) == 1:
            return [(moves[0], 1.0)]
        seat = state.current_player()
        root = Node(moves, state.rules.players)
        for _ in range(self.iterations):
            self._simulate(state.clone(), root)
        ranked = [(m, child.visits + child.totals[seat] / max(1, child.visits)) for m, child in root.children.items()]
        ranked.sort(key=lambda mv: -mv[1])
        return ranked

    def _simulate(self, state: State, root: Node) -> None:
        path = [root]
        node = root
        stop_turn = state.turn + self.horizon
        while not state.is_terminal() and state.turn < stop_turn:
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
                if node.untried:
                    move = node.untried.pop(int(self.rng.random() * len(node.untried)))
                    state.apply_trusted(move)
                    child = node.children[move] = self._new_node(state)
                    path.append(child)
                    break
                move, node = self._select(node, mover)
                state.apply_trusted(move)
            path.append(node)
        values = self._rollout(state, stop_turn)
        for n in path:
            n.visits += 1
            for s, v in enumerate(values):
                n.totals[s] += v

    def _new_node(self, state: State) -> Node:
        moves = None if state.is_chance_node() or state.is_terminal() else state.legal_actions()
        return Node(moves, state.rules.players)

    def _select(self, node: Node, mover: int) -> tuple[str, Node]:
        log_n = math.log(node.visits + 1)

        def uct(item: tuple[str, Node]) -> float:
            child = item[1]
            return child.totals[mover] / child.visits + self.c * math.sqrt(log_n / child.visits)

        return max(node.children.items(), key=uct)

    def _rollout(self, state: State, stop_turn: int) -> list[float]:
        while not state.is_terminal() and state.turn < stop_turn:
            if state.is_chance_node():
                state.sample_chance(self.rng)
            else:
                state.apply_trusted(self.policy.choose(state))
        return [evaluate(state, s) for s in range(state.rules.players)]
