"""Spots' own subcommands of ``spots``: ``tiles`` (the trick tiles), ``solve`` (solitaire, exactly) and ``par``.

Why here: they are about Spots alone, so the command line (``spots.cli``) adds them from the game's spec
(``GameSpec.cli.commands``) like any game's, and names no game itself. Each function adds its parser to the
command line's; the solver is imported only when ``spots solve`` runs.

``spots par`` is a command of its own because par is a measurement, and anyone must be able to check one with a
single command (``spots par --date 2026-12-01``): the same deal, the same bot seeds and the same keyed dice give
the same figures.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from .daily import CHALLENGES, challenge_named, daily_deal, parse_day
from .par import PAR_GAMES, compute_par, par_of

if TYPE_CHECKING:
    from ...core.games import Subcommands

__all__ = ["COMMANDS", "add_par_parser", "add_solve", "add_tiles", "cmd_par", "cmd_solve", "cmd_tiles"]


def cmd_tiles(args: argparse.Namespace) -> int:
    from .tricks import TILES

    for tile in TILES.values():
        print(f"{tile.name:<10} {tile.colour:<7} {tile.text}")
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    """Solve small solitaire variants exactly; with --check, play the policy on the engine to confirm the values."""
    import resource
    import time

    from .optimal import describe, solution_for
    from .solve import VARIANTS

    if args.list:
        for name in VARIANTS:
            print(f"{name:<14} {describe(name)}")
        return 0
    names = list(VARIANTS) if args.variant == ["all"] else args.variant or ["solo-1"]
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown variant(s) {', '.join(unknown)}; the solved variants are: {', '.join(VARIANTS)} "
                         "(or all)")
    if not 1 <= args.turns <= 40:
        raise ValueError(f"--turns must be from 1 to 40, not {args.turns}")
    for name in names:
        started = time.perf_counter()
        solution = solution_for(name, args.turns)
        graph = solution.graph
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{name}: {describe(name)}")
        print(f"  positions {len(graph):,}, edges {graph.edges():,}, turn starts {graph.turn_starts():,}; "
              f"built in {graph.seconds:.1f} s, solved in {time.perf_counter() - started:.1f} s "
              f"({solution.sweeps} sweeps); peak memory {peak:.0f} MB")
        print(f"  fewest expected turns: {solution.expected_turns():.4f}")
        chances = ", ".join(f"{n}: {solution.chance_within(n):.4f}" for n in range(1, args.turns + 1))
        print(f"  best chance within N turns: {chances}")
        if args.check:
            print_checks(name, args)
    return 0


def print_checks(name: str, args: argparse.Namespace) -> None:
    """``--check``: the optimal policy played on the engine, for each objective on dice of its own."""
    from .optimal import play_policy

    for offset, objective in enumerate(("turns", "within")):  # other dice for each: independent checks
        seed = args.seed + offset
        check = play_policy(name, args.check, seed, objective, args.turns)
        if objective == "turns":
            low, high = check.turns_interval
            print(f"  played {check.games} games (seed {seed}), fewest-turns policy: mean "
                  f"{check.mean_turns:.3f} turns [{low:.3f}, {high:.3f}] (95%)")
        else:
            low, high = check.within_interval
            print(f"  played {check.games} games (seed {seed}), within-{args.turns} policy: "
                  f"{check.within_rate:.3f} [{low:.3f}, {high:.3f}] (95%)")


def add_solve(sub: Subcommands) -> None:
    p = sub.add_parser("solve", help="solve small solitaire variants exactly: par turns and best chance within N")
    p.add_argument("--variant", action="append", default=[],
                   help="a solved variant's name (repeat, or 'all'; default solo-1); --list names them")
    p.add_argument("--turns", type=int, default=6, help="N of the best chance within N turns (default 6)")
    p.add_argument("--check", type=int, default=0, metavar="GAMES",
                   help="play the optimal policy on the engine this many games per objective, with intervals")
    p.add_argument("--seed", type=int, default=0, help="seed of the dice of --check (the within check: seed + 1)")
    p.add_argument("--list", action="store_true", help="list the solved variants and their rules")
    p.set_defaults(run=cmd_solve)


def cmd_par(args: argparse.Namespace) -> int:
    if args.list:
        for challenge in CHALLENGES.values():
            print(f"{challenge.name:<12} {challenge.title}; goal: {challenge.goal.text.format(n=challenge.goal.n)}")
        return 0
    deal = challenge_named(args.challenge).deal if args.challenge else daily_deal(parse_day(args.date))
    par = compute_par(deal, args.games, args.bot) if args.no_cache else par_of(deal, args.games, args.bot)
    if args.json:
        print(json.dumps(par.to_dict(), indent=1))
        return 0
    print(f"{deal.name}: tricks {', '.join(deal.rules.tricks)}, target {deal.rules.target}, dice key {deal.key}")
    bot = (f"the {par.bot} bot's mean over {par.games} games on these keyed dice (bot seeds 0-{par.games - 1}), "
           f"{par.mean:.2f} turns, 95% interval [{par.low:.2f}, {par.high:.2f}]")
    if par.exact is not None:
        print(f"par {par.value:.4f} turns: the exact optimum of the solved variant (expected turns); {bot}")
    else:
        print(f"par {par.value:.2f} turns: {bot}")
    print(f"turns per game: {' '.join(map(str, par.turns))}; busts: {' '.join(map(str, par.busts))}")
    print(f"the race (game 0): {len(par.race)} turns, dogs after each: {' '.join(str(t.dogs) for t in par.race)}")
    return 0


def add_par_parser(sub: Subcommands) -> None:
    p = sub.add_parser("par", help="par of the daily deal (or a challenge): the strongest bot's mean on its dice")
    p.add_argument("--date", default=None, help="the deal's date, YYYY-MM-DD (default: today, UTC)")
    p.add_argument("--challenge", default=None, help="a challenge's name instead of a date (--list names them)")
    p.add_argument("--games", type=int, default=PAR_GAMES, help=f"games the bot plays (default {PAR_GAMES})")
    p.add_argument("--bot", default=None, help="the bot (default: expectimax; optimal where the variant is solved)")
    p.add_argument("--no-cache", action="store_true", help="work it out again, neither reading nor writing the cache")
    p.add_argument("--json", action="store_true", help="the whole par, with the race, as JSON")
    p.add_argument("--list", action="store_true", help="list the challenges")
    p.set_defaults(run=cmd_par)


def add_tiles(sub: Subcommands) -> None:
    p = sub.add_parser("tiles", help="list the 22 trick tiles of Spots")
    p.set_defaults(run=cmd_tiles)


COMMANDS = (add_solve, add_par_parser, add_tiles)  # GameSpec.cli.commands, in ``spots --help`` order
