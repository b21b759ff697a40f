"""Replay one game of ``benchmarks/spots_arena.py`` turn by turn, with what the search bots thought.

    python benchmarks/arena_game.py --bots expectimax,greedy --seed 12 --game 6

The game is played exactly as the arena plays game ``--game`` of ``--seed`` (the same
trick set, seats, bot seeds and dice; node budgets make it the same on any machine).
Each turn prints every seat's scored dogs, yard total, treats and the empty spaces of its
unscored dogs, then the turn's moves; a decision of a bot that ranks its moves (expectimax)
shows its three best with their estimated win chances, so a lost game can be read for the
decision that lost it.
"""

from __future__ import annotations

import argparse
import random

import spots
from spots.arena import hash_seed, seating
from spots.bots import make
from spots.games.spots.state import State
from spots.study.play import parse_bot


def table(state: State) -> str:
    """Each seat: (scored dogs, yard total, treats, unscored dogs with their empty spaces)."""
    rows = []
    for p in state.players:
        dogs = " ".join(f"{d.name}:{len(d.empty_spaces())}" for d in p.dogs if not d.scored)
        rows.append(f"{sum(d.scored for d in p.dogs)} scored, yard {p.yard_total()}, {p.treats} treats, {dogs}")
    return " | ".join(rows)


def replay(names: list[str], players: int, seed: int, game: int) -> None:
    seats = seating(names, players, game)
    bots = []
    for s, spec in enumerate(seats):
        name, options = parse_bot(spec)
        bots.append(make(name, seed=hash_seed(seed, game, s), **options))
    rng = random.Random(f"{seed}:{game}")
    state = spots.Game(spots.Rules(players=players, tricks="random", tricks_seed=game)).new_initial_state()
    print(f"seats {seats}, tricks {state.rules.tricks}")
    moves: list[str] = []
    turn = -1
    while not state.is_terminal():
        if state.is_chance_node():
            moves.append(state.sample_chance(rng))
            continue
        seat = state.current_player()
        if state.turn != turn:
            print("   ", " ".join(moves))
            print(f"turn {state.turn}, seat {seat} ({seats[seat]}): {table(state)}")
            turn, moves = state.turn, []
        bot = bots[seat]
        if hasattr(bot, "rank") and len(state.legal_actions()) > 1:
            ranked = bot.rank(state)
            move = ranked[0][0]
            moves.append("[" + ", ".join(f"{m} {v:.3f}" for m, v in ranked[:3]) + "]")
        else:
            move = bot.choose(state)
            moves.append(move)
        state.apply_action(move)
    print("   ", " ".join(moves))
    print(f"returns {state.returns()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", required=True, help="as in spots_arena.py")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", type=int, default=0)
    args = parser.parse_args()
    replay(args.bots.split("/" if "/" in args.bots else ","), args.players, args.seed, args.game)


if __name__ == "__main__":
    main()
