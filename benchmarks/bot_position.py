"""Take one slow position of ``bot_time.py`` apart: each search variant's CPU time and positions on it.

    python benchmarks/bot_position.py --game 11 --decision 103

Replays game ``--game`` of ``benchmarks/bot_time.py`` (expectimax-v1 against greedy, the same
seeds) up to decision ``--decision`` (the index the benchmark prints beside its slowest
decisions), then times on that one position: v1 as it plays and without its node cap, and the
new search at depth 2 with a roll's dice resolved in every order and lowest face first, and
with its default budget. A figure, not a test.
"""

from __future__ import annotations

import argparse
import random
import time

import spots
from spots.bots import make
from spots.games.spots.expectimax import ExpectimaxBot
from spots.games.spots.expectimax_v1 import ExpectimaxV1Bot
from spots.games.spots.state import State


class EveryOrder(ExpectimaxBot):
    """The new search without the one-order shortcut: a roll's dice resolved in every order."""

    @staticmethod
    def candidates(state: State) -> list[str]:
        return state.legal_actions()


def replay(game: int, decision: int, seed: int) -> State:
    rules = spots.Rules(players=2, tricks="random", tricks_seed=game)
    state = spots.Game(rules).new_initial_state()
    me = game % 2
    bots = {me: make("expectimax-v1", seed=seed * 1000 + game), 1 - me: make("greedy", seed=game)}
    rng = random.Random(f"{seed}:{game}")
    done = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        if done == decision:
            return state
        state.apply_action(bots[state.current_player()].choose(state))
        done += 1
    raise SystemExit(f"game {game} ended after {done} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", type=int, required=True)
    parser.add_argument("--decision", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0, help="bot_time.py's --seed")
    args = parser.parse_args()
    state = replay(args.game, args.decision, args.seed)
    player = state.players[state.seat]
    print(f"tile {state.trick or 'turn start'}, phase {state.phase}, yard {player.yard}, dogs "
          + ", ".join(f"{d.name} {d.spaces} filled {d.filled}" for d in player.dogs if not d.scored))
    searches: list[tuple[str, ExpectimaxV1Bot | ExpectimaxBot]] = [
                ("expectimax-v1 (nodes=2000)", ExpectimaxV1Bot(seed=args.game)),
                ("expectimax-v1, no node cap", ExpectimaxV1Bot(seed=args.game, nodes=10**9)),
                ("depth 2, dice in every order", EveryOrder(nodes=10**9, depth=2)),
                ("depth 2, lowest face first", ExpectimaxBot(nodes=10**9, depth=2)),
                ("expectimax default", ExpectimaxBot())]
    print("| search | CPU ms | positions | depth finished | answer |\n|---|---:|---:|---:|---|")
    for label, bot in searches:
        began = time.process_time()
        best = bot.rank(state.clone())[0][0]
        spent = 1000 * (time.process_time() - began)
        used = getattr(bot, "used", None)
        reached = getattr(bot, "reached", None)
        print(f"| {label} | {spent:.0f} | {'-' if used is None else used} | {'-' if reached is None else reached} "
              f"| {best} |")


if __name__ == "__main__":
    main()
