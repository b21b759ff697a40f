"""Bots for Double Spot and a factory by name: ``random``, ``greedy`` and ``mcts``.

Every bot has ``choose(state) -> move`` and is deterministic under its seed.
``random`` is the shared ``spots.core.bots.RandomBot`` and ``mcts`` is the
package's one search (``spots.core.mcts``) with a Double Spot rollout and value.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ...core.bots import Bot, RandomBot, make_bot
from ...core.mcts import Mcts, random_policy
from .expectimax import ExpectimaxBot
from .patterns import KIND, finishes, through
from .state import FACE_KIND, FACES, State, face_colours, seen_by


def finishing_drops(state: State) -> set[tuple[int, str]]:
    """(board column, colour on seat 0's side) pairs whose drop completes a face-up card."""
    out: set[tuple[int, str]] = set()
    for card in state.showing():
        if card is not None:
            out |= finishes(state.board, card, state.rules.rows)
    return out


def finish_chance(supply: dict[str, int], seat: int, targets: set[tuple[int, str]]) -> float:
    """The chance that ``seat``'s next roll (with this disc supply) lets it make one of ``targets``."""
    if not targets:
        return 0.0
    wanted = {c for _, c in targets}
    faces = [f for f in FACES if supply[FACE_KIND[f]]]
    good = [f for f in faces if any(seen_by(seat, c) in wanted for c in face_colours(f))]
    return len(good) / len(faces) if faces else 0.0


class GreedyBot:
    """Takes the most cards it can now; otherwise leaves the opponent the least chance of a one-disc finish.

    Ties are broken at random (seeded), so two greedy bots do not mirror each other.
    Moves are tried on a scratch copy of the board (no state clones): the bot is
    also the rollout policy of the stronger MCTS set-ups, so it must be quick.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> str:
        return max(self.scored(state), key=lambda ms: (ms[1], self.rng.random()))[0]

    def scored(self, state: State) -> list[tuple[str, float]]:
        """Every legal move with its score: cards gained, less the opponent's chance of a finish."""
        seat, rules = state.seat, state.rules
        board = [list(col) for col in state.board]
        cards = [c for c in state.showing() if c is not None]
        mine, theirs = len(state.won[seat]), len(state.won[1 - seat])
        last = sum(len(col) for col in board) + 1 == rules.cells
        out = []
        for move in state.legal_actions():
            _, n, colour = move.split()
            col, disc = state.column_index(int(n)), seen_by(seat, colour)
            column = board[col]
            column.append(disc)
            gained = sum(through(board, card, col, len(column) - 1) for card in cards)
            if gained:
                score = 10.0 * gained + (100.0 if mine + gained >= rules.target else 0.0)
            elif last:
                score = 100.0 if mine > theirs else (-100.0 if mine < theirs else 0.0)
            else:
                targets: set[tuple[int, str]] = set()
                for card in cards:
                    targets |= finishes(board, card, rules.rows)
                supply = dict(state.supply)
                supply[KIND[disc]] -= 1
                score = -finish_chance(supply, 1 - seat, targets) - 0.001 * len(targets)
            column.pop()
            out.append((move, score))
        return out


def claim_policy(state: State, rng: random.Random) -> str:
    """The rollout policy: finish a card when the roll allows it, otherwise drop at random."""
    moves = state.legal_actions()
    targets = finishing_drops(state)
    if targets:
        for move in moves:
            _, n, colour = move.split()
            if (state.column_index(int(n)), seen_by(state.seat, colour)) in targets:
                return move
    return moves[int(rng.random() * len(moves))]


def card_value(state: State) -> list[float]:
    """A win estimate for cut-off rollouts: card lead over the target, plus the mover's chance of a finish.

    At a roll the seat about to move may finish a card with the disc it gets, so
    that chance is counted as part of a card: a cut-off should not hide a handed-over finish.
    """
    a, b = state.scores()
    lead = float(a - b)
    if state.is_chance_node() and state.legal_actions()[0].startswith("roll"):
        chance = finish_chance(state.supply, state.seat, finishing_drops(state))
        lead += chance if state.seat == 0 else -chance
    p = min(1.0, max(0.0, 0.5 + lead / (2 * state.rules.target)))
    return [p, 1.0 - p]


def greedy_prior(state: State) -> dict[str, float]:
    """Greedy's scores as win estimates in the value function's units (a card is 1 / (2 × target))."""
    scale = 1.0 / (2 * state.rules.target)
    return {m: 0.5 + max(-1.0, min(1.0, s)) * scale for m, s in GreedyBot(0).scored(state)}


def mcts(
    seed: int = 0,
    iterations: int = 600,
    depth: int = 2,
    c: float = 0.1,
    rollout: str = "claim",
    prior_weight: float = 20.0,
) -> Mcts:
    """The search that beat greedy in the arena: 600 simulations cut off after two decisions (the reply
    included), greedy's scores as a 20-visit prior at the root. Deeper cut-offs with the cheap rollout were
    weaker (its own random drops hand over finishes); greedy rollouts were as strong but several times slower.
    """
    policy: Callable[[Any, random.Random], str] = claim_policy
    if rollout == "random":
        policy = random_policy
    elif rollout == "greedy":
        greedy = GreedyBot(seed)

        def policy(state: State, rng: random.Random) -> str:
            return greedy.choose(state)
    return Mcts(
        policy, card_value, players=2, seed=seed, iterations=iterations, depth=depth, c=c,
        prior=greedy_prior, prior_weight=prior_weight,
    )


BOTS: dict[str, Callable[..., Any]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": mcts,
    "expectimax": ExpectimaxBot,
}


def make(name: str, seed: int = 0, **budget: Any) -> Bot:
    """A Double Spot bot by name (see ``BOTS``); ``budget`` goes to bots that take one (mcts)."""
    return make_bot(BOTS, name, seed, **budget)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make"]
