"""``spots puzzles build|export`` (make and share sets) and ``spots puzzle`` (solve them in the terminal)."""

from __future__ import annotations

import argparse
import gettext
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..core import games
from ..core.webview import NP_
from ..i18n import N_
from .build import build, read_puzzles, shipped, write_puzzles
from .judge import MARGIN, Puzzle, kit_of
from .progress import Progress, default_path

__all__ = ["add_commands", "chosen", "solve"]

ASK = N_("Your move (its number or text; q to stop): ")
NOT_A_CHOICE = N_("{text} is not one of the choices: type 1 to {n} or a move as listed.")
PLAYED = N_("In the game, {player} played {move}.")
LEAD = N_("The lead of {margin} was confirmed by play-outs to the end on the same dice ({checked} ± {error}).")
KEPT = N_("Your puzzle rating: {rating}. Your progress is kept in {path}.")
RATED = N_("Your puzzle rating: {rating} ({change}).")
SOLVED = N_("Solved {solved} of {tried}.")
DECK = N_("Mistakes found by the coach: {mistakes}; clear enough to drill: {clear}; new in your review list: {new}.")
DUE = NP_("{n} position to review.", "{n} positions to review.")
NEXT_REVIEW = N_("Next review of this position: {when} UTC.")
NOTHING_UNTIL = N_("Nothing to review until {when} UTC.")
NOTHING = N_("Nothing to review: give 'spots drill' your game records to find your mistakes.")


def _seats(text: str) -> tuple[int, ...]:
    try:
        found = tuple(int(n) for n in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"seats per game, comma-separated (e.g. 2,3,4), not {text!r}") from None
    if not found:
        raise argparse.ArgumentTypeError("at least one number of seats")
    return found


