"""The watch for assistance measured: accounts played by bots posing as people, honest ones and ones that cheat.

    PYTHONPATH=src python benchmarks/assistance_watch.py --honest 60 --games 15 --cheats 4 --cheat-games 25 \
        --calibration 120 --jobs 2 --rows watch.jsonl

Every account plays two-player Spots (the default rules) against ``greedy``, its seat alternating, the dice seeded
by the account and the game. Each of its decisions is judged as the coach's report judges it
(``spots.analysis.engine.decision``: not forced, the advisor's first choice or not, the equity lost), so a game's row
holds what the server's watch reads from the report of a rated game.

- **Calibration** (``--calibration`` games of plain ``mcts``, seeds of their own): the strongest honest play we have;
  its pooled agreement with the advisor is where the watch's ceiling is set (``assistance.CEILING``).
- **Honest accounts** (``--honest``, ``--games`` each): ``greedy`` or ``mcts``, each account with its own share of
  random moves (0, 5, 10 or 20%). Printed: how many are listed after their games (false positives, with a 95%
  Wilson interval), and the highest lower bound among them.
- **Held out** (``--holdout``, ``--games`` each): plain ``mcts`` accounts on seeds of their own, the honest play
  closest to the ceiling, for a check of the method on games it was not chosen on.
- **Cheating accounts** (``--cheats`` of each kind, ``--cheat-games`` each): ``advisor`` (every move is the
  advisor's first choice, as ``spots hint`` gives it), ``expectimax-learned`` (the lobby's strongest bot), and two
  mixes that ask the advisor on a third of their turns and play ``mcts`` or ``greedy`` on the others. Printed: after
  how many games each is listed (the watch looks after every game), or that it never was.

``--rows`` keeps each game's row (a long run can stop and resume); the figures are in docs/fairplay.md.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from spots.analysis.assistance import CEILING, MIN_GAMES, Play, Z, pooled, weigh
from spots.arena import wilson

NOISES = (0.0, 0.05, 0.1, 0.2)
CHEATS = ("advisor", "expectimax-learned", "mix-mcts", "mix-greedy")
Job = tuple[str, str, int, float, int]  # group, persona, account, noise, game


def one_game(job: Job) -> dict[str, Any]:
    """Play one game of the account's persona against greedy and judge the persona's decisions."""
    from spots.analysis.engine import decision
    from spots.core import games
    from spots.games.spots.coach import evaluator

    group, persona, account, noise, game = job
    spec = games.get("spots")
    seed = account * 1000 + game
    rng = random.Random(seed)
    state = spec.new_state(spec.make_rules(players=2))
    mine = game % 2
    base = {"mix-mcts": "mcts", "mix-greedy": "greedy"}.get(persona, persona)
    bot = None if base == "advisor" else spec.make_bot(base, seed=seed)
    other = spec.make_bot("greedy", seed=seed + 500)
    judge = evaluator()
    decisions = agreed = 0
    lost = 0.0
    asking, turn = False, -1
    while not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance(rng)
            continue
        if state.current_player() != mine:
            state.apply_action(other.choose(state))
            continue
        if spec.turn(state) != turn:  # a mix decides at each turn's start whether to ask the advisor
            turn = spec.turn(state)
            asking = persona == "advisor" or (persona.startswith("mix") and rng.random() < 1 / 3)
        if asking:
            step = decision(judge, state, state.legal_actions()[0])
            move = step.best or state.legal_actions()[0]
            forced, loss, agrees = step.forced, 0.0, not step.forced
        else:
            assert bot is not None
            move = bot.choose(state)
            if noise and rng.random() < noise:
                move = rng.choice(state.legal_actions())
            step = decision(judge, state, move)
            forced, loss, agrees = step.forced, step.lost, step.agreed
        if not forced:
            decisions += 1
            agreed += agrees
            lost += loss
        state.apply_action(move)
    return {"group": group, "persona": persona, "account": account, "noise": noise, "game": game,
            "decisions": decisions, "agreed": agreed, "lost": lost, "won": state.returns()[mine]}


def jobs_of(args: argparse.Namespace) -> list[Job]:
    jobs: list[Job] = [("calibration", "mcts", 9000, 0.0, g) for g in range(args.calibration)]
    for a in range(args.honest):
        persona, noise = ("greedy", "mcts")[a % 2], NOISES[(a // 2) % len(NOISES)]
        jobs += [("honest", persona, a, noise, g) for g in range(args.games)]
    for a in range(args.holdout):  # the riskiest honest play, on seeds nothing was chosen on
        jobs += [("holdout", "mcts", 20000 + a, 0.0, g) for g in range(args.games)]
    for c, persona in enumerate(CHEATS):
        for a in range(args.cheats):
            account = 5000 + 100 * c + a
            jobs += [("cheat", persona, account, 0.0, g) for g in range(args.cheat_games)]
    return jobs


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every job's row: from ``--rows`` where it is there, else played now (and appended there)."""
    done: dict[tuple[int, int], dict[str, Any]] = {}
    if args.rows:
        try:
            with open(args.rows, encoding="utf-8") as saved:
                done = {(r["account"], r["game"]): r for r in map(json.loads, saved) if r}
        except FileNotFoundError:
            pass
    jobs = jobs_of(args)
    todo = [j for j in jobs if (j[2], j[4]) not in done]
    with ProcessPoolExecutor(args.jobs) as pool:
        for row in pool.map(one_game, todo, chunksize=2):
            done[(row["account"], row["game"])] = row
            if args.rows:
                with open(args.rows, "a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
    return [done[(j[2], j[4])] for j in jobs]


def plays(rows: list[dict[str, Any]]) -> list[Play]:
    return [Play(r["decisions"], r["agreed"], r["lost"]) for r in sorted(rows, key=lambda r: r["game"])]


def first_listed(ordered: list[Play], ceiling: float) -> int | None:
    """After how many games an account is first listed, the watch looking after every game (None: never)."""
    return next((n for n in range(1, len(ordered) + 1) if weigh(ordered[:n], ceiling).listed), None)


def report(rows: list[dict[str, Any]], ceiling: float) -> None:
    by_account: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_account.setdefault(r["account"], []).append(r)
    print("pooled over each kind of account (agreement with the advisor; equity lost per unforced decision,"
          " thousandths; games won):")
    kinds: dict[tuple[str, str, float], list[dict[str, Any]]] = {}
    for r in rows:
        kinds.setdefault((r["group"], r["persona"], r["noise"]), []).append(r)
    for (group, persona, noise), mine in sorted(kinds.items()):
        share, se = pooled(plays(mine), "agreed")
        lost, lost_se = pooled(plays(mine), "lost")
        won = statistics.mean(r["won"] for r in mine)
        print(f"  {group:<11} {persona:<18} noise {noise:4.2f}: agreement {share:.3f} ± {1.96 * se:.3f}, lost"
              f" {1000 * lost:5.1f} ± {1960 * lost_se:.1f}, won {won:.2f}, {len(mine)} games,"
              f" {sum(r['decisions'] for r in mine)} decisions")
    for group in ("honest", "holdout"):
        honest = [a for a, rs in by_account.items() if rs[0]["group"] == group]
        if not honest:
            continue
        ever = [a for a in honest if first_listed(plays(by_account[a]), ceiling) is not None]
        low, high = wilson(len(ever), len(honest))
        lows = sorted(weigh(plays(by_account[a]), ceiling).agreement_low for a in honest)
        games = len(by_account[honest[0]])
        print(f"{group} accounts listed at any look (after each of their {games} games): {len(ever)} of"
              f" {len(honest)} (95% {low:.1%}-{high:.1%}); their highest agreement less doubt at the end"
              f" {lows[-1]:.3f} (ceiling {ceiling:.3f})")
    print(f"cheating accounts: the game after which each was first listed (at least {MIN_GAMES} games; - never):")
    for persona in CHEATS:
        accounts = [rs for rs in by_account.values() if rs[0]["group"] == "cheat" and rs[0]["persona"] == persona]
        firsts = []
        for rs in accounts:
            first = first_listed(plays(rs), ceiling)
            firsts.append("-" if first is None else str(first))
        print(f"  {persona:<18} {' '.join(firsts)} (of {len(accounts[0]) if accounts else 0} games each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--honest", type=int, default=60, help="honest accounts")
    parser.add_argument("--games", type=int, default=15, help="rated games of each honest account")
    parser.add_argument("--cheats", type=int, default=4, help="accounts of each cheating kind")
    parser.add_argument("--cheat-games", type=int, default=25, help="rated games of each cheating account")
    parser.add_argument("--holdout", type=int, default=0, help="more honest accounts of plain mcts, on seeds of their"
                        " own (a check of the method on play it was not chosen on)")
    parser.add_argument("--calibration", type=int, default=120, help="games of plain mcts that set the ceiling")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rows", default=None, help="a JSON-lines file of finished games (resumable)")
    args = parser.parse_args()
    rows = run(args)
    calibration = [r for r in rows if r["group"] == "calibration"]
    if calibration:
        share, se = pooled(plays(calibration), "agreed")
        print(f"calibration: plain mcts agrees with the advisor on {share:.3f} (± {1.96 * se:.3f}) of"
              f" {sum(r['decisions'] for r in calibration)} unforced decisions in {len(calibration)} games;"
              f" the watch's ceiling is {CEILING:.3f}, z {Z}")
    report([r for r in rows if r["group"] != "calibration"], CEILING)


if __name__ == "__main__":
    main()
