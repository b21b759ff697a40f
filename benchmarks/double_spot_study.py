"""Why Double Spot games end short of the target: measurements behind docs/double-spot.md.

    python benchmarks/double_spot_study.py games greedy greedy --games 500 --seed 1
    python benchmarks/double_spot_study.py games greedy greedy --games 500 --rules '{"lifts": 3}'
    python benchmarks/double_spot_study.py deck --fills 1000 --seed 1

``games`` plays seeded games (seats rotated, chance from ``Random(f"{seed}:{g}")`` as in the
arena) and prints how they end (the target or a full frame, how far from the target), where each
card came from, and how often a drop hands the opponent a one-disc finish (and whether the roll
left any other choice). ``deck`` fills empty frames by random play (random die, random open column,
random side of a split face) and prints, for each card, the chance it shows within N drops.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from typing import Any

from spots.arena import wilson
from spots.games.double_spot import Game, Rules, State, standard_deck
from spots.games.double_spot.bots import finishing_drops, make
from spots.games.double_spot.expectimax import ExpectimaxBot
from spots.games.double_spot.patterns import through
from spots.games.double_spot.state import face_colours, seen_by


def drop_target(state: State, move: str) -> tuple[int, str]:
    """(board column, colour on seat 0's side) of a drop by the mover."""
    _, n, colour = move.split()
    return state.column_index(int(n)), seen_by(state.seat, colour)


def play(names: list[str], seed: int, game: int, rules: Rules, stats: Counter[str]) -> State:
    """One game, counting where cards come from and every hand-over into ``stats``."""
    bots = [make(name, seed=(seed * 1_000_003 + game) * 7 + s) for s, name in enumerate(names)]
    judge = ExpectimaxBot(0)
    rng = random.Random(f"{seed}:{game}")
    state = Game(rules).new_initial_state()
    last: tuple[set[tuple[int, str]], tuple[str | None, ...]] = (set(), ())  # at the opponent's last drop
    while not state.is_terminal():
        if state.is_chance_node():
            before = sum(state.scores())
            if state.sample_chance(rng).startswith("reveal"):
                stats["cards taken at a reveal (already on the frame)"] += sum(state.scores()) - before
            continue
        targets, holders = finishing_drops(state), tuple(state.holders)
        move = bots[state.seat].choose(state)
        spot = drop_target(state, move)
        if spot in targets:
            made = sum(through_after(state, c, spot) for c in state.showing() if c is not None)
            if holders != last[1] and spot not in last[0]:
                source = "a new card was already one disc short"
            elif spot in last[0]:
                source = "left standing by the opponent's last drop"
            else:
                source = "handed over by the opponent's last drop"
            stats["card by a drop: " + source] += made
            state.apply_trusted(move)
        else:
            stats["drops"] += 1
            safe = [j for j in judge.judge(state) if not j.takes]
            state.apply_trusted(move)
            if not state.is_terminal() and finishing_drops(state):
                stats["hand-overs"] += 1
                if safe and min(j.gives for j in safe) > 0:
                    stats["hand-overs forced by the roll"] += 1
        last = (targets, holders)
    return state


def through_after(state: State, card: Any, spot: tuple[int, str]) -> bool:
    """Whether dropping ``spot`` completes ``card``."""
    board = [list(col) for col in state.board]
    board[spot[0]].append(spot[1])
    return through(board, card, spot[0], len(board[spot[0]]) - 1)


def games(args: argparse.Namespace) -> None:
    rules = Rules(**json.loads(args.rules))
    stats: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    best: Counter[int] = Counter()
    for g in range(args.games):
        names = [args.a, args.b] if g % 2 == 0 else [args.b, args.a]
        state = play(names, args.seed, g, rules, stats)
        ends[state.end_reason or "?"] += 1
        best[max(state.scores())] += 1
        stats["cards"] += sum(state.scores())
        stats["drops in all"] += sum(1 for m in state.history() if m.startswith("drop"))
    n = args.games
    target = sum(ends[r] for r in ends if r == "target")
    low, high = wilson(target, n)
    print(f"{args.a} vs {args.b}, {n} games, rules {rules.to_dict()}, seed {args.seed}")
    print(f"ended by the target: {target} ({target / n:.1%}, 95% Wilson [{low:.3f}, {high:.3f}]); "
          f"other ends: {dict((r, c) for r, c in ends.items() if r != 'target')}")
    print("leader's cards at the end: " + ", ".join(f"{k}: {best[k]}" for k in sorted(best)))
    print(f"mean cards per game {stats['cards'] / n:.2f}; mean drops per game {stats['drops in all'] / n:.1f}")
    taken = stats["cards"]
    print(f"cards: {taken}")
    for key in sorted(stats):
        if key.startswith("card by a drop: ") or key.startswith("cards taken at a reveal"):
            print(f"  {key}: {stats[key]} ({stats[key] / max(1, taken):.0%} of cards)")
    drops = stats["drops"]
    print(f"drops that take nothing: {drops}; leave the next player a one-disc finish: {stats['hand-overs']} "
          f"({stats['hand-overs'] / max(1, drops):.1%}), of which the roll allowed no safe drop: "
          f"{stats['hand-overs forced by the roll']}")


def deck(args: argparse.Namespace) -> None:
    rules = Rules(**json.loads(args.rules))
    cards = standard_deck()
    rng = random.Random(args.seed)
    first: dict[str, list[int]] = {c.id: [] for c in cards}
    faces = ("blue", "green", "pink", "yellow", "blue-green", "pink-yellow")
    for _ in range(args.fills):
        board: list[list[str]] = [[] for _ in range(rules.columns)]
        todo = list(cards)
        for drop in range(1, rules.cells + 1):
            open_cols = [x for x in range(rules.columns) if len(board[x]) < rules.rows]
            x = open_cols[int(rng.random() * len(open_cols))]
            options = face_colours(faces[int(rng.random() * 6)])
            board[x].append(options[int(rng.random() * len(options))])
            left = []
            for card in todo:
                if through(board, card, x, len(board[x]) - 1):
                    first[card.id].append(drop)
                else:
                    left.append(card)
            todo = left
    marks = [int(m) for m in args.within.split(",")]
    rows = []
    for card in cards:
        shares = [sum(d <= m for d in first[card.id]) / args.fills for m in marks]
        rows.append((shares[-1], card, shares))
    rows.sort(key=lambda r: r[0])
    print(f"{args.fills} random fills of a {rules.columns}x{rules.rows} frame, seed {args.seed}")
    print("| card | pattern | " + " | ".join(f"within {m}" for m in marks) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in marks) + " |")
    for _, card, shares in rows:
        print(f"| {card.id} | `{'/'.join(card.rows(0))}` | " + " | ".join(f"{s:.2f}" for s in shares) + " |")
    for i, m in enumerate(marks):
        mean = sum(r[2][i] for r in rows) / len(rows)
        print(f"mean over the deck, within {m} drops: {mean:.3f}; range {min(r[2][i] for r in rows):.2f}"
              f" to {max(r[2][i] for r in rows):.2f}")


