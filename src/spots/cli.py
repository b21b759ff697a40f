"""The ``spots`` command: self-play, replaying records, showing positions, hints, matches and play, for every game.

Every subcommand that handles a game takes ``--game`` (default ``spots``; a file's own
game when it reads one). The rules flags are generated from the games' options schemas
(``spots.core.games``), so a new game or option needs nothing here.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .core.advice import format_advice
from .core.errors import IllegalMoveError, RulesError, StateFormatError
from .core.games import AnySpec, GameSpec, get, registry, sniff
from .core.options import Option
from .core.play import Watch, play_out
from .core.protocol import GameState
from .puzzles.cli import add_commands as add_puzzle_commands
from .tournaments.cli import add_commands as add_tournament_commands

DEFAULT_GAME = "spots"
OPTION_DEST = "option_"  # rules flags are stored as option_<name>, and only when given


# ---------------------------------------------------------------- rules flags from the options schemas


def schema_flags() -> dict[str, list[tuple[GameSpec, Option]]]:
    """Every rules option of every game, by name (a name two games share is one flag)."""
    flags: dict[str, list[tuple[GameSpec, Option]]] = {}
    for spec in registry().values():
        for option in spec.options:
            flags.setdefault(option.name, []).append((spec, option))
    return flags


def flag_type(option: Option) -> Callable[[str], Any]:
    return int if option.kind == "int" else str


def add_game_options(parser: argparse.ArgumentParser, files: bool = False) -> None:
    """``--game`` and the rules flags of every game (a flag of another game than ``--game`` is refused)."""
    games = registry()
    help_text = ("the game of the file (default: read from the file)" if files else
                 f"which game: {', '.join(games)} (default {DEFAULT_GAME})")
    parser.add_argument("--game", choices=list(games), default=None, help=help_text)
    if files:
        return
    group = parser.add_argument_group("rules options", "each game's own; the default is the game's")
    for name, owners in schema_flags().items():
        option = owners[0][1]
        kinds = {o.kind for _, o in owners}
        described = "; ".join(f"{spec.title}: {o.help} ({o.allowed()}{default_text(o)})" for spec, o in owners)
        group.add_argument(option.flag, dest=OPTION_DEST + name, type=flag_type(option) if len(kinds) == 1 else str,
                           default=argparse.SUPPRESS, metavar=option.name.upper(), help=described)


def default_text(option: Option) -> str:
    return "" if option.default is None else f", default {option.default}"


def given_options(args: argparse.Namespace) -> dict[str, Any]:
    return {k.removeprefix(OPTION_DEST): v for k, v in vars(args).items() if k.startswith(OPTION_DEST)}


def spec_of(args: argparse.Namespace) -> GameSpec:
    """The game of a command: ``--game``, else the game of the ``--load`` file, else Spots."""
    if args.game:
        return get(args.game)
    if getattr(args, "load", None):
        return sniff(args.load)[0]
    return get(DEFAULT_GAME)


def rules_from_args(spec: GameSpec, args: argparse.Namespace, seats: int | None = None) -> Any:
    """The game's rules from the flags given; another game's flag, or a bad value, is refused with what is allowed."""
    given = given_options(args)
    own = {o.name for o in spec.options}
    for name in given:
        if name not in own:
            flag = "--" + name.replace("_", "-")
            others = [s.title for s, _ in schema_flags()[name]]
            hint = f"add --game {schema_flags()[name][0][0].name}" if len(others) == 1 else ""
            if hint:
                raise RulesError(f"{flag} is a {others[0]} option: {hint}")
            raise RulesError(f"{flag} is not a {spec.title} option; its options are "
                             f"{', '.join(o.flag for o in spec.options)}")
    if seats is not None and "players" in own and "players" not in given:
        given["players"] = seats
    return spec.make_rules(**given)


def check_file_game(spec: GameSpec, args: argparse.Namespace, path: str) -> None:
    if args.game and get(args.game).name != spec.name:
        raise StateFormatError(f"{path} holds a {spec.title} game, not {get(args.game).title}")


# ---------------------------------------------------------------- commands


def cmd_games(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps([spec.to_json() for spec in registry().values()], indent=1))
        return 0
    for spec in registry().values():
        low, high = spec.players
        players = f"{low}" if low == high else f"{low}-{high}"
        print(f"{spec.name:<12} {spec.title}: {spec.summary}")
        print(f"{'':<12} players {players}; bots {', '.join(spec.bots)}")
        for option in spec.options:
            print(f"{'':<14}{option.flag:<19} {option.allowed() + default_text(option):<26} {option.help}")
    return 0


def cmd_selfplay(args: argparse.Namespace) -> int:
    spec = spec_of(args)
    rules = rules_from_args(spec, args)
    players = spec.seats(rules)
    names = args.bots.split(",")
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise RulesError(f"--bots names {len(names)} bots for {players} players")
    seated = [spec.make_bot(name, seed=args.seed * 10 + seat) for seat, name in enumerate(names)]
    dice = spec.table_dice(rules, random.Random(args.seed))  # the game's own dice (Spots' keyed: a deal), seeded
    state = play_out(spec.new_state(rules), seated, dice, None if args.quiet else MoveLog())
    print(spec.render(state))
    print(result_line(state.returns(), names))
    if args.out:
        spec.record(state, names, bots=list(names)).save(args.out)  # every seat a bot, named by its bot
        print(f"record written to {args.out}")
    return 0


def result_line(returns: list[float], names: list[str]) -> str:
    """Who won a finished game, seats counted from 0 as in the move log above it ('result: seat 1 (mcts) wins')."""
    best = max(returns)
    top = [seat for seat, value in enumerate(returns) if value == best]
    if len(top) == 1:
        return f"result: seat {top[0]} ({names[top[0]]}) wins"
    if len(top) == len(returns):
        return "result: a draw"
    return "result: a draw between seats " + ", ".join(f"{seat} ({names[seat]})" for seat in top)


class MoveLog(Watch):
    """``spots selfplay`` without ``--quiet``: each move as it is played, numbered, with who made it."""

    def move(self, state: GameState, seat: int, move: str, seconds: float) -> None:
        print(f"{len(state.history()):5d}  {'seat ' + str(seat):<7} {move}")

    def chance(self, state: GameState, outcome: str) -> None:
        print(f"{len(state.history()):5d}  {'chance':<7} {outcome}")


def cmd_replay(args: argparse.Namespace) -> int:
    spec, doc = sniff(args.file, args.game or DEFAULT_GAME)
    check_file_game(spec, args, args.file)
    state = spec.records.parse(doc, args.file).replay(args.file)
    print(f"{args.file}: {len(state.history())} moves, all legal.")
    print(spec.render(state))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Check a served game's dice: every chance event from the revealed seed and the salts, and the commitment."""
    spec, doc = sniff(args.file, args.game or DEFAULT_GAME)
    check_file_game(spec, args, args.file)
    record = spec.records.parse(doc, args.file)
    record.replay(args.file)  # every move legal first: a bad move is named like replay names it
    verdict = spec.verify_dice(record)
    print(f"{args.file}: {verdict.words}.")
    return 0 if verdict.ok else 1


