"""``spots play`` for a game that brings no terminal of its own: any registered game, from its spec alone.

Why: a game plugged into the registry plays at the terminal at once. The screen shows the position as
the game renders it (``GameSpec.render``), lists its legal moves, tells each move in the game's words
(``describe_move``), ranks moves with its advisor (``advise``) and saves its record after every move;
chance events are drawn from a seeded generator. Its own words are English: a game that wants the
screen in the player's language gives its own terminal (``GameSpec.cli.terminal``), as Spots does.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Any

from rich.console import Console

from .. import i18n
from ..core.advice import format_advice
from ..core.errors import RulesError
from ..core.games import AnySpec, GameSpec, get, sniff
from .table import HUMAN, HUMAN_ALIASES, SeatedTable, TableScreen

HINTS = 5  # moves shown by 'hint'
HELP = ("Type a move as it is listed, or its number. Commands: hint (the best moves by the game's advisor), "
        "rules (the options of this game), undo (your own moves of this turn since the last chance event), "
        "save FILE, help, quit (the game is saved and can be continued).")


def table_class(spec: GameSpec) -> type[SeatedTable]:
    """A table of ``spec``'s game: its bots, and its record format when saved."""

    class GameTable(SeatedTable):
        make_bot = staticmethod(spec.make_bot)

        def save(self, path: Path) -> None:
            spec.record(self.state, self.seats, self.seed, self.seat_bots()).save(path)

    return GameTable


def check_seats(spec: GameSpec, seats: list[str], players: int) -> list[str]:
    """One seat per player: 'me' (a human) or one of the game's bots."""
    names = [HUMAN if s.lower() in HUMAN_ALIASES else s.lower() for s in seats]
    if len(names) != players:
        raise RulesError(f"{len(names)} seats given: this {spec.title} game is for {players} players, "
                         "give one --seat per player")
    for name in names:
        if name != HUMAN and name not in spec.bots:
            raise RulesError(f"unknown seat {name!r}: use 'me' for a human or a bot: {', '.join(spec.bots)}")
    return names


class GenericScreen(TableScreen):
    """The game at the terminal through its spec: the rendered position, the listed moves, its words."""

    HELP = HELP

    def __init__(self, spec: AnySpec, table: SeatedTable, console: Console, **kwargs: Any) -> None:
        super().__init__(table, console, **kwargs)
        self.spec = spec

    def names(self) -> list[str]:
        return [f"seat {i + 1} ({self.seat_word(name)})" for i, name in enumerate(self.table.seats)]

    def show(self, seat: int) -> None:
        self.say(self.spec.render(self.state))

    def hint(self) -> None:
        seed = self.table.seed + len(self.state.history())
        self.say(format_advice(self.spec.advise(self.state, seed=seed), limit=HINTS, tr=self.tr))

    def rules(self) -> None:
        self.say(f"{self.spec.title}: {self.spec.summary}")
        options = self.state.rules.to_dict()
        self.say(", ".join(f"{name} {value}" for name, value in options.items()))

    def game(self) -> GameSpec:
        return self.spec

    def _play(self, move: str | None) -> None:
        """Apply a move (a chance event drawn from the dice when None), tell the table, save; a bad move
        raises IllegalMoveError and changes nothing."""
        before = self.state.clone()
        if move is None:
            self.state.sample_chance(self.table.rng)
        else:
            self.state.apply_action(move, player=before.current_player())
        done = self.state.history()[-1]
        self.say("  " + self.spec.describe_move(before, done, self.state, self.names(), self.tr),
                 "cyan" if move is None else "")
        self._autosave()

    def run(self) -> int:
        self.say(f"{self.spec.title}: type 'help' at your prompt.")
        if not self._play_turns():
            return 0
        self.show(0)
        end = self.spec.outcome(self.state)
        who = "nobody" if end.winner is None else self.names()[end.winner]
        self.say(f"Game over ({end.ending}): {who} wins." if end.winner is not None else
                 f"Game over ({end.ending}).", "bold")
        return 0


def start(args: argparse.Namespace, rules: object | None) -> int:
    """``spots play --game NAME`` for a game without a terminal of its own (rules checked by the command line)."""
    console = Console(no_color=args.plain, highlight=False, emoji=False)
    tr = i18n.translator(getattr(args, "lang", None) or i18n.from_environment())
    if args.load:
        spec, doc = sniff(args.load)
        record = spec.records.parse(doc, args.load)
        state, seed = record.replay(args.load), record.seed or 0
        seats = args.seat or record.seats or []
    else:
        spec = get(args.game)
        state = spec.new_state(rules)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        seats = args.seat or [HUMAN, *[next(iter(spec.bots))] * (spec.seats(state.rules) - 1)]
    autosave = None if args.autosave == "" else Path(args.autosave or args.load or f"{spec.name}-autosave.json")
    table = table_class(spec)(state, check_seats(spec, seats, spec.seats(state.rules)), seed, autosave)
    return GenericScreen(spec, table, console, fast=args.fast, plain=True, ask=input, tr=tr).run()