def speed(args: argparse.Namespace) -> None:
    """Time every decision of one bot in seeded games against greedy (seats rotated), in CPU time.

    CPU time, not wall time: the machine is shared, and the wall clock mostly measures the others.
    """
    import statistics
    import time

    times: list[float] = []
    for g in range(args.games):
        bots = [make(args.bot, seed=g, **json.loads(args.budget)), make("greedy", seed=g)]
        if g % 2:
            bots.reverse()
        rng = random.Random(f"{args.seed}:{g}")
        state = Game(Rules(**json.loads(args.rules))).new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.sample_chance(rng)
                continue
            bot = bots[state.seat]
            start = time.process_time()
            move = bot.choose(state)
            if bot is bots[g % 2]:
                times.append(time.process_time() - start)
            state.apply_action(move)
    times.sort()
    print(f"{args.bot} {args.budget}: {len(times)} decisions in {args.games} games against greedy, CPU time: median "
          f"{1000 * statistics.median(times):.1f} ms, 90th percentile {1000 * times[int(0.9 * len(times))]:.1f} ms, "
          f"slowest {1000 * times[-1]:.1f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    g = sub.add_parser("games", help="how seeded bot games end and where their cards come from")
    g.add_argument("a")
    g.add_argument("b")
    g.add_argument("--games", type=int, default=200)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--rules", default="{}", help='rules options as JSON, e.g. {"lifts": 3}')
    d = sub.add_parser("deck", help="each card's chance to show within N random drops")
    d.add_argument("--fills", type=int, default=500)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--within", default="10,20,30,40")
    d.add_argument("--rules", default="{}")
    t = sub.add_parser("speed", help="decision times of a bot against greedy")
    t.add_argument("bot")
    t.add_argument("--games", type=int, default=20)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--rules", default="{}")
    t.add_argument("--budget", default="{}", help='the bot\'s options as JSON, e.g. {"deep": 0}')
    args: Any = parser.parse_args(argv)
    {"games": games, "deck": deck, "speed": speed}[args.what](args)


if __name__ == "__main__":
    main()
