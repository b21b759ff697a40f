"""``spots par``: the par of a daily deal or a challenge, worked out (or read from the cache) and printed.

Why a command of its own: par is a measurement, and anyone must be able to check one with a single command
(``spots par --date 2026-12-01``): the same deal, the same bot seeds and the same keyed dice give the same figures.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from .games.spots.daily import CHALLENGES, challenge_named, daily_deal, parse_day
from .games.spots.par import PAR_GAMES, compute_par, par_of


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


def add_par_parser(sub: Any) -> None:
    p = sub.add_parser("par", help="par of the daily deal (or a challenge): the strongest bot's mean on its dice")
    p.add_argument("--date", default=None, help="the deal's date, YYYY-MM-DD (default: today, UTC)")
    p.add_argument("--challenge", default=None, help="a challenge's name instead of a date (--list names them)")
    p.add_argument("--games", type=int, default=PAR_GAMES, help=f"games the bot plays (default {PAR_GAMES})")
    p.add_argument("--bot", default=None, help="the bot (default: expectimax; optimal where the variant is solved)")
    p.add_argument("--no-cache", action="store_true", help="work it out again, neither reading nor writing the cache")
    p.add_argument("--json", action="store_true", help="the whole par, with the race, as JSON")
    p.add_argument("--list", action="store_true", help="list the challenges")
    p.set_defaults(run=cmd_par)


def add_play_options(p: argparse.ArgumentParser) -> None:
    """``spots play --daily [--date]`` and ``--challenge``: a solo deal raced against the bot (solo_terminal)."""
    p.add_argument("--daily", action="store_true", help="play the daily deal (solo, against par and the bot's race)")
    p.add_argument("--date", default=None, help="with --daily: the deal of this date, YYYY-MM-DD (default today, UTC)")
    p.add_argument("--challenge", default=None,
                   help="play a challenge: " + ", ".join(CHALLENGES) + " (spots par --list describes them)")
    p.add_argument("--par-games", type=int, default=PAR_GAMES, help=argparse.SUPPRESS)


def play_solo(args: argparse.Namespace, options: dict[str, Any]) -> int | None:
    """The solo game when ``--daily`` or ``--challenge`` is given, else None (an ordinary game).

    ``options``: the rules options given on the command line, refused here: a deal's rules are its own.
    """
    if not (args.daily or args.challenge):
        if args.date:
            raise ValueError("--date goes with --daily")
        return None
    if args.daily and args.challenge:
        raise ValueError("give --daily or --challenge, not both")
    if args.load or args.seat:
        raise ValueError("a daily deal or challenge is played alone on its own dice: leave out --load and --seat")
    if options or args.game not in (None, "spots"):
        given = ", ".join("--" + name.replace("_", "-") for name in options) or "--game " + str(args.game)
        raise ValueError(f"a daily deal or challenge is a Spots game with rules of its own: leave out {given}")
    if args.challenge:
        challenge_named(args.challenge)  # an unknown name is refused before anything starts
    else:
        parse_day(args.date)
    try:
        from .games.spots.solo_terminal import start
    except ImportError as exc:
        raise ValueError(f"spots play needs the 'play' extra: pip install 'spots[play]' ({exc})") from None
    return start(args)
