"""The ``spots`` command: self-play, replaying records, showing positions."""

from __future__ import annotations

import argparse
import json
import random
import sys

from . import bots
from .double_spot import Rules as DoubleSpotRules
from .engine import TILES, Game, IllegalMoveError, Rules, RulesError, State, StateFormatError, render
from .engine.record import load_record, save_record
from .engine.tricks import SUGGESTED_SETS


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules options")
    group.add_argument("--players", type=int, default=None, help="1 to 4 (default 2, or one per --seat)")
    group.add_argument(
        "--tricks", default="beginner",
        help="a suggested set (beginner, " + ", ".join(SUGGESTED_SETS) + "), random, random:N, all, "
        "or a comma-separated list of tiles",
    )
    group.add_argument("--tricks-seed", type=int, default=None, help="seed for random trick sets")
    group.add_argument("--target", type=int, default=None, help="scored dogs to win (1, 3, 6, 8, 10, ...; default 6)")
    group.add_argument("--bust-limit", type=int, default=7)
    group.add_argument("--dice", type=int, default=40, help="dice in the supply")
    group.add_argument("--treats", type=int, default=20, help="treats in the supply")
    group.add_argument("--starting-treats", type=int, default=1)
    group.add_argument("--starting-dogs", type=int, default=2)
    group.add_argument("--turn-limit", type=int, default=1000, help="safety limit of turns")
    group.add_argument("--deck", default=None, help="a custom dog deck JSON file")


SPOTS_TARGET = 6
SPOTS_ONLY = ("players", "tricks", "tricks_seed", "bust_limit", "dice", "treats", "starting_treats", "starting_dogs",
              "turn_limit", "deck")
DOUBLE_SPOT_ONLY = ("columns", "rows", "discs", "claim", "lifts")


def add_double_spot_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "Double Spot rules options", "with --game double-spot; --target is then the cards to win (default 5)")
    group.add_argument("--columns", type=int, default=None, help="columns of the frame (3 to 20, default 8)")
    group.add_argument("--rows", type=int, default=None, help="rows of the frame (3 to 20, default 5)")
    group.add_argument("--discs", type=int, default=None,
                       help="discs of each kind (default: half the cells, rounded up)")
    group.add_argument("--claim", default=None,
                       help="who takes a new card whose pattern is already on the board: mover (default) or "
                       "first (the players say who claimed it first)")
    group.add_argument("--lifts", type=int, default=None,
                       help="house rule: times a full frame is lifted, its discs let fall, and play goes on "
                       "(default 0: a full frame ends the game)")


def double_spot_rules_from_args(args: argparse.Namespace) -> DoubleSpotRules:
    """Double Spot's options as given; ``Rules`` checks them and names a bad one."""
    options = {name: getattr(args, name) for name in (*DOUBLE_SPOT_ONLY, "target") if getattr(args, name) is not None}
    return DoubleSpotRules(**options)


def option_flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def game_of(args: argparse.Namespace) -> str:
    """The game to play: --game, else the game of the --load file, else Spots; options of the other game refused."""
    game = args.game or (record_game(args.load) if args.load else "spots")
    if game == "double-spot":
        defaults = argparse.ArgumentParser()
        add_rules_options(defaults)
        spots_default = vars(defaults.parse_args([]))
        given = [name for name in SPOTS_ONLY if getattr(args, name) != spots_default[name]]
        if given:
            raise ValueError(f"{option_flag(given[0])} is a Spots option; Double Spot's options are --columns, "
                             "--rows, --discs, --target and --claim")
    else:
        given = [name for name in DOUBLE_SPOT_ONLY if getattr(args, name) is not None]
        if given:
            raise ValueError(f"{option_flag(given[0])} is a Double Spot option: add --game double-spot")
    return game


def record_game(path: str) -> str:
    """Which game a saved file is for, by its "format" (Spots when it cannot tell: its reader says what is wrong)."""
    from .core.document import read_json
    from .engine.record import read_text

    try:
        doc = read_json(read_text(path), path)
    except StateFormatError:
        return "spots"
    fmt = doc.get("format") if isinstance(doc, dict) else None
    return "double-spot" if isinstance(fmt, str) and fmt.startswith("double-spot") else "spots"


