"""The coach measured on bots: mean equity lost per decision by bot, Brier score, reliability, residual.

    PYTHONPATH=src python benchmarks/analysis_study.py --games 12 --target 3 --jobs 2 --out study.json
    PYTHONPATH=src python benchmarks/analysis_study.py --games 0 --calibration 20 --target 3 --jobs 2

Two-player Spots games among random, greedy and expectimax (its default budget), ``--games`` for
each pairing with the seats alternated, dice from the game's index; every game is analysed by the
coach. Printed: each bot's mean equity lost per decision that was not forced (pooled over its
decisions) with a 95% interval (bootstrap over games, seeded), and the decomposition's residual per
game. ``--calibration`` more games between two greedy bots (equal players, as the evaluator assumes;
held out: nothing was fitted to them, and they set no band) give the Brier score of the evaluator's
chances at every step against who won, with a reliability table by tenths. Between unequal bots the
result follows the bots more than the position, so their chances are not a fair calibration test
(printed too, marked so). The figures and the bands set from them are in docs/analysis.md.
"""

from __future__ import annotations

import argparse
import json
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from spots.analysis import analyse
from spots.core import games
from spots.core.play import play_out

PAIRINGS = (("random", "greedy"), ("greedy", "expectimax"), ("random", "expectimax"))


Job = tuple[int, str, str, int, str]  # game index, the two seats' bots, the target, the coach's value


def one_game(job: Job) -> dict[str, Any]:
    """Play one game (seats as given) and analyse it: per seat its bot, loss, decisions; every step's chances."""
    from spots.games.spots.coach import evaluator

    index, first, second, target, value = job
    spec = games.get("spots")
    state = spec.new_state(spec.make_rules(players=2, target=target))
    seats = [spec.make_bot(first, seed=index * 2), spec.make_bot(second, seed=index * 2 + 1)]
    rng = random.Random(index)
    play_out(state, seats, rng)
    report = analyse(spec.record(state, [first, second]), evaluator(value))
    return {"index": index, "bots": [first, second], "value": value, "result": list(report.result),
            "lost": [p.lost for p in report.players], "decisions": [p.decisions for p in report.players],
            "residual": [p.residual for p in report.players], "luck": [p.luck for p in report.players],
            "chances": [list(values) for values in report.chart[:-1]]}


def pooled(rows: list[dict[str, Any]], bot: str) -> tuple[float, int]:
    lost = sum(r["lost"][s] for r in rows for s in (0, 1) if r["bots"][s] == bot)
    decisions = sum(r["decisions"][s] for r in rows for s in (0, 1) if r["bots"][s] == bot)
    return (lost / decisions if decisions else 0.0), decisions


def interval(rows: list[dict[str, Any]], bot: str, rounds: int = 2000) -> tuple[float, float]:
    """A 95% bootstrap interval of the pooled mean loss, resampling whole games (seeded)."""
    rng = random.Random(0)
    mine = [r for r in rows if bot in r["bots"]]
    means = sorted(pooled([rng.choice(mine) for _ in mine], bot)[0] for _ in range(rounds))
    return means[int(0.025 * rounds)], means[int(0.975 * rounds) - 1]