def load_position(args: argparse.Namespace) -> tuple[AnySpec, GameState]:
    """The game and position of a saved state or record file (a record is replayed and checked)."""
    spec, doc = sniff(args.file, args.game or DEFAULT_GAME)
    check_file_game(spec, args, args.file)
    return spec, spec.load(doc, args.file)


def cmd_show(args: argparse.Namespace) -> int:
    spec, state = load_position(args)
    print(spec.render(state))
    if not state.is_terminal():
        print("Legal: " + ", ".join(state.legal_actions()[:40]))
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    spec, state = load_position(args)
    if args.bot is not None and args.bot not in spec.bots:
        raise ValueError(f"unknown bot {args.bot!r}; the bots are: {', '.join(spec.bots)}")
    print(spec.render(state))
    print()
    print(format_advice(spec.advise(state, seed=args.seed, bot=args.bot), limit=args.limit))
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    """The coach (``spots.analysis``): the per-player summary and mistakes; --json rows; --plot the chart."""
    from .analysis import analyse
    from .analysis.plot import check_plot_path, plot_chart
    from .analysis.words import format_report, to_json
    from .i18n import from_environment, translator

    if args.plot:
        check_plot_path(args.plot)  # a bad chart file is refused before the analysis
    spec, doc = sniff(args.file, args.game or DEFAULT_GAME)
    check_file_game(spec, args, args.file)
    report = analyse(spec.records.parse(doc, args.file), every_seat=args.all)
    if args.json == "-":
        sys.stdout.write(to_json(report))
    else:
        print(format_report(report, translator(args.lang or from_environment())))
        if args.json:
            Path(args.json).write_text(to_json(report), encoding="utf-8")
            print(f"rows written to {args.json}")
    if args.plot:
        plot_chart(report, args.plot)
        print(f"chart written to {args.plot}", file=sys.stderr if args.json == "-" else sys.stdout)
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from .arena import format_deals, format_table, run_match, summarise, write_results

    spec = spec_of(args)
    rules = rules_from_args(spec, args)
    players = spec.seats(rules)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not names or len(names) > players:
        raise ValueError(f"--bots needs 1 to {players} bot names (one per seat), got {args.bots!r}")
    budget = parse_budget(spec, args.budget)
    if args.duplicate and args.engine == "fast":
        raise ValueError("--duplicate plays on the reference engine's keyed dice; leave out --engine fast")
    if args.engine == "fast":  # the compiled simulator (spots[fast]): it says which games it plays
        from .fast import supports

        if not supports({"game": spec.name, "bots": []}):
            raise ValueError(f"--engine fast: the compiled simulator does not play {spec.title}")
        from .fast.arena import NOTE, run_fast_match

        results = run_fast_match(rules, names, args.games, seed=args.seed, budget=budget)
        print(NOTE)
    else:
        results = run_match(rules, names, args.games, seed=args.seed, jobs=args.jobs, budget=budget,
                            progress=not args.no_progress, duplicate=args.duplicate)
    details = "".join(f", {key} {','.join(map(str, value)) if isinstance(value, list) else value}"
                      for key, value in spec.summarize(spec.new_state(rules)).details.items())  # Spots: its tricks
    print(f"{spec.title}: {args.games} games, {players} players{details}, seed {args.seed}, "
          f"seats rotated over: {', '.join(names)}")
    print(format_table(summarise(results), results))
    if players > 1:
        keyed = "duplicate (keyed) dice, one deal per round; " if args.duplicate else ""
        print(keyed + format_deals(results, players))
    if args.out:
        write_results(results, args.out)
        print(f"per-game results written to {args.out}")
    return 0


