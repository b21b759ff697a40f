"""Spots' own subcommands of ``spots``: ``spots tiles`` (the trick tiles) and ``spots solve`` (solitaire, exactly).

Why here: they are about Spots alone, so the command line (``spots.cli``) adds them from the game's spec
(``GameSpec.commands``) like any game's, and names no game itself. Each function adds its parser to the
command line's; the solver is imported only when ``spots solve`` runs.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...core.games import Subcommands

__all__ = ["COMMANDS", "add_solve", "add_tiles", "cmd_solve", "cmd_tiles"]


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


def add_tiles(sub: Subcommands) -> None:
    p = sub.add_parser("tiles", help="list the 22 trick tiles of Spots")
    p.set_defaults(run=cmd_tiles)


COMMANDS = (add_solve, add_tiles)  # Spots' GameSpec.commands, in the order ``spots --help`` lists them
