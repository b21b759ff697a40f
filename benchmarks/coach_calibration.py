"""How true the coach's chances are on held-out games: calibration, the horizon gap at turn starts, the residual.

    python benchmarks/coach_calibration.py --games 60 --bots greedy --value learned-raw --jobs 2
    python benchmarks/coach_calibration.py --games 45 --bots greedy --value learned-raw --fit --jobs 2
    python benchmarks/coach_calibration.py --games 45 --first 100 --jobs 2    # the shipped recalibration, other games

Held-out games (dice from 9000 + the game's index, nothing was fitted to them): 2, 3 and 4 seats in turn, a random
trick set each, to 3 dogs, every seat the same bot (equal players, as the evaluator assumes). Every game is analysed
by the coach with ``--value`` at the turn's end, and printed:

- the Brier score and log-loss of its chances at every step against who won, and a reliability table by tenths;
- the horizon gap: at each turn start, the mover's chance as the search of the turn sees it (the best move's value)
  minus its chance as the turn's end that led there saw it (``TurnEnd``), with a 95% interval. Zero means the value
  at the turn's end already knows what the mover's search will make of the turn (no lean to ending or going on);
- the residual per seat and game (``docs/analysis.md``).

``--fit`` also fits the learned model's recalibration (a temperature on the log-chances and a lift for the seat about
to move) by log-loss on the turn starts' raw chances, by a grid search, and prints the best pair.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

PLAYERS = (2, 3, 4)
SEED = 9000


def one_game(job: tuple[int, str, str, float, float, int]) -> dict[str, Any]:
    from spots.analysis import analyse
    from spots.core import games
    from spots.core.play import play_out
    from spots.games.spots import coach

    index, bot, value, temperature, lift, target = job
    spec = games.get("spots")
    rules = spec.make_rules(players=PLAYERS[index % 3], target=target, tricks="random", tricks_seed=SEED + index)
    state = spec.new_state(rules)
    play_out(state, [spec.make_bot(bot, seed=SEED + index * 10 + s) for s in range(rules.players)],
             random.Random(SEED + index))
    search = coach.evaluator(value)
    if value == "learned":
        search.turn_end.temperature, search.turn_end.lift = temperature, lift
    report = analyse(spec.record(state), search)
    # the raw model's chances at every turn start, with whose turn it is, for fitting a recalibration
    raw = []
    replay = spec.new_state(rules)
    learned = search.turn_end.learned
    gaps = []
    for k, step in enumerate(report.steps):
        if replay.phase == "turn" and k > 0:
            if learned is not None and not coach.decided(replay):
                raw.append((learned.chances(replay), replay.seat))
            if step.kind == "decision":
                gaps.append(step.before[step.seat] - report.steps[k - 1].after[step.seat])
        replay.apply_action(step.move)
    return {"chart": [list(v) for v in report.chart[:-1]], "result": list(report.result), "gaps": gaps,
            "raw": raw, "residual": [abs(p.residual) for p in report.players]}


def brier(rows: list[dict[str, Any]]) -> tuple[float, float, list[tuple[int, float, float]]]:
    pairs = [(v, won) for r in rows for values in r["chart"] for v, won in zip(values, r["result"], strict=True)]
    score = statistics.mean((v - won) ** 2 for v, won in pairs)
    loss = -statistics.mean(won * math.log(max(v, 1e-9)) + (1 - won) * math.log(max(1 - v, 1e-9))
                            for v, won in pairs if won in (0.0, 1.0))
    table = []
    for tenth in range(10):
        inside = [(v, won) for v, won in pairs if tenth / 10 <= v < (tenth + 1) / 10 or (tenth == 9 and v == 1.0)]
        if inside:
            table.append((len(inside), statistics.mean(v for v, _ in inside), statistics.mean(w for _, w in inside)))
        else:
            table.append((0, float("nan"), float("nan")))
    return score, loss, table


def fit(rows: list[dict[str, Any]]) -> tuple[float, float, float, float]:
    """The temperature and lift with the least log-loss over the turn starts' raw chances (and the raw log-loss)."""
    cases = [(chances, seat, r["result"]) for r in rows for chances, seat in r["raw"]]

    def loss(t: float, b: float) -> float:
        total = 0.0
        for chances, seat, result in cases:
            logits = [math.log(max(c, 1e-300)) / t for c in chances]
            logits[seat] += b
            top = max(logits)
            norm = top + math.log(sum(math.exp(x - top) for x in logits))
            total -= sum(w * (x - norm) for w, x in zip(result, logits, strict=True))
        return total / len(cases)

    grid = [(loss(t / 20, b / 40), t / 20, b / 40) for t in range(12, 33) for b in range(-12, 13)]
    best = min(grid)
    return best[1], best[2], best[0], loss(1.0, 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--first", type=int, default=0, help="the first game's index (another set of held-out games)")
    parser.add_argument("--bots", default="greedy", help="the bot in every seat")
    parser.add_argument("--value", default="learned", help="the coach's value: learned, learned-raw or linear")
    parser.add_argument("--temperature", type=float, default=None, help="override the shipped recalibration")
    parser.add_argument("--lift", type=float, default=None)
    parser.add_argument("--target", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--fit", action="store_true")
    args = parser.parse_args()
    from spots.games.spots.coach import CALIBRATION

    temperature = CALIBRATION[0] if args.temperature is None else args.temperature
    lift = CALIBRATION[1] if args.lift is None else args.lift
    games = range(args.first, args.first + args.games)
    jobs = [(i, args.bots, args.value, temperature, lift, args.target) for i in games]
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(one_game, jobs))
    score, loss, table = brier(rows)
    positions = sum(len(r["chart"]) for r in rows)
    print(f"{args.games} games (from {args.first}) of {args.bots}, value {args.value} (temperature {temperature}, "
          f"lift {lift}): "
          f"Brier {score:.4f}, log-loss {loss:.4f} over {positions} positions")
    print("predicted   positions  mean    won")
    for tenth, (count, mean, won) in enumerate(table):
        print(f"{tenth / 10:.1f}-{(tenth + 1) / 10:.1f}  {count:9d}  {mean:.3f}  {won:.3f}")
    gaps = [g for r in rows for g in r["gaps"]]
    half = 1.96 * statistics.stdev(gaps) / math.sqrt(len(gaps))
    print(f"horizon gap at {len(gaps)} turn starts (the mover's searched chance minus the turn end's): mean "
          f"{statistics.mean(gaps):+.4f} [{statistics.mean(gaps) - half:+.4f}, {statistics.mean(gaps) + half:+.4f}], "
          f"mean size {statistics.mean(map(abs, gaps)):.4f}, positive in {sum(g > 0 for g in gaps) / len(gaps):.0%}")
    residuals = [x for r in rows for x in r["residual"]]
    print(f"|residual| per seat and game: mean {statistics.mean(residuals):.3f}, median "
          f"{statistics.median(residuals):.3f}, largest {max(residuals):.3f}")
    if args.fit and any(r["raw"] for r in rows):
        t, b, best, raw = fit(rows)
        print(f"recalibration by log-loss at {sum(len(r['raw']) for r in rows)} turn starts: temperature {t:.2f}, "
              f"lift {b:+.3f} (log-loss {best:.4f}, raw {raw:.4f})")


if __name__ == "__main__":
    main()