def parse_budget(spec: GameSpec, text: str | None) -> dict[str, dict[str, object]]:
    """--budget: a JSON object mapping bot names to their options."""
    if not text:
        return {}
    try:
        budget = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--budget is not valid JSON: {exc.msg}") from None
    if not isinstance(budget, dict) or not all(isinstance(v, dict) for v in budget.values()):
        raise ValueError('--budget must map bot names to option objects, e.g. {"mcts": {"iterations": 300}}')
    for name, options in budget.items():
        spec.make_bot(name, **options)  # refuses an unknown bot or option now, not in a worker
    return budget


def cmd_play(args: argparse.Namespace) -> int:
    for spec in registry().values():  # a game's own way of playing, when asked for (Spots' --daily)
        for mode in spec.cli.play_modes:
            status = mode.start(args, given_options(args))
            if status is not None:
                return status
    spec = spec_of(args)
    rules = None if args.load else rules_from_args(spec, args, seats=len(args.seat) or None)  # bad options stop here
    try:
        own = spec.cli.terminal
        if own is None:  # a game without a terminal of its own
            from .play.generic import start as generic

            return generic(args, rules)
        return int(own(args, rules))
    except ImportError as exc:
        raise ValueError(f"spots play needs the 'play' extra: pip install 'spots[play]' ({exc})") from None


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .web.server import main as serve
    except ImportError as exc:
        raise ValueError(f"spots serve needs the 'web' extra: pip install 'spots[web]' ({exc})") from None
    return serve([o for o in args.options if o != "--"])


def cmd_users(args: argparse.Namespace) -> int:
    try:
        from .web.accounts.users import main as users
    except ImportError as exc:
        raise ValueError(f"spots users needs the 'web' extra: pip install 'spots[web]' ({exc})") from None
    return users([o for o in args.options if o != "--"])


