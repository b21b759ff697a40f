"""The bot ladder: each web bot's fixed rating per game, measured by an arena run (``src/spots/web/bot_ladder.json``).

Why fixed: a bot's rating that moved with every game against people would drift
with whoever plays it, and "you play about like mcts" would mean nothing. So the
bots are rated once, here, against each other: every pair of a game's web bots
plays ``--games`` two-seat games (seats rotated, seeded), the games are fed to
OpenSkill's Plackett-Luce model in a seeded shuffled order, ``--passes`` times
over (each pass starting from the last pass's means with a fresh uncertainty, so
the order of the games stops mattering), and the result is written down. The
server then uses these ratings as they are: a bot's rating never changes.

    PYTHONPATH=src python scripts/bot_ladder.py --games 40 --jobs 2

A person starts at OpenSkill's default (mu 25, sigma 25/3), so the ladder is shifted
to put the greedy bot of each game at 25: a newcomer is first expected to play
like the greedy bot.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from spots.arena import run_match
from spots.web.games import hosted
from spots.web.ratings.service import MODEL_SETTINGS, places

OUT = Path(__file__).resolve().parents[1] / "src" / "spots" / "web" / "bot_ladder.json"
ANCHOR = "greedy"


def games_of(game: str, bots: list[str], games: int, seed: int, jobs: int) -> list[tuple[list[str], list[int]]]:
    """(seated bots, their places) of every game of every pair."""
    kind = hosted()[game]
    rules = kind.spec.rules(**({kind.spec.seats_option: 2} if kind.spec.seats_option else {}))
    out = []
    for a, b in itertools.combinations(bots, 2):
        start = time.perf_counter()
        for result in run_match(rules, [a, b], games, seed=seed, jobs=jobs):
            scores = [round(r * 1000) for r in result.returns]
            out.append((result.seats, places(scores, result.winner)))
        print(f"{game}: {a} v {b}, {games} games in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return out


def ladder(results: list[tuple[list[str], list[int]]], bots: list[str], passes: int, seed: int) -> dict[str, Any]:
    model = PlackettLuce(**MODEL_SETTINGS)
    mu = {b: model.mu for b in bots}
    order = list(results)
    for _ in range(passes):
        ratings = {b: model.rating(mu=mu[b], sigma=model.sigma, name=b) for b in bots}
        random.Random(seed).shuffle(order)
        for seats, ranks in order:
            teams = [[ratings[s]] for s in seats]
            for team, (new,) in zip(seats, model.rate(teams, ranks=ranks), strict=True):
                ratings[team] = new
        mu = {b: ratings[b].mu for b in bots}
    shift = model.mu - mu.get(ANCHOR, model.mu)
    played = {b: sum(b in seats for seats, _ in results) for b in bots}
    return {b: {"mu": round(ratings[b].mu + shift, 2), "sigma": round(ratings[b].sigma, 2), "games": played[b]}
            for b in bots}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per pair of bots")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--game", action="append", help="only these games (default: every hosted game)")
    args = parser.parse_args(argv)
    doc: dict[str, Any] = json.loads(OUT.read_text()) if OUT.exists() else {}
    doc["how"] = (f"scripts/bot_ladder.py --games {args.games} --passes {args.passes} --seed {args.seed}: every pair"
                  " of web bots, two seats, the lobby's default options; shifted so greedy is at 25")
    for game, kind in hosted().items():
        if args.game and game not in args.game:
            continue
        bots = list(kind.bots)
        doc.setdefault("games", {})[game] = ladder(games_of(game, bots, args.games, args.seed, args.jobs), bots,
                                                  args.passes, args.seed)
        OUT.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n")
        print(json.dumps(doc["games"][game]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
