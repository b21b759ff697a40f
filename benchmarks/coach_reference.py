"""The coach's reference set: decisions from varied Spots games, each move valued far more strongly than the coach can.

    python benchmarks/coach_reference.py build --games 72 --out docs/coach-reference/decisions.jsonl.gz
    python benchmarks/coach_reference.py value docs/coach-reference/decisions.jsonl.gz --rollouts 2000 --jobs 2 \
        --out docs/coach-reference/reference.jsonl.gz
    python benchmarks/coach_reference.py score docs/coach-reference/reference.jsonl.gz

``build`` plays games with 2, 3 and 4 seats in turn, a random trick set each (``tricks="random"``, seeded by the
game), to 3 or 6 dogs, every seat one of random, greedy, mcts, expectimax and expectimax-learned (seeded), and keeps
up to six decisions of each game that have more than one legal move: two from each third of the game (early,
middle, end). A decision is kept as the record's moves up to it, so anyone can replay it.

``value`` values every legal move of every decision by rollouts (on Ray, ``--jobs`` workers here, or ``--address``
a cluster): rollout r plays the mover's turn on with ``learned-fast`` (the learned bot at 150 positions a decision:
it beats greedy three games in four), then every seat greedy to the end of the game in the compiled simulator, and
counts who won. Rollout r's dice are the same for every move of a decision (its k-th chance event of the turn
draws from (decision, r, k), its later games from seed r), so moves are compared on common dice. A move's
value is the mover's mean result, with its standard error; moves reaching the same position share one value.

``score`` holds the coach to the reference (``docs/analysis.md``): how often its best move is the reference's
best (or within two standard errors of it), the error of its equity lost on the move played, how many of the
mistakes it would name the reference confirms (by the search alone above a threshold, and as the report names
them: the search's candidates checked by play-outs), and whether it leans towards moves that end the turn or moves
that go on.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import statistics
import sys
import time
import zlib
from pathlib import Path
from typing import Any

BOTS = ("random", "greedy", "mcts", "expectimax", "expectimax-learned")
PLAYERS = (2, 3, 4)
TARGETS = (3, 6)
PER_THIRD = 2  # decisions kept from each third of a game


def open_text(path: str | Path, mode: str = "rt") -> Any:
    if str(path).endswith(".gz"):
        return gzip.open(path, mode, encoding="utf-8")
    return open(path, mode[0], encoding="utf-8")


# ---------------------------------------------------------------- build: the decisions


def game_rules(index: int) -> dict[str, Any]:
    return {"players": PLAYERS[index % len(PLAYERS)], "target": TARGETS[index // len(PLAYERS) % len(TARGETS)],
            "tricks": "random", "tricks_seed": index}


def play_game(index: int) -> dict[str, Any]:
    """One seeded game of the set: its rules, its seats' bots and its moves."""
    from spots.core import games
    from spots.core.play import play_out

    spec = games.get("spots")
    options = game_rules(index)
    rules = spec.make_rules(**options)
    pick = random.Random(f"seats:{index}")
    bots = [pick.choice(BOTS) for _ in range(rules.players)]
    state = spec.new_state(rules)
    play_out(state, [spec.make_bot(b, seed=index * 10 + s) for s, b in enumerate(bots)], random.Random(index))
    return {"game": index, "options": options, "bots": bots, "moves": state.history()}