def rules_from_args(args: argparse.Namespace) -> Rules:
    return Rules(
        players=args.players if args.players is not None else len(getattr(args, "seat", None) or []) or 2,
        tricks=args.tricks, tricks_seed=args.tricks_seed, target=SPOTS_TARGET if args.target is None else args.target,
        bust_limit=args.bust_limit, dice=args.dice, treats=args.treats,
        starting_treats=args.starting_treats, starting_dogs=args.starting_dogs,
        turn_limit=args.turn_limit, deck=args.deck,
    )


def cmd_selfplay(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    names = args.bots.split(",")
    if len(names) == 1:
        names *= rules.players
    if len(names) != rules.players:
        raise RulesError(f"--bots names {len(names)} bots for {rules.players} players")
    players = [bots.make(name, seed=args.seed * 10 + seat) for seat, name in enumerate(names)]
    state = Game(rules).new_initial_state()
    rng = random.Random(args.seed)
    while not state.is_terminal():
        if state.is_chance_node():
            move = state.sample_chance(rng)
            who = "chance"
        else:
            who = f"seat {state.current_player()}"
            move = players[state.current_player()].choose(state)
            state.apply_action(move)
        if not args.quiet:
            print(f"{len(state.history()):5d}  {who:<7} {move}")
    print(render(state))
    if args.out:
        save_record(state, args.out)
        print(f"record written to {args.out}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if record_game(args.file) == "double-spot":
        from .double_spot import render as render_double_spot
        from .double_spot.record import load_record as load_double_spot

        _record, ds_state = load_double_spot(args.file)
        print(f"{args.file}: {len(ds_state.history())} moves, all legal.")
        print(render_double_spot(ds_state))
        return 0
    state = load_record(args.file)
    print(f"{args.file}: {len(state.history())} moves, all legal.")
    print(render(state))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    state = load_position(args.file)
    print(render(state))
    if not state.is_terminal():
        print("Legal: " + ", ".join(state.legal_actions()[:40]))
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    from .arena import format_table, run_match, summarise, write_results

    rules = rules_from_args(args)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    if not names or len(names) > rules.players:
        raise ValueError(f"--bots needs 1 to {rules.players} bot names (one per seat), got {args.bots!r}")
    budget = parse_budget(args.budget)
    results = run_match(rules, names, args.games, seed=args.seed, jobs=args.jobs, budget=budget,
                        progress=not args.no_progress)
    print(f"{args.games} games, {rules.players} players, tricks {','.join(rules.tricks)}, seed {args.seed}, "
          f"seats rotated over: {', '.join(names)}")
    print(format_table(summarise(results), results))
    if args.out:
        write_results(results, args.out)
        print(f"per-game results written to {args.out}")
    return 0


def parse_budget(text: str | None) -> dict[str, dict[str, object]]:
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
        bots.make(name, **options)  # refuses an unknown bot or option now, not in a worker
    return budget


def load_position(path: str) -> State:
    """A saved state or a game record (replayed), whichever the file holds."""
    from .core.document import read_json
    from .engine.record import read_text

    doc = read_json(read_text(path), path)
    if isinstance(doc, dict) and doc.get("format") == "spots-state":
        return State.from_dict(doc)
    return load_record(path)


def cmd_hint(args: argparse.Namespace) -> int:
    from .advisor import advise, format_advice

    state = load_position(args.file)
    print(render(state))
    print()
    print(format_advice(advise(state, bot=args.bot, seed=args.seed), limit=args.limit))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    if game_of(args) == "double-spot":
        rules = None if args.load else double_spot_rules_from_args(args)  # a bad option stops here
        try:
            from .play.double_spot_terminal import start as start_double_spot
        except ImportError as exc:
            raise ValueError(f"spots play needs the 'play' extra: pip install 'spots[play]' ({exc})") from None
        return start_double_spot(args, rules)
    try:
        from .play.terminal import start
    except ImportError as exc:
        raise ValueError(f"spots play needs the 'play' extra: pip install 'spots[play]' ({exc})") from None
    return start(args, None if args.load else rules_from_args(args))


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .web.server import main as serve
    except ImportError as exc:
        raise ValueError(f"spots serve needs the 'web' extra: pip install 'spots[web]' ({exc})") from None
    return serve([o for o in args.options if o != "--"])


def cmd_tiles(args: argparse.Namespace) -> int:
    for tile in TILES.values():
        print(f"{tile.name:<10} {tile.colour:<7} {tile.text}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spots", description="Spots, the push-your-luck dice game about dogs.")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("selfplay", help="bots play a whole game from a seed; prints the record")
    add_rules_options(p)
    p.add_argument("--seed", type=int, default=0, help="seed of the dice, deal and bots")
    p.add_argument("--bots", default="greedy", help="bot names, comma-separated per seat (default greedy)")
    p.add_argument("--out", help="write the game record (JSON) to this file")
    p.add_argument("--quiet", action="store_true", help="print only the final position")
    p.set_defaults(run=cmd_selfplay)
    p = sub.add_parser("replay", help="check a game record (Spots or Double Spot) move by move and print the "
                       "final position")
    p.add_argument("file")
    p.set_defaults(run=cmd_replay)
    p = sub.add_parser("show", help="print a saved state or record as text")
    p.add_argument("file")
    p.set_defaults(run=cmd_show)
    p = sub.add_parser("arena", help="bots play a match with seats rotated; prints win rates and timings")
    add_rules_options(p)
    p.add_argument("--bots", required=True, help="comma-separated bot names, one per seat (the last is repeated)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--budget", help='per-bot options as JSON, e.g. \'{"mcts": {"iterations": 300}}\'')
    p.add_argument("--out", help="write raw per-game results (.json or .csv)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(run=cmd_arena)
    p = sub.add_parser("hint", help="rank the legal moves of a saved position, with bust chances")
    p.add_argument("file", help="a saved state (JSON) or a game record")
    p.add_argument("--bot", default="expectimax", help="the bot whose estimates rank the moves")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--limit", type=int, default=15, help="moves to show")
    p.set_defaults(run=cmd_hint)
    p = sub.add_parser("play", help="play in the terminal against bots or friends")
    p.add_argument("--game", choices=("spots", "double-spot"), default=None,
                   help="which game: spots (default, or the game of the --load file) or double-spot (2 players)")
    add_rules_options(p)
    add_double_spot_options(p)
    p.add_argument("--seat", action="append", default=[],
                   help="who sits in each seat, in order: 'me' for a human, or a bot name (repeat per seat)")
    p.add_argument("--seed", type=int, default=None, help="seed of the dice (default: unpredictable)")
    p.add_argument("--load", help="continue a saved game record (Spots or Double Spot)")
    p.add_argument("--autosave", default=None,
                   help="file the record is saved to after every move (default: the --load file, else "
                   "spots-autosave.json or double-spot-autosave.json; '' turns it off)")
    p.add_argument("--fast", action="store_true", help="no pause after bots' moves")
    p.add_argument("--plain", action="store_true", help="no colour, plain digits for dice")
    p.add_argument("--lang", default=None,
                   help="language: en, es, vi or zh-Hant (default: from LANG; unknown languages fall back to English)")
    p.set_defaults(run=cmd_play)
    p = sub.add_parser("serve", help="the web app: tables, friends, bots and replays (default 127.0.0.1:8000)",
                       add_help=False)
    p.add_argument("options", nargs=argparse.REMAINDER,
                   help="--host, --port, --db (SQLite file), --bot-delay, --durable; --help for all")
    p.set_defaults(run=cmd_serve)
    p = sub.add_parser("tiles", help="list the 22 trick tiles")
    p.set_defaults(run=cmd_tiles)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:  # the web server parses its own options
        argv = ["serve", "--", *argv[1:]]
    args = build_parser().parse_args(argv)
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