def cmd_bot(args: argparse.Namespace) -> int:
    options = [o for o in args.options if o != "--"]
    if options[:1] != ["connect"]:
        raise ValueError("spots bot connect --bot NAME --server URL --token T: play a bot account on a server")
    try:
        from .botclient import main as connect
    except ImportError as exc:
        raise ValueError(f"spots bot connect needs the 'web' extra: pip install 'spots[web]' ({exc})") from None
    return connect(options[1:])


def cmd_fairplay(args: argparse.Namespace) -> int:
    try:
        from .web.fairplay.watch import main as fairplay
    except ImportError as exc:
        raise ValueError(f"spots fairplay needs the 'web' extra: pip install 'spots[web]' ({exc})") from None
    return fairplay([o for o in args.options if o != "--"])


def cmd_train(args: argparse.Namespace) -> int:
    from .rl.train_cli import main as train_main  # the trainer's options and logic live in spots.rl

    return train_main([o for o in args.options if o != "--"])


# ---------------------------------------------------------------- the parser


def add_play_parser(sub: Any) -> None:
    p = sub.add_parser("play", help="play in the terminal against bots or friends")
    add_game_options(p)
    bots = "; ".join(f"{name}: {', '.join(spec.bots)}" for name, spec in registry().items())
    p.add_argument("--seat", action="append", default=[],
                   help="who sits in each seat, in order: 'me' for a human, or a bot name (repeat per seat); the"
                   f" bots of each game: {bots} ('spots games' says more)")
    p.add_argument("--seed", type=int, default=None, help="seed of the dice (default: unpredictable)")
    p.add_argument("--load", help="continue a saved game record (its game is read from the file)")
    p.add_argument("--autosave", default=None,
                   help="file the record is saved to after every move (default: the --load file, else "
                   "<game>-autosave.json; '' turns it off)")
    p.add_argument("--fast", action="store_true", help="no pause after bots' moves")
    p.add_argument("--plain", action="store_true", help="no colour, plain digits for dice")
    p.add_argument("--lang", default=None,
                   help="language: en, es, vi or zh-Hant (default: from LANG; unknown languages fall back to English)")
    for spec in registry().values():  # each game's own ways of playing (``GameSpec.cli.play_modes``)
        for mode in spec.cli.play_modes:
            mode.add_options(p)
    p.set_defaults(run=cmd_play)


