"""``spots fairplay``: the host's watch for assistance, from the coach's reports of rated games.

Why from the reports: the coach already judges every decision of a finished game with a person at it (its report
says, per seat, the unforced decisions, how many were the advisor's first choice and the equity lost), and rated
games are the ones where assistance pays. The watch pools each account's latest rated games per game
(``spots.analysis.assistance``) and lists those whose agreement with the advisor, less its doubt, is above what
the strongest honest play we measured reaches. It never acts by itself: the host reads the evidence (``show``)
and may ``mark`` an account, whose games are then unrated (``ratings.service``) until ``unmark``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from ...analysis.assistance import MIN_GAMES, Evidence, Play, weigh
from ..accounts.users import find, on_store
from ..store import TableStore
from .store import RatedGame

__all__ = ["build_parser", "main", "play_of", "plays_by_account"]


def play_of(game: RatedGame) -> Play | None:
    """The account's play in one rated game, from its report (None: no report yet, or one made before the coach
    counted agreement)."""
    if game.report is None or game.seat is None:
        return None
    try:
        players = json.loads(game.report)["players"]
    except (ValueError, KeyError, TypeError):
        return None
    mine = next((p for p in players if p.get("seat") == game.seat), None)
    if mine is None or "agreed" not in mine:
        return None
    return Play(int(mine["decisions"]), int(mine["agreed"]), float(mine["lost"]), game.table, game.at)


def plays_by_account(games: Sequence[RatedGame]) -> dict[tuple[str, str], tuple[str, int, list[Play]]]:
    """(account, game) -> (the account's name, its rated games, its analysed plays oldest first)."""
    out: dict[tuple[str, str], tuple[str, int, list[Play]]] = {}
    for g in games:
        name, count, plays = out.get((g.account, g.game), (g.name, 0, []))
        play = play_of(g)
        out[(g.account, g.game)] = (name, count + 1, [*plays, play] if play is not None else plays)
    return out


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spots fairplay", description="The watch for assistance (for the host).")
    parser.add_argument("--db", default="spots.sqlite3", help="the server's --db: a SQLite file or a postgresql:// URL")
    sub = parser.add_subparsers(dest="action")
    p = sub.add_parser("list", help="the accounts whose rated play is closer to the advisor's than honest play's"
                       " should be (the default)")
    p.add_argument("--all", action="store_true", help="every account with a rated game, listed or not")
    p.add_argument("--min-games", type=int, default=MIN_GAMES, help="analysed rated games before an account may"
                   f" be listed (default {MIN_GAMES})")
    p = sub.add_parser("show", help="an account's evidence, game by game")
    p.add_argument("name")
    p = sub.add_parser("mark", help="mark an account: its games are unrated from now on")
    p.add_argument("name")
    p.add_argument("--why", required=True, help="the host's note (kept with the mark)")
    sub.add_parser("unmark", help="take a mark away: the account's games are rated again").add_argument("name")
    return parser


def line(name: str, game: str, rated: int, e: Evidence, mark: str | None) -> str:
    flag = "LISTED" if e.listed else ""
    return (f"{name:24} {game:11} {rated:5} {e.games:8} {e.decisions:9}  {e.agreement:6.1%} ({e.agreement_low:6.1%})"
            f"  {1000 * e.mean_lost:6.1f}  {flag}{'  marked: ' + mark if mark else ''}")


def run(args: argparse.Namespace, store: TableStore, out: TextIO) -> int:
    if args.action in (None, "list"):
        return listing(store, out, getattr(args, "all", False), getattr(args, "min_games", MIN_GAMES))
    account = find(store, args.name)
    if args.action == "mark":
        note = f"{time.strftime('%Y-%m-%d', time.gmtime())}: {args.why}"
        store.set_account(account.id, marked=note)
        print(f"{account.name}: marked ({note}); their games are unrated from now on", file=out)
    elif args.action == "unmark":
        store.set_account(account.id, marked=None)
        print(f"{account.name}: mark taken away; their games are rated again", file=out)
    else:
        show(store, account.id, account.name, out)
    return 0


def listing(store: TableStore, out: TextIO, every: bool, min_games: int) -> int:
    """The listed accounts (or all), with the evidence."""
    found = plays_by_account(store.rated_games())
    marks = store.marks({account for account, _ in found})
    print(f"{'name':24} {'game':11} {'rated':>5} {'analysed':>8} {'decisions':>9}  agreement (less doubt)  lost/1000",
          file=out)
    listed = 0
    for (account, game), (name, rated, plays) in sorted(found.items(), key=lambda kv: kv[1][0].casefold()):
        evidence = weigh(plays, min_games=min_games)
        listed += evidence.listed
        if every or evidence.listed:
            print(line(name, game, rated, evidence, marks.get(account)), file=out)
    ceiling = weigh([]).ceiling
    print(f"{listed} account{'s' if listed != 1 else ''} listed (agreement with the advisor above {ceiling:.0%} beyond"
          f" doubt, over at least {min_games} analysed rated games); see docs/fairplay.md", file=out)
    return 0


def show(store: TableStore, account: str, name: str, out: TextIO) -> None:
    games = store.rated_games(account)
    mark = store.marks([account]).get(account)
    print(f"{name}: {len(games)} rated game{'s' if len(games) != 1 else ''}" + (f"; marked {mark}" if mark else ""),
          file=out)
    for (_, game), (_, rated, plays) in plays_by_account(games).items():
        print(line(name, game, rated, weigh(plays), mark), file=out)
    print(f"{'table':16} {'game':11} {'finished':16} {'decisions':>9} {'agreed':>6} {'lost/1000':>9}", file=out)
    for g in games:
        play = play_of(g)
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(g.at))
        figures = ("(no report yet)" if play is None else
                   f"{play.decisions:9} {play.agreed:6} {1000 * play.lost / max(1, play.decisions):9.1f}")
        print(f"{g.table:16} {g.game:11} {when:16} {figures}", file=out)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    return on_store("spots fairplay", args.db, lambda store: run(args, store, out or sys.stdout))


if __name__ == "__main__":
    raise SystemExit(main())