def pick_decisions(game: dict[str, Any]) -> list[dict[str, Any]]:
    """Up to ``PER_THIRD`` decisions with a real choice from each third of the game's decisions (seeded)."""
    from spots.core import games

    spec = games.get("spots")
    state = spec.new_state(spec.make_rules(**game["options"]))
    choices = []
    for index, move in enumerate(game["moves"]):
        if not state.is_chance_node() and len(state.legal_actions()) > 1:
            choices.append((index, state.current_player(), state.turn))
        state.apply_action(move)
    rng = random.Random(f"pick:{game['game']}")
    kept = []
    for third in range(3):
        part = choices[third * len(choices) // 3:(third + 1) * len(choices) // 3]
        for index, seat, turn in sorted(rng.sample(part, min(PER_THIRD, len(part)))):
            kept.append({"id": f"g{game['game']}s{index}", "options": game["options"], "bots": game["bots"],
                         "moves": game["moves"][:index], "played": game["moves"][index], "seat": seat,
                         "turn": turn, "stage": ("early", "middle", "end")[third]})
    return kept


def build(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with open_text(out, "wt") as sink:
        for index in range(args.games):
            game = play_game(index)
            for decision in pick_decisions(game):
                sink.write(json.dumps(decision) + "\n")
                count += 1
            print(f"game {index + 1}/{args.games}: {len(game['moves'])} moves, bots {', '.join(game['bots'])}; "
                  f"{count} decisions", flush=True)


# ---------------------------------------------------------------- value: the rollouts


def position(decision: dict[str, Any]) -> Any:
    from spots.core import games

    spec = games.get("spots")
    state = spec.new_state(spec.make_rules(**decision["options"]))
    for move in decision["moves"]:
        state.apply_action(move)
    return state


class TurnPolicy:
    """``learned-fast`` finishing the mover's turn; its choice at a position is remembered, and it is seeded by the
    position, so a position gets the same move in every rollout and from every move of the decision."""

    def __init__(self) -> None:
        from spots.bots import make

        self.bot = make("learned-fast")
        self.chosen: dict[Any, str] = {}

    def __call__(self, state: Any) -> str:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        key = state.key()
        move = self.chosen.get(key)
        if move is None:
            self.bot.rng.seed(zlib.crc32(repr(key).encode()))
            move = self.chosen[key] = self.bot.choose(state)
        return move


def finish_turn(state: Any, policy: TurnPolicy, decision: str, rollout: int) -> Any:
    """The mover's turn played on from ``state``; the k-th chance event draws from (decision, rollout, k)."""
    state = state.clone()
    turn, k = state.turn, 0
    while not state.is_terminal() and state.turn == turn:
        if state.is_chance_node():
            state.sample_chance(random.Random(f"{decision}:{rollout}:{k}"))
            k += 1
        else:
            state.apply_action(policy(state))
    return state


def value_moves(decision: dict[str, Any], rollouts: int) -> dict[str, Any]:
    """Every legal move of a decision valued by ``rollouts`` rollouts on common dice (see the module docstring)."""
    import numpy as np

    from spots.fast.api import greedy_results

    started = time.process_time()
    state = position(decision)
    seat = state.current_player()
    policy = TurnPolicy()
    groups: dict[Any, list[str]] = {}
    children: dict[Any, Any] = {}
    for move in state.legal_actions():
        child = state.clone()
        child.apply_action(move)
        groups.setdefault(child.key(), []).append(move)
        children.setdefault(child.key(), child)
    seeds = [zlib.crc32(f"{decision['id']}:{r}".encode()) for r in range(rollouts)]
    moves = []
    for key, child in children.items():
        ends = [finish_turn(child, policy, decision["id"], r) for r in range(rollouts)]
        results = np.zeros((rollouts, len(state.players)))
        going = [i for i, end in enumerate(ends) if not end.is_terminal()]
        for i, end in enumerate(ends):
            if end.is_terminal():
                results[i] = end.returns()
        if going:
            results[going] = greedy_results([ends[i] for i in going], [seeds[i] for i in going])
        won = results[:, seat]
        moves.append({"moves": groups[key], "ends_turn": child.is_terminal() or child.turn != state.turn,
                      "value": float(won.mean()), "se": float(won.std(ddof=1) / math.sqrt(rollouts)),
                      "results": packed(won)})
    return {**decision, "rollouts": rollouts, "values": moves, "seconds": time.process_time() - started}


TWELFTHS = "0123456789abc"  # a result in twelfths: a win, a loss and every share of a draw of 2-4 seats


def packed(results: Any) -> str:
    """Each rollout's result as one character (twelfths of a game), so moves can be compared rollout by rollout."""
    return "".join(TWELFTHS[round(float(r) * 12)] for r in results)


def unpacked(text: str) -> list[float]:
    return [TWELFTHS.index(c) / 12 for c in text]


def _remote_value(decision: dict[str, Any], rollouts: int) -> dict[str, Any]:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    return value_moves(decision, rollouts)


def value(args: argparse.Namespace) -> None:
    os.environ["NUMBA_NUM_THREADS"] = "1"  # the workers are the parallelism; Numba's threads would oversubscribe
    from spots.study.execute import start_ray

    decisions = [json.loads(line) for line in open_text(args.decisions)]
    out = Path(args.out)
    done = {json.loads(line)["id"] for line in open_text(out)} if out.exists() else set()
    todo = [d for d in decisions if d["id"] not in done]
    print(f"{len(decisions)} decisions, {len(done)} valued already, {len(todo)} to go", flush=True)
    if not todo:
        return
    ray, started = start_ray(args.address, args.jobs)
    remote = ray.remote(num_cpus=1, max_retries=2)(_remote_value)
    pending = [remote.remote(d, args.rollouts) for d in todo]
    count = 0
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            row = ray.get(ready[0])
            with open_text(out, "at") as sink:
                sink.write(json.dumps(row) + "\n")
            count += 1
            print(f"{count}/{len(todo)} {row['id']}: {len(row['values'])} moves, {row['seconds']:.1f} s CPU",
                  flush=True)
    finally:
        if started:
            ray.shutdown()


# ---------------------------------------------------------------- score: the coach against the reference


def coach_values(decision: dict[str, Any], evaluator: Any) -> dict[str, tuple[float, ...]]:
    """The coach's values of every legal move of the decision, as the report computes them."""
    from spots.analysis import engine

    state = position(decision)
    if hasattr(engine, "move_values"):
        return engine.move_values(evaluator, state)
    # an older tree's coach (``PYTHONPATH=<its src>``, to score it on the same reference): its report's valuer
    valuer = engine._Valuer(evaluator)
    return valuer.moves(state) or {move: valuer.after(state, move) for move in state.legal_actions()}


def paired(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, float]:
    """The reference's difference between two moves (a minus b), rollout by rollout on common dice, and its error."""
    if a is b:
        return 0.0, 0.0
    diffs = [x - y for x, y in zip(unpacked(a["results"]), unpacked(b["results"]), strict=True)]
    return statistics.mean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))