def add_game_commands(sub: Any) -> None:
    """Every registered game's own subcommands (``GameSpec.cli.commands``: Spots' ``tiles`` and ``solve``, ...)."""
    for spec in registry().values():
        for add in spec.cli.commands:
            known = set(sub.choices)
            try:
                add(sub)
            except argparse.ArgumentError as exc:  # a name taken by a shell's command or another game's
                raise ValueError(f"{spec.title}'s command clashes with another command of spots: {exc}") from None
            if set(sub.choices) == known:
                raise ValueError(f"{spec.title}'s command {add.__name__} added no subcommand")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spots", description="Spots, the push-your-luck dice game about dogs, "
                                     "and Double Spot: play, bots, records and matches.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("games", help="list the games with their players, bots and rules options")
    p.add_argument("--json", action="store_true", help="the registry's specs and options schemas as JSON")
    p.set_defaults(run=cmd_games)
    p = sub.add_parser("selfplay", help="bots play a whole game from a seed; prints the record")
    add_game_options(p)
    p.add_argument("--seed", type=int, default=0, help="seed of the dice, deal and bots")
    p.add_argument("--bots", default="greedy", help="bot names, comma-separated per seat (default greedy)")
    p.add_argument("--out", help="write the game record (JSON) to this file")
    p.add_argument("--quiet", action="store_true", help="print only the final position")
    p.set_defaults(run=cmd_selfplay)
    p = sub.add_parser("replay", help="check a game record move by move and print the final position")
    p.add_argument("file")
    add_game_options(p, files=True)
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("verify", help="check a served game's dice against the commitment shown before its first roll")
    p.add_argument("file", help="the game's record (the table's Record link, or GET /api/tables/<id>/record)")
    add_game_options(p, files=True)
    p.set_defaults(run=cmd_verify)
    p = sub.add_parser("show", help="print a saved state or record as text")
    p.add_argument("file")
    add_game_options(p, files=True)
    p.set_defaults(run=cmd_show)
    p = sub.add_parser("arena", help="bots play a match with seats rotated; prints win rates and timings")
    add_game_options(p)
    p.add_argument("--bots", required=True, help="comma-separated bot names, one per seat (the last is repeated)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--budget", help='per-bot options as JSON, e.g. \'{"mcts": {"iterations": 300}}\'')
    p.add_argument("--out", help="write raw per-game results (.json or .csv)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--duplicate", action="store_true",
                   help="keyed (duplicate) dice: each round of seatings shares one deal, less luck in the figures")
    p.add_argument("--engine", choices=("reference", "fast"), default="reference",
                   help='fast: the compiled simulator for random and greedy seats (pip install "spots[fast]")')
    p.set_defaults(run=cmd_arena)
    p = sub.add_parser("hint", help="rank the legal moves of a saved position (Spots: with bust chances)")
    p.add_argument("file", help="a saved state (JSON) or a game record")
    add_game_options(p, files=True)
    p.add_argument("--bot", default=None, help="the bot whose estimates rank the moves (default: the game's)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--limit", type=int, default=15, help="moves to show")
    p.set_defaults(run=cmd_hint)
    p = sub.add_parser("analyse", help="the coach: luck and play of a finished game's record, the biggest mistakes")
    p.add_argument("file", help="a finished game's record (or saved state)")
    add_game_options(p, files=True)
    p.add_argument("--json", default=None, metavar="FILE", help="write the report, one row per step, as JSON "
                   "('-': to stdout instead of the text)")
    p.add_argument("--plot", default=None, metavar="FILE", help="draw the win-chance chart (.png or .svg; matplotlib)")
    p.add_argument("--lang", default=None, help="language of the report: en, es, vi or zh-Hant (default: from LANG)")
    p.add_argument("--all", action="store_true", help="list every seat's mistakes, bots' too (default: people's)")
    p.set_defaults(run=cmd_analyse)
    add_play_parser(sub)
    add_puzzle_commands(sub)
    add_tournament_commands(sub)
    p = sub.add_parser("serve", help="the web app: tables, friends, bots and replays (default 127.0.0.1:8000)",
                       add_help=False)
    p.add_argument("options", nargs=argparse.REMAINDER,
                   help="--host, --port, --db (SQLite file), --bot-delay, --durable; --help for all")
    p.set_defaults(run=cmd_serve)
    p = sub.add_parser("users", help="the web server's accounts: list, disable, reset a password, delete, bot accounts",
                       add_help=False)
    p.add_argument("options", nargs=argparse.REMAINDER, help="--db, then list, disable, enable, reset or delete")
    p.set_defaults(run=cmd_users)
    p = sub.add_parser("bot", help="bot connect: play one of the bots as a bot account on a server (bot API)",
                       add_help=False)
    p.add_argument("options", nargs=argparse.REMAINDER, help="connect --bot NAME --server URL --token T")
    p.set_defaults(run=cmd_bot)
    p = sub.add_parser("fairplay", help="the web server's watch for assistance: listed accounts, evidence, marks",
                       add_help=False)
    p.add_argument("options", nargs=argparse.REMAINDER, help="--db, then list, show, mark or unmark")
    p.set_defaults(run=cmd_fairplay)
    sub.add_parser("study", help="balance studies on Ray: many games, Parquet rows, a report with plots "
                   "(spots study --list)", add_help=False)
    add_game_commands(sub)
    p = sub.add_parser("train", help="train a masked-PPO agent (the train extra; docs/rl.md)", add_help=False)
    p.add_argument("options", nargs=argparse.REMAINDER, help="--steps, --seed, --out, ...; --help for all")
    p.set_defaults(run=cmd_train)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["study"]:  # studies parse their own options (spots.study.cli)
        from .study.cli import main as study_main

        return study_main(argv[1:])
    if argv[:1] in (["serve"], ["train"], ["users"], ["fairplay"], ["bot"]):  # these parse their own options
        argv = [argv[0], "--", *argv[1:]]
    try:
        parser = build_parser()
    except ValueError as exc:  # a game's command that clashes with another
        print(f"spots: error: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except (IllegalMoveError, RulesError, StateFormatError, ValueError) as exc:
        print(f"spots: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"spots: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
