"""Why Double Spot games end short of the target: measurements behind docs/double-spot.md.

    python benchmarks/double_spot_study.py games greedy greedy --games 500 --seed 1
    python benchmarks/double_spot_study.py games greedy greedy --games 500 --rules '{"lifts": 3}'
    python benchmarks/double_spot_study.py deck --fills 1000 --seed 1
    python benchmarks/double_spot_study.py match --bots search,greedy --games 2000 --seed 1 --log m.jsonl

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


SAID = {"new card": "a new card was already one disc short", "standing": "left standing by the opponent's last drop",
        "handed over": "handed over by the opponent's last drop"}


def finish_source(spot: tuple[int, str], holders: tuple[str | None, ...], last_targets: set[tuple[int, str]],
                  last_holders: tuple[str | None, ...]) -> str:
    """Where a finish came from: ``new card`` (a card revealed since the opponent's drop was already one
    disc short), ``standing`` (the opponent left it standing) or ``handed over`` (the opponent's drop made it)."""
    if holders != last_holders and spot not in last_targets:
        return "new card"
    return "standing" if spot in last_targets else "handed over"


def cards_made(state: State, spot: tuple[int, str]) -> int:
    return sum(through_after(state, c, spot) for c in state.showing() if c is not None)


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
            source = SAID[finish_source(spot, holders, last[0], last[1])]
            stats["card by a drop: " + source] += cards_made(state, spot)
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


def traced(names: list[str], seed: int, game: int, rules: Rules) -> tuple[State, list[tuple[int, int, str]]]:
    """One arena game (same seating seeds as ``play``) and its cards in order: (seat, cards, where from).

    Where from: ``reveal`` (the new card was already on the frame), ``forced`` (a finish handed over by a
    drop whose roll left no safe drop), ``unforced`` (handed over although a safe drop existed), ``standing``
    (a finish the opponent left standing), ``new card`` (a new card already one disc short).
    """
    bots = [make(name, seed=(seed * 1_000_003 + game) * 7 + s) for s, name in enumerate(names)]
    judge = ExpectimaxBot(0)
    rng = random.Random(f"{seed}:{game}")
    state = Game(rules).new_initial_state()
    events: list[tuple[int, int, str]] = []
    last: tuple[set[tuple[int, str]], tuple[str | None, ...], bool] = (set(), (), False)
    while not state.is_terminal():
        if state.is_chance_node():
            before = state.scores()
            state.sample_chance(rng)
            events += [(s, b - a, "reveal") for s, (a, b) in enumerate(zip(before, state.scores(), strict=True))
                       if b > a]
            continue
        targets, holders, seat = finishing_drops(state), tuple(state.holders), state.seat
        move = bots[seat].choose(state)
        spot = drop_target(state, move)
        forced = False
        if spot in targets:
            source = finish_source(spot, holders, last[0], last[1])
            if source == "handed over":
                source = "forced" if last[2] else "unforced"
            events.append((seat, cards_made(state, spot), source))
        else:
            safe = [j for j in judge.judge(state) if not j.takes]
            forced = bool(safe) and min(j.gives for j in safe) > 0
        state.apply_trusted(move)
        last = (targets, holders, forced)
    return state, events


def luck(args: argparse.Namespace) -> None:
    """Where the card that decided each game came from, and how the first seat did."""
    rules = Rules(**json.loads(args.rules))
    decisive: Counter[str] = Counter()
    every: Counter[str] = Counter()
    seat0 = 0.0
    for g in range(args.games):
        names = [args.a, args.b] if g % 2 == 0 else [args.b, args.a]
        state, events = traced(names, args.seed, g, rules)
        seat0 += state.returns()[0]
        for _, n, source in events:
            every[source] += n
        decisive[_decider(state, events)] += 1
    n = args.games
    low, high = wilson(seat0, n)
    print(f"{args.a} vs {args.b}, {n} games, rules {rules.to_dict()}, seed {args.seed}")
    print(f"first seat scored {seat0 / n:.3f} [{low:.3f}, {high:.3f}]")
    print("cards by source: " + ", ".join(f"{k} {v}" for k, v in every.most_common()))
    print("the card that gave the winner the lead for good: "
          + ", ".join(f"{k} {v} ({v / n:.0%})" for k, v in decisive.most_common()))


def _decider(state: State, events: list[tuple[int, int, str]]) -> str:
    """The source of the card after which the winner led for good (``draw`` if nobody won)."""
    returns = state.returns()
    if returns[0] == returns[1]:
        return "draw"
    w = 0 if returns[0] > returns[1] else 1
    lead, source = 0, "?"
    for seat, n, where in events:
        before = lead
        lead += n if seat == w else -n
        if before <= 0 < lead:
            source = where
    return source


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
    """Time every decision of one bot in seeded games against greedy (seats rotated): CPU time and wall time.

    CPU time is the bot's own cost (the machine is shared, and the wall clock mostly measures the others);
    wall time is what a budget in ``time_ms`` limits, so its maximum is the figure to hold against the budget.
    """
    import time

    from spots.arena import percentile

    cpu: list[float] = []
    wall: list[float] = []
    depths: Counter[int] = Counter()  # the search bot's deepest finished search, per decision
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
            start, clock = time.process_time(), time.perf_counter()
            move = bot.choose(state)
            if bot is bots[g % 2]:
                cpu.append(time.process_time() - start)
                wall.append(time.perf_counter() - clock)
                if hasattr(bot, "reached"):
                    depths[bot.reached] += 1
            state.apply_action(move)
    print(f"{args.bot} {args.budget}: {len(cpu)} decisions in {args.games} games against greedy")
    for label, times in (("CPU time", sorted(cpu)), ("wall time", sorted(wall))):
        print(f"  {label}: median {1000 * percentile(times, 0.5):.1f} ms, 90th percentile "
              f"{1000 * percentile(times, 0.9):.1f} ms, 99th percentile {1000 * percentile(times, 0.99):.1f} ms, "
              f"slowest {1000 * times[-1]:.1f} ms")
    if depths:
        print("  turns searched: " + ", ".join(f"{d}: {n} decisions" for d, n in sorted(depths.items())))


def match(args: argparse.Namespace) -> None:
    """``spots arena``'s games one by one (same seating and seeds), each appended to a log as it ends.

    On a loaded machine a 2,000-game match takes hours: the log keeps every finished game, a run
    resumes where the log stops, and ``--report`` summarises whatever is there (Wilson interval,
    wins/draws/losses, how games ended, decision times with the maximum).
    """
    import time as clock
    from pathlib import Path

    from spots.arena import play_one
    from spots.core.games import get

    logs = [Path(p) for p in args.log.split(",")]
    log = logs[0]
    done = [json.loads(line) for p in logs if p.exists() for line in p.read_text().splitlines()]
    names = [n.strip() for n in args.bots.split(",")]
    budget = json.loads(args.budget)
    rules = get("double-spot").make_rules(**json.loads(args.rules))
    if not args.report:
        with log.open("a") as out:
            for g in range(max((r["game"] + 1 for r in done), default=args.first), args.games):
                r = play_one(rules, names, args.seed, g, budget, "double-spot")
                row = {"game": g, "seats": r.seats, "returns": r.returns, "ending": r.ending,
                       "times": r.decision_times, "at": clock.time()}
                out.write(json.dumps(row) + "\n")
                out.flush()
                done.append(row)
    report(done, names)


def report(rows: list[dict[str, Any]], names: list[str]) -> None:
    """Each bot's score with its Wilson interval, W/D/L, endings and decision times (wall clock, ms)."""
    from spots.arena import percentile

    endings = Counter(r["ending"] for r in rows)
    print(f"{len(rows)} games; endings: " + ", ".join(f"{n} {e}" for e, n in endings.most_common()))
    for name in dict.fromkeys(names):
        got = [r["returns"][s] for r in rows for s, n in enumerate(r["seats"]) if n == name]
        times = sorted(t for r in rows for s, n in enumerate(r["seats"]) if n == name for t in r["times"][s])
        if not got:
            continue
        low, high = wilson(sum(got), len(got))
        w, d = sum(v == 1.0 for v in got), sum(v == 0.5 for v in got)
        print(f"{name}: {sum(got) / len(got):.3f} [{low:.3f}, {high:.3f}] over {len(got)} seats "
              f"({w} W, {d} D, {len(got) - w - d} L); decisions {len(times)}: median "
              f"{1000 * percentile(times, 0.5):.1f} ms, p99 {1000 * percentile(times, 0.99):.1f} ms, "
              f"max {1000 * times[-1]:.1f} ms")


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
    lk = sub.add_parser("luck", help="where the card that decided each game came from; the first seat's score")
    lk.add_argument("a")
    lk.add_argument("b")
    lk.add_argument("--games", type=int, default=200)
    lk.add_argument("--seed", type=int, default=1)
    lk.add_argument("--rules", default="{}")
    t = sub.add_parser("speed", help="decision times of a bot against greedy")
    t.add_argument("bot")
    t.add_argument("--games", type=int, default=20)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--rules", default="{}")
    t.add_argument("--budget", default="{}", help='the bot\'s options as JSON, e.g. {"deep": 0}')
    m = sub.add_parser("match", help="spots arena's games, logged one by one (resumable; --report summarises)")
    m.add_argument("--bots", required=True, help="two bot names, as for spots arena --bots")
    m.add_argument("--games", type=int, default=2000, help="play up to this game number (exclusive)")
    m.add_argument("--first", type=int, default=0, help="the first game number (to split a match over processes)")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--rules", default="{}")
    m.add_argument("--budget", default="{}", help="per-bot options as JSON, as for spots arena --budget")
    m.add_argument("--log", required=True, help="JSON lines, one per game; a run resumes after its last game "
                   "(--report: several logs, comma-separated)")
    m.add_argument("--report", action="store_true", help="only summarise the log")
    args: Any = parser.parse_args(argv)
    {"games": games, "deck": deck, "speed": speed, "match": match, "luck": luck}[args.what](args)


if __name__ == "__main__":
    main()