def score_rows(rows: list[dict[str, Any]], evaluator: Any, threshold: float,
               seen: dict[str, Any] | None = None) -> dict[str, Any]:
    """The coach against the reference, decision by decision (decisions whose moves all reach one position, or
    all get one reference value, have no choice to judge and are left out); ``seen`` keeps the coach's values
    by decision, so that other thresholds are scored without valuing again."""
    seen = {} if seen is None else seen
    out: dict[str, Any] = {"decisions": 0, "same_best": 0, "within": 0, "errors": [], "flagged": 0, "confirmed": 0,
                           "significant": 0, "lean": [], "cpu": 0.0, "flags": [], "named": 0, "named_confirmed": 0,
                           "named_significant": 0, "named_errors": [], "names": [], "check_cpu": 0.0}
    check = getattr(evaluator, "check", None)
    for row in rows:
        if len(row["values"]) < 2:
            continue
        if row["id"] not in seen:
            started = time.process_time()
            seen[row["id"]] = coach_values(row, evaluator)
            out["cpu"] += time.process_time() - started
        coach = seen[row["id"]]
        seat = row["seat"]
        ref = {m: v for v in row["values"] for m in v["moves"]}
        best_coach = max(coach, key=lambda m: coach[m][seat])
        best_ref = max(ref, key=lambda m: ref[m]["value"])
        out["decisions"] += 1
        out["same_best"] += ref[best_coach] is ref[best_ref]
        gap, error = paired(ref[best_ref], ref[best_coach])
        out["within"] += gap <= 2 * error
        played = row["played"]
        coach_lost = coach[best_coach][seat] - coach[played][seat]
        ref_lost, ref_error = paired(ref[best_coach], ref[played])
        out["errors"].append(coach_lost - ref_lost)
        if coach_lost >= threshold:
            out["flagged"] += 1
            out["confirmed"] += ref_lost >= threshold / 2
            out["significant"] += ref_lost > 2 * ref_error
            out["flags"].append((row["id"], played, best_coach, coach_lost, ref_lost, ref_error))
        if check is not None and coach_lost >= threshold / 2:  # as the report names a mistake (engine._named)
            key = (row["id"], "check")
            if key not in seen:
                started = time.process_time()
                seen[key] = check(position(row), played, best_coach)
                out["check_cpu"] += time.process_time() - started
            verdict = seen[key]
            if verdict is not None and verdict[0] >= threshold and verdict[0] > 2 * verdict[1]:
                out["named"] += 1
                out["named_confirmed"] += ref_lost >= threshold / 2
                out["named_significant"] += ref_lost > 2 * ref_error
                out["named_errors"].append(verdict[0] - ref_lost)
                out["names"].append((row["id"], played, best_coach, verdict[0], ref_lost, ref_error))
        ending = [coach[m][seat] - ref[m]["value"] for m in coach if ref[m]["ends_turn"]]
        going = [coach[m][seat] - ref[m]["value"] for m in coach if not ref[m]["ends_turn"]]
        if ending and going:
            out["lean"].append(statistics.mean(ending) - statistics.mean(going))
    return out