def cmd_build(args: argparse.Namespace) -> int:
    if args.games < 1 or args.first < 0:
        raise ValueError(f"--games must be at least 1 and --first at least 0, not {args.games} and {args.first}")
    from ..cli import given_options

    options = given_options(args)
    seats = (options.pop("players"),) if "players" in options else args.seats
    started = time.monotonic()
    made = build(args.game or "spots", args.games, args.seed, seats, tuple(args.bots.split(",")), args.workers,
                 args.address, options, first=args.first)
    count = write_puzzles(Path(args.out), made.puzzles)
    refused = ", ".join(f"{n} {reason}" for reason, n in made.refused.most_common())
    print(f"{count} puzzles from {made.games} games in {time.monotonic() - started:.0f} s, written to {args.out}; "
          f"decisions turned down: {refused or 'none'}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    puzzles = shipped(args.game)
    if not puzzles:
        raise ValueError(f"no puzzle set comes with {games.get(args.game).title}")
    count = write_puzzles(Path(args.file), puzzles)
    print(f"{count} puzzles written to {args.file} (public domain: use them as you like)")
    return 0


def chosen(puzzles: list[Puzzle], theme: str | None, rating: int | None, seed: int) -> list[Puzzle]:
    """The puzzles of a theme (all where None), nearest the rating first (shuffled by the seed where None)."""
    found = [p for p in puzzles if theme is None or theme in p.themes]
    random.Random(seed).shuffle(found)
    if rating is not None:
        found.sort(key=lambda p: abs(p.rating - rating))
    return found


def _answer(text: str, legal: list[str]) -> str | None:
    """The move a player typed: its number in the list, or its text."""
    text = text.strip()
    if text.isdigit() and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    return text if text in legal else None


def solve(puzzles: list[Puzzle], read: Callable[[], str], out: TextIO,
          answered: Callable[[Puzzle, bool], str] | None = None, tr: Any = None) -> tuple[int, int]:
    """Each puzzle in turn until the input ends or says quit; returns (solved, tried). ``answered`` hears each
    result (and says a line: the new rating, the next review); ``tr`` the reader's language (default English)."""
    _ = (tr or gettext.NullTranslations()).gettext
    solved = tried = 0
    for puzzle in puzzles:
        spec = games.get(puzzle.game)
        state = spec.load_state(puzzle.state)
        legal = state.legal_actions()
        themes = ", ".join(_(kit_of(spec).theme_words.get(t, t)) for t in puzzle.themes)
        print("\n" + " · ".join((_("Puzzle {id}").format(id=puzzle.id),
                                  _("Puzzle rating: {rating}.").format(rating=puzzle.rating),
                                  _("Themes: {themes}.").format(themes=themes))), file=out)
        print(spec.render(state), file=out)
        print(_("Your choices") + ":", file=out)
        for number, move in enumerate(legal, 1):
            print(f"  {number}. {move}", file=out)
        picked = None
        while picked is None:
            print(_(ASK), end="", file=out, flush=True)
            text = read()
            if text == "" or text.strip().lower() in ("q", "quit"):
                return solved, tried
            picked = _answer(text, legal)
            if picked is None:
                print(_(NOT_A_CHOICE).format(text=repr(text.strip()), n=len(legal)), file=out)
        tried += 1
        solved += picked in puzzle.answers
        _tell(puzzle, spec, state, picked, out, _)
        if answered is not None:
            print(answered(puzzle, picked in puzzle.answers), file=out)
    return solved, tried


def _tell(puzzle: Puzzle, spec: Any, state: Any, picked: str, out: TextIO, _: Callable[[str], str]) -> None:
    """After an answer: right or not, every move's value, the mistake played in the game, the check, the reasons."""
    values = dict(puzzle.values)
    if picked in puzzle.answers:
        print(_("Right: {move} is the best move.").format(move=picked), file=out)
    else:
        lost = f"{values[puzzle.best] - values.get(picked, 0.0):.1%}"
        print(_("Not the best: {move} was, by {lost} of win chance.").format(move=puzzle.best, lost=lost), file=out)
    for move, win in puzzle.values:
        mark = "*" if move in puzzle.answers else " "
        print(f"  {mark} {move:<24} " + _("{win} to win").format(win=f"{win:.1%}"), file=out)
    if "played" in puzzle.source:  # a drill of one's own mistake
        print(_(PLAYED).format(player=puzzle.source.get("player", "?"), move=puzzle.source["played"]), file=out)
    print(_(LEAD).format(margin=f"{puzzle.margin:.1%}", checked=f"{puzzle.checked:.1%}",
                         error=f"{puzzle.checked_error:.1%}"), file=out)
    for text, fields in _reasons(spec, state, picked, puzzle.best):
        print("  " + _(text).format(**fields), file=out)


def _reasons(spec: Any, state: Any, picked: str, best: str) -> list[tuple[str, dict[str, str]]]:
    """The coach's facts that tell the move picked from the best (none where they are the same move)."""
    if picked == best or spec.coach is None:
        return []
    return list(spec.coach().reasons(state, picked, best))


def _progress_path(args: argparse.Namespace) -> Path:
    return Path(args.progress) if args.progress else default_path()


def _solve_keeping(puzzles: list[Puzzle], progress: Progress, path: Path, after: Callable[[Puzzle, bool], str],
                   tr: Any) -> int:
    """Solve in the terminal; after each answer ``after`` moves the progress (and says how), then it is saved, so
    stopping at any point loses nothing."""

    def answered(puzzle: Puzzle, solved: bool) -> str:
        line = after(puzzle, solved)
        progress.save(path)
        return line

    solved, tried = solve(puzzles, sys.stdin.readline, sys.stdout, answered, tr)
    print("\n" + tr.gettext(SOLVED).format(solved=solved, tried=tried))
    return 0


def _translator(args: argparse.Namespace) -> Any:
    from ..i18n import from_environment, translator

    return translator(args.lang or from_environment())


def cmd_puzzle(args: argparse.Namespace) -> int:
    kit = kit_of(games.get(args.game))
    if args.theme is not None and args.theme not in kit.theme_names:
        raise ValueError(f"unknown theme {args.theme!r}; the themes: {', '.join(kit.theme_names)}")
    path, tr = _progress_path(args), _translator(args)
    progress = Progress.load(path)
    puzzles = [p for p in (read_puzzles(Path(args.file)) if args.file else shipped(args.game)) if p.game == args.game]
    rating = args.rating if args.rating is not None else round(progress.solver.rating)
    fresh = [p for p in puzzles if p.id not in progress.tries]  # the ones not tried before come first
    again = [p for p in puzzles if p.id in progress.tries]
    picked = chosen(fresh, args.theme, rating, args.seed) + chosen(again, args.theme, rating, args.seed)
    if not picked:
        raise ValueError("no puzzle matches: try another --theme, or build some with 'spots puzzles build'")
    print(tr.gettext(KEPT).format(rating=f"{progress.solver.rating:.0f}", path=path))

    def rated(puzzle: Puzzle, solved: bool) -> str:
        change = progress.record(puzzle, solved)
        return str(tr.gettext(RATED).format(rating=f"{progress.solver.rating:.0f}", change=f"{change:+.0f}"))

    return _solve_keeping(picked, progress, path, rated, tr)


def cmd_drill(args: argparse.Namespace) -> int:
    from .drill import deck_of

    path, tr = _progress_path(args), _translator(args)
    progress = Progress.load(path)
    if args.records:
        deck = deck_of(args.records, args.seat)
        added = progress.add_drills(deck.puzzles)
        progress.save(path)
        print(tr.gettext(DECK).format(mistakes=deck.mistakes, clear=len(deck.puzzles), new=added))
    due = progress.due()
    if not due:
        coming = progress.next_due()
        print(tr.gettext(NOTHING_UNTIL).format(when=f"{coming:%Y-%m-%d %H:%M}") if coming else tr.gettext(NOTHING))
        return 0
    print(tr.ngettext(*DUE, len(due)).format(n=len(due)))

    def scheduled(puzzle: Puzzle, solved: bool) -> str:
        return str(tr.gettext(NEXT_REVIEW).format(when=f"{progress.review(puzzle, solved):%Y-%m-%d %H:%M}"))

    return _solve_keeping(due, progress, path, scheduled, tr)


def add_commands(sub: Any) -> None:
    """``spots puzzles`` and ``spots puzzle``."""
    from ..cli import add_game_options

    p = sub.add_parser("puzzles", help="puzzle sets: build one from bots' games, or export the shipped set")
    actions = p.add_subparsers(dest="action", required=True)
    b = actions.add_parser("build", help=f"bots play seeded games; keep each decision whose best move leads by "
                           f"{MARGIN * 100:.0f}%% or more, agreed and confirmed")
    add_game_options(b)  # --game, and rules options every game takes (--target 3: shorter games)
    b.add_argument("--games", type=int, default=20, help="games to play (default 20)")
    b.add_argument("--seed", type=int, default=0, help="the build's seed: the same seed, the same puzzles")
    b.add_argument("--first", type=int, default=0, help="the first game's number (default 0): a big build made in "
                   "parts, --first 0 --games 100 then --first 100, is the same as one")
    b.add_argument("--seats", type=_seats, default=(2, 3, 4), help="seats per game, cycled (default 2,3,4)")
    b.add_argument("--bots", default="greedy", help="the bots that play the games (default greedy)")
    b.add_argument("--workers", type=int, default=1, help="Ray workers (default 1: no Ray)")
    b.add_argument("--address", default=None, help="a Ray cluster's HOST:PORT instead of a local Ray")
    b.add_argument("--out", required=True, help="the file to write (one JSON object a line; .gz compresses)")
    b.set_defaults(run=cmd_build)
    e = actions.add_parser("export", help="write the shipped set, one JSON object a line (public domain)")
    e.add_argument("file")
    e.add_argument("--game", default="spots")
    e.set_defaults(run=cmd_export)
    p = sub.add_parser("puzzle", help="solve puzzles in the terminal: find the best move, see every move's value")
    p.add_argument("--game", default="spots")
    p.add_argument("--theme", default=None, help="only this theme's puzzles")
    p.add_argument("--rating", type=int, default=None, help="puzzles nearest this rating first")
    p.add_argument("--file", default=None, help="a puzzle file (default: the shipped set)")
    p.add_argument("--seed", type=int, default=0, help="the order of the puzzles")
    p.add_argument("--progress", default=None, help="your ratings and drill deck (default: "
                   "$XDG_DATA_HOME/spots/puzzles.json)")
    p.add_argument("--lang", default=None, help="en, es, vi or zh-Hant (default: from LANG)")
    p.set_defaults(run=cmd_puzzle)
    p = sub.add_parser("drill", help="drill your own mistakes (the coach's, in game records, that make clear "
                       "puzzles), spaced over days")
    p.add_argument("records", nargs="*", help="game records whose mistakes join your deck (a table's Record link, "
                   "or spots selfplay --out); none: review the deck's positions that are due")
    p.add_argument("--seat", default=None, help="only this player's mistakes (a name, or a seat number from 1)")
    p.add_argument("--progress", default=None, help="your ratings and drill deck (default: "
                   "$XDG_DATA_HOME/spots/puzzles.json)")
    p.add_argument("--lang", default=None, help="en, es, vi or zh-Hant (default: from LANG)")
    p.set_defaults(run=cmd_drill)