def calibration(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Brier score of every step's chances (both seats) against the result, and the reliability by tenths."""
    pairs = [(values[s], r["result"][s]) for r in rows for values in r["chances"] for s in (0, 1)]
    brier = sum((p - y) ** 2 for p, y in pairs) / len(pairs)
    bins = []
    for b in range(10):
        inside = [(p, y) for p, y in pairs if b / 10 <= p < (b + 1) / 10 or (b == 9 and p == 1.0)]
        if inside:
            bins.append({"from": b / 10, "count": len(inside), "predicted": sum(p for p, _ in inside) / len(inside),
                         "won": sum(y for _, y in inside) / len(inside)})
    return {"positions": len(pairs), "brier": brier, "reliability": bins}


def report_calibration(title: str, rows: list[dict[str, Any]], figures: dict[str, Any], name: str) -> None:
    c = figures[name] = calibration(rows)
    print(f"Brier score, {title}: {c['brier']:.4f} over {c['positions']} (position, seat) chances")
    for b in c["reliability"]:
        print(f"  chance {b['from']:.1f}-{b['from'] + 0.1:.1f}: {b['count']:6d} predicted {b['predicted']:.3f} "
              f"won {b['won']:.3f}")


def reliability_plot(figures: dict[str, Any], path: str) -> None:
    """The reliability diagram: in each tenth of predicted chance, how often those positions were won."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(5, 5))
    axes.plot([0, 1], [0, 1], ":", color="grey", label="perfectly calibrated")
    for name, label in (("calibration", "held-out greedy games"), ("unequal", "games between unequal bots")):
        if name in figures:
            bins = figures[name]["reliability"]
            axes.plot([b["predicted"] for b in bins], [b["won"] for b in bins], "o-",
                      label=f"{label} (Brier {figures[name]['brier']:.3f})")
    axes.set_xlabel("the coach's chance to win")
    axes.set_ylabel("share of those positions won")
    axes.set_title("Spots, 2 players: reliability of the coach's chances")
    axes.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def finished_rows(path: str | None) -> dict[int, dict[str, Any]]:
    """The games already in a ``--rows`` file, by index (none without one)."""
    try:
        with open(path or "", encoding="utf-8") as saved:
            return {row["index"]: row for row in map(json.loads, saved) if row}
    except FileNotFoundError:
        return {}


def play_all(pool: ProcessPoolExecutor, jobs: list[Job], done: dict[int, dict[str, Any]],
             path: str | None) -> list[dict[str, Any]]:
    """Every job's row, in the jobs' order: from ``done`` when there (and for the same bots), else played now."""
    todo = [job for job in jobs if job[0] not in done or done[job[0]]["bots"] != list(job[1:3])
            or done[job[0]].get("value", "linear") != job[4]]
    for row in pool.map(one_game, todo):
        done[row["index"]] = row
        if path:
            with open(path, "a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
    return [done[job[0]] for job in jobs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12, help="games per pairing")
    parser.add_argument("--target", type=int, default=3, help="Spots' dogs to win")
    parser.add_argument("--pairings", default=None, help="bot pairs, e.g. 'mcts:greedy,mcts:expectimax' (default: "
                        "random, greedy and expectimax, each pair)")
    parser.add_argument("--calibration", type=int, default=0, help="held-out games between two greedy bots")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--value", choices=("best", "linear", "learned", "learned-raw"), default="best",
                        help="the coach's value at the turn's end (default: the shipped one, as the reports use)")
    parser.add_argument("--out", default=None, help="write the per-game rows and the figures as JSON")
    parser.add_argument("--rows", default=None, help="append each game's row to this JSON-lines file as it finishes, "
                        "and take the games already there from it (a long study can stop and resume)")
    parser.add_argument("--plot", nargs="+", metavar="JSON", default=None,
                        help="draw the reliability diagram from the figures of these --out files (to --plot-to)")
    parser.add_argument("--plot-to", default="reliability.svg", help="the diagram's file (.svg or .png)")
    args = parser.parse_args()
    if args.plot:
        figures: dict[str, Any] = {}
        for name in args.plot:
            with open(name, encoding="utf-8") as saved:
                figures.update({k: v for k, v in json.load(saved)["figures"].items() if v})
        reliability_plot(figures, args.plot_to)
        return
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",")] if args.pairings else PAIRINGS
    jobs: list[Job] = [(p * 1000 + g, *(pair if g % 2 == 0 else pair[::-1]), args.target, args.value)
                       for g in range(args.games) for p, pair in enumerate(pairings)]  # interleaved: a stop is fair
    held_out: list[Job] = [(9000 + g, "greedy", "greedy", args.target, args.value) for g in range(args.calibration)]
    done = finished_rows(args.rows)
    with ProcessPoolExecutor(args.jobs) as pool:
        rows = play_all(pool, jobs, done, args.rows)
        calibration_rows = play_all(pool, held_out, done, args.rows)
    figures = {"bots": {}}
    if rows:
        print(f"{len(rows)} two-player Spots games to {args.target} dogs, {args.games} per pairing of "
              + ", ".join("-".join(pair) for pair in pairings))
        for bot in dict.fromkeys(name for pair in pairings for name in pair):
            mean, decisions = pooled(rows, bot)
            low, high = interval(rows, bot)
            figures["bots"][bot] = {"mean": mean, "low": low, "high": high, "decisions": decisions}
            print(f"{bot:<11} mean equity lost per decision {mean * 1000:6.1f} thousandths "
                  f"(95% {low * 1000:.1f}-{high * 1000:.1f}), {decisions} decisions")
        report_calibration("games between unequal bots (not a fair test)", rows, figures, "unequal")
    if calibration_rows:
        print(f"{len(calibration_rows)} held-out games between two greedy bots, to {args.target} dogs")
        report_calibration("held-out greedy games", calibration_rows, figures, "calibration")
    every = rows + calibration_rows
    residuals = sorted(abs(x) for r in every for x in r["residual"])
    figures["residual"] = {"mean_abs": sum(residuals) / len(residuals), "median_abs": residuals[len(residuals) // 2],
                           "max_abs": residuals[-1]}
    print("residual |result - start - luck - changes at decisions| per seat and game: mean {mean_abs:.3f}, "
          "median {median_abs:.3f}, max {max_abs:.3f}".format(**figures["residual"]))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump({"figures": figures, "games": rows, "calibration_games": calibration_rows}, out)


if __name__ == "__main__":
    main()