def score(args: argparse.Namespace) -> None:
    from spots.analysis.engine import evaluator_of
    from spots.core import games

    rows = [json.loads(line) for line in open_text(args.reference)]
    evaluator = evaluator_of(games.get("spots")) if args.value == "shipped" else _evaluator(args.value)
    if args.temperature is not None:
        evaluator.turn_end.temperature = args.temperature
    if args.lift is not None:
        evaluator.turn_end.lift = args.lift
    if args.threshold is None:
        args.threshold = evaluator.mistake
    seen: dict[str, Any] = {}
    got = score_rows(rows, evaluator, args.threshold, seen)
    n, errors = got["decisions"], got["errors"]
    print(f"{n} decisions with a choice, of {len(rows)}; coach: {evaluator.name}; coach CPU {got['cpu']:.1f} s")
    print(f"its best move is the reference's best: {got['same_best']}/{n} ({got['same_best'] / n:.1%}) "
          f"{wilson(got['same_best'], n)}; within two standard errors of it: {got['within']}/{n} "
          f"({got['within'] / n:.1%}) {wilson(got['within'], n)}")
    print(f"equity lost on the move played, coach minus reference: mean {1000 * statistics.mean(errors):+.1f} "
          f"[{1000 * (statistics.mean(errors) - 1.96 * statistics.stdev(errors) / math.sqrt(n)):+.1f}, "
          f"{1000 * (statistics.mean(errors) + 1.96 * statistics.stdev(errors) / math.sqrt(n)):+.1f}], sd "
          f"{1000 * statistics.stdev(errors):.1f}, mean absolute {1000 * statistics.mean(map(abs, errors)):.1f} "
          f"thousandths")
    flagged = got["flagged"]
    for threshold in sorted({args.threshold, *args.also}):
        part = score_rows(rows, evaluator, threshold, seen) if threshold != args.threshold else got
        k, m = part["confirmed"], part["flagged"]
        if m:
            print(f"the search alone at a loss of {threshold * 1000:.0f} or more: {m} flagged; the reference loses at "
                  f"least half of that on {k} ({k / m:.1%}) {wilson(k, m)}, significantly more than nothing on "
                  f"{part['significant']} ({part['significant'] / m:.1%})")
        k, m = part["named_confirmed"], part["named"]
        if m:
            errors = part["named_errors"]
            print(f"  named as the report does (search at least {threshold * 500:.0f}, then play-outs at least "
                  f"{threshold * 1000:.0f} and over twice their error): {m}; the reference loses at least half the "
                  f"threshold on {k} ({k / m:.1%}) {wilson(k, m)}, significantly more than nothing on "
                  f"{part['named_significant']} ({part['named_significant'] / m:.1%}); the size named minus the "
                  f"reference's: mean {1000 * statistics.mean(errors):+.1f}, mean absolute "
                  f"{1000 * statistics.mean(map(abs, errors)):.1f} thousandths")
    if got["check_cpu"]:
        print(f"the checks' CPU: {got['check_cpu']:.1f} s")
    if args.verbose:
        for flag in got["flags"]:
            print("  {} played {!r}, coach's best {!r}: coach {:.3f}, reference {:.3f} ± {:.3f}".format(*flag))
        for name in got["names"]:
            print("  named: {} played {!r}, coach's best {!r}: play-outs {:.3f}, reference {:.3f} ± {:.3f}"
                  .format(*name))
    lean = got["lean"]
    if len(lean) > 1:
        mean, half = statistics.mean(lean), 1.96 * statistics.stdev(lean) / math.sqrt(len(lean))
        print(f"lean, over {len(lean)} decisions with both kinds of move (coach minus reference for moves that end the"
              f" turn, minus the same for moves that go on): {1000 * mean:+.1f} [{1000 * (mean - half):+.1f}, "
              f"{1000 * (mean + half):+.1f}] thousandths")
    if not flagged:
        print("no mistake flagged")


def _evaluator(value: str) -> Any:
    from spots.games.spots.coach import evaluator

    return evaluator(value)


def wilson(k: int, n: int, z: float = 1.96) -> str:
    """A 95% Wilson interval for k successes out of n, as text."""
    if n == 0:
        return "[-]"
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"[{centre - half:.1%}, {centre + half:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="play the games and keep their decisions")
    b.add_argument("--games", type=int, default=72)
    b.add_argument("--out", required=True)
    v = sub.add_parser("value", help="value every move of every decision by rollouts (resumes)")
    v.add_argument("decisions")
    v.add_argument("--rollouts", type=int, default=2000)
    v.add_argument("--jobs", type=int, default=2)
    v.add_argument("--address", help="a Ray cluster's HOST:PORT instead of a local Ray")
    v.add_argument("--out", required=True)
    s = sub.add_parser("score", help="hold the coach to the reference")
    s.add_argument("reference")
    s.add_argument("--value", default="shipped", help="the coach's evaluator: shipped, linear or learned")
    s.add_argument("--threshold", type=float, default=None, help="the loss from which a mistake is flagged "
                   "(default: the coach's own)")
    s.add_argument("--also", type=float, nargs="*", default=[], help="more thresholds to report")
    s.add_argument("--temperature", type=float, default=None, help="try another recalibration")
    s.add_argument("--lift", type=float, default=None)
    s.add_argument("--verbose", action="store_true", help="list the flagged mistakes")
    args = parser.parse_args()
    {"build": build, "value": value, "score": score}[args.command](args)


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    main()
