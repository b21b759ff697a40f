"""Fit the value function's weights (``spots.games.spots.value.Weights``) to who actually wins, from seeded self-play.

    python benchmarks/fit_value.py --games 3000 --seed 5

Procedure (documented in docs/bots.md, "How the weights were found"):

1. Play ``--games`` two-player games of greedy bots (each seat's stop threshold
   ``risk`` drawn from 0.1, 0.25, 0.4 so the positions vary), each game with its own
   random trick set (``tricks_seed`` = game), dice from ``random.Random(f"{seed}:{game}")``.
2. At the start of every turn, take the position as the bot's search sees it at the
   end of its own turn: from the view of the seat that is **not** to move. Its
   features minus the opponent's (the ``Weights`` terms: scored dogs, complete dogs,
   incomplete dogs by empty spaces 1/2/3/4+, buried spots and their square, treats up
   to the cap and beyond) are one row; the label is whether that seat won.
3. Fit a logistic regression without intercept (Newton's method, a small ridge
   penalty) and express it in the value function's units: a scored dog is 100 points,
   ``scale`` = 100 / the scored-dog coefficient, every other weight = coefficient x scale.

Prints the fitted weights (as a ``Weights(...)`` line to paste into ``value.py``),
the log-loss of the fit and of today's ``DEFAULT`` weights on the same rows.
Needs numpy (the ``rl`` extra).
"""

from __future__ import annotations

import argparse
import math
import random

import numpy as np

import spots
from spots.games.spots.greedy import GreedyBot
from spots.games.spots.state import State
from spots.games.spots.value import DEFAULT, Weights

NAMES = ["scored", "complete", "empty1", "empty2", "empty3", "empty4+", "yard", "yard_square", "treat", "treat_extra"]


def features(state: State, seat: int, cap: int = DEFAULT.treat_cap) -> list[float]:
    player = state.players[seat]
    row = [0.0] * len(NAMES)
    for dog in player.dogs:
        if dog.scored:
            row[0] += 1
        elif dog.complete:
            row[1] += 1
        else:
            row[2 + min(len(dog.spaces) - len(dog.filled), 4) - 1] += 1
    yard = player.yard_total()
    row[6], row[7] = -yard, -yard * yard  # penalties: the weights are subtracted in ``standing``
    row[8], row[9] = min(player.treats, cap), max(0, player.treats - cap)
    return row


def collect(games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rows: list[list[float]] = []
    labels: list[float] = []
    for game in range(games):
        rng = random.Random(f"{seed}:{game}")
        state = spots.Game(spots.Rules(players=2, tricks="random", tricks_seed=game)).new_initial_state()
        bots = [GreedyBot(risk=rng.choice([0.1, 0.25, 0.4])) for _ in range(2)]
        seen: list[tuple[int, list[float]]] = []
        last_turn = -1
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            if state.turn != last_turn:
                last_turn = state.turn
                waiting = 1 - state.seat
                mine, theirs = features(state, waiting), features(state, state.seat)
                seen.append((waiting, [a - b for a, b in zip(mine, theirs, strict=True)]))
            state.apply_trusted(bots[state.seat].choose(state))
        result = state.returns()
        for seat, row in seen:
            rows.append(row)
            labels.append(result[seat])
    return np.array(rows), np.array(labels)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3, steps: int = 30) -> np.ndarray:
    beta = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-x @ beta))
        grad = x.T @ (p - y) + ridge * beta
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(x.shape[1])
        beta -= np.linalg.solve(hess, grad)
    return beta


def log_loss(x: np.ndarray, y: np.ndarray, beta: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-x @ beta)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def as_beta(w: Weights) -> np.ndarray:
    by = w.by_empty
    return np.array([w.scored, w.complete, *by, w.yard, w.yard_square, w.treat, w.treat_extra]) / w.scale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    x, y = collect(args.games, args.seed)
    beta = fit(x, y)
    scale = 100 / beta[0]
    w = {name: float(b * scale) for name, b in zip(NAMES, beta, strict=True)}
    print(f"{len(y)} positions from {args.games} games (seed {args.seed})")
    print(f"log-loss: fitted {log_loss(x, y, beta):.4f}, DEFAULT {log_loss(x, y, as_beta(DEFAULT)):.4f}, "
          f"coin {math.log(2):.4f}")
    print(f"Weights(scored=100.0, complete={w['complete']:.1f}, by_empty=({w['empty1']:.1f}, {w['empty2']:.1f}, "
          f"{w['empty3']:.1f}, {w['empty4+']:.1f}), yard={w['yard']:.2f}, yard_square={w['yard_square']:.3f}, "
          f"treat={w['treat']:.1f}, treat_extra={w['treat_extra']:.1f}, scale={scale:.1f})")


if __name__ == "__main__":
    main()
