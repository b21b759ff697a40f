"""``spots play --daily`` and ``--challenge``: a solo deal of Spots raced against the bot.

Spots' ``GameSpec.cli.play_modes`` (the command line names no game); ``spots par``, the par of a deal, is Spots' own
subcommand (``commands.py``).
"""

from __future__ import annotations

import argparse
from typing import Any

from ...core.games import PlayMode
from .daily import CHALLENGES, challenge_named, parse_day
from .par import PAR_GAMES


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
        from .solo_terminal import start
    except ImportError as exc:
        raise ValueError(f"spots play needs the 'play' extra: pip install 'spots[play]' ({exc})") from None
    return start(args)


SOLO = PlayMode(add_play_options, play_solo)  # in Spots' GameSpec.cli.play_modes
