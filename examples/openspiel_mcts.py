"""OpenSpiel's own MCTS (``open_spiel.python.algorithms.mcts.MCTSBot``) plays ``python_spots``.

    python examples/openspiel_mcts.py [--games 20] [--simulations 100] [--target 3] [--opponent random]

OpenSpiel's search runs on the ``python_spots`` game as it is registered (chance nodes,
action ids, returns); its games are played by OpenSpiel's ``evaluate_bots``. Our bots
join through a small ``pyspiel.Bot`` adapter. Rollouts to the end of a game of Spots
take hundreds of random moves, so the leaf evaluator here is a static one instead of
OpenSpiel's ``RandomRolloutEvaluator`` (``--rollouts N`` switches to that): each seat's
value is its lead in scored dogs over the best other seat, divided by the target. Seats
alternate game by game; the win rate comes with its 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, mcts

import spots.rl  # noqa: F401  (registers python_spots)
from spots import bots
from spots.arena import wilson
from spots.rl.actions import encode


class ScoredDogsEvaluator(mcts.Evaluator):
    """A leaf's value for each seat: (its scored dogs - the best other seat's) / target; uniform priors."""

    def evaluate(self, state: Any) -> np.ndarray:
        engine = state.engine
        scored = np.array([p.scored_count() for p in engine.players], dtype=float)
        best_other = np.array([max(np.delete(scored, s)) for s in range(len(scored))])
        return (scored - best_other) / engine.rules.target

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


class SpotsBot(pyspiel.Bot):
    """One of our bots (``spots.bots.make``) as an OpenSpiel bot: it reads the engine state behind python_spots."""

    def __init__(self, name: str, seed: int) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bots.make(name, seed=seed)

    def step(self, state: Any) -> int:
        return encode(self.bot.choose(state.engine))

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--rollouts", type=int, default=0, help="use RandomRolloutEvaluator with N rollouts")
    parser.add_argument("--target", type=int, default=3)
    parser.add_argument("--opponent", default="random", help="one of spots.bots.names()")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = pyspiel.load_game("python_spots", {"players": 2, "target": args.target})
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(args.rollouts, rng) if args.rollouts else ScoredDogsEvaluator()
    wins = 0.0
    start = time.perf_counter()
    for g in range(args.games):
        search = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator,
                              solve=False, random_state=np.random.RandomState(args.seed * 1000 + g))
        seat = g % 2
        players: list[Any] = [None, None]
        players[seat] = search
        players[1 - seat] = SpotsBot(args.opponent, seed=args.seed * 1000 + g)
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), players, rng)
        wins += returns[seat]
        print(f"game {g + 1}: MCTS in seat {seat} {'won' if returns[seat] == 1 else 'lost'}", flush=True)
    low, high = wilson(wins, args.games)
    evaluator_name = f"random rollouts x{args.rollouts}" if args.rollouts else "scored-dogs lead"
    print(f"OpenSpiel MCTSBot ({args.simulations} simulations, {evaluator_name}) vs {args.opponent}, "
          f"2 players, target {args.target}: won {wins:g} of {args.games} = {wins / args.games:.0%} "
          f"(95% Wilson {low:.0%}-{high:.0%}), {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
