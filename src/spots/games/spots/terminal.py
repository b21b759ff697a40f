"""``spots play`` for Spots (its ``GameSpec.cli.terminal``): a game in the terminal, humans and bots at one table.

The program asks the engine for everything: which moves are legal, what a move
does, when the game ends. It only reads what players type, shows the table,
and saves the game record after every move (so closing the terminal loses
nothing; ``--load`` continues it).
"""

from __future__ import annotations

import gettext
import random
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from ... import bots, i18n
from ...play.table import HUMAN, HUMAN_ALIASES, SeatedTable, TableScreen, ask_or_stop
from . import Game, Rules, State, describe_move
from .advice import advise, format_advice
from .record import open_record, record_dict, save_record
from .terminal_view import board
from .tricks import N_, TILES

HELP = N_("""Type a move in the notation (e.g. 'trick walk', 'place 4 wilbur'), or its number from the list.
Commands: hint (ranked moves with bust odds), rules (the face-up tiles), undo (take back your moves
since the last roll or reveal), save FILE, help, quit (the game is saved and can be continued).""")


class Table(SeatedTable):
    """A Spots game in progress at the terminal."""

    state: State
    make_bot = staticmethod(bots.make)

    def record(self) -> dict[str, Any]:
        return record_dict(self.state, self.seats, self.seed, self.seat_bots())

    def save(self, path: Path) -> None:
        save_record(self.state, path, self.seats, self.seed, self.seat_bots())


def load_table(path: str | Path, seats: list[str] | None, autosave: Path | None) -> Table:
    """A saved game, replayed move by move; seats and seed come from the file unless given."""
    record = open_record(path)
    players = record.rules.players
    seats = seats or record.seats or [HUMAN] + ["greedy"] * (players - 1)
    seed = record.seed if record.seed is not None else random.SystemRandom().randrange(2**31)
    return Table(record.replay(str(path)), check_seats(seats, players), seed, autosave)


def check_seats(seats: list[str], players: int) -> list[str]:
    names = [HUMAN if s.lower() in HUMAN_ALIASES else s.lower() for s in seats]
    if len(names) != players:
        raise ValueError(f"{len(names)} seats given for {players} players: give one --seat per player")
    for name in names:
        if name != HUMAN and name not in bots.names():
            raise ValueError(f"unknown seat {name!r}: use 'me' for a human or a bot: {', '.join(bots.names())}")
    return names


def ask_seats(console: Console, ask: Any, tr: gettext.NullTranslations | None = None) -> list[str]:
    """The short interactive set-up when no seats are given."""
    _ = (tr or gettext.NullTranslations()).gettext
    while True:
        answer = ask(_("How many players (1-4)? [2] ")).strip() or "2"
        if answer in ("1", "2", "3", "4"):
            players = int(answer)
            break
        console.print(_("Please answer 1, 2, 3 or 4."))
    seats = []
    for seat in range(players):
        default = HUMAN if seat == 0 else "greedy"
        while True:
            answer = ask(_("Seat {seat}: 'me' or a bot ({bots})? [{default}] ").format(
                seat=seat + 1, bots=", ".join(bots.names()), default=default)).strip().lower()
            answer = answer or default
            try:
                seats.append(check_seats([answer], 1)[0])
                break
            except ValueError:  # the only thing wrong with one answer: not a seat
                console.print(_("unknown seat {name}: answer 'me' or a bot ({bots})").format(
                    name=repr(answer), bots=", ".join(bots.names())), markup=False, highlight=False)
    return seats


class TerminalGame(TableScreen):
    """One game of Spots at the terminal."""

    table: Table
    HELP = HELP

    @property
    def state(self) -> State:
        return self.table.state

    def show(self, seat: int | None = None) -> None:
        """The whole table (every player's dogs are public, so it looks the same to every seat)."""
        self.console.print(board(self.state, self.plain, self.who_list(), self.tr))

    def run(self) -> int:
        _ = self._
        n = len(self.table.seats)
        self.say(self.ngettext("Spots: {n} player, tricks {tricks}, target {target}. Type 'help' at your prompt.",
                               "Spots: {n} players, tricks {tricks}, target {target}. Type 'help' at your prompt.",
                               n).format(n=n, tricks=", ".join(_(TILES[t].title) for t in self.state.rules.tricks),
                                         target=self.state.rules.target))
        if self.table.autosave:
            self.say(_("The game is saved after every move to {file}.").format(file=self.table.autosave))
        if not self._play_turns():
            return 0
        self.show()
        self.summary()
        return 0

    def _play(self, move: str | None) -> None:
        """Apply a move (or a chance event when ``move`` is None), tell the table, save.

        An IllegalMoveError (a person's typo) leaves the state as it was.
        """
        before = self.state.clone()
        if move is None:
            move = before.clone().sample_chance(self.table.rng)  # draw without touching the state
            self.state.apply_action(move)
        else:
            self.state.apply_action(move, player=before.current_player())
            move = self.state.history()[-1]  # the canonical notation of what was typed
        self._autosave()  # before the pause: a Ctrl-C while a bot's move is shown loses nothing
        line = describe_move(before, move, self.state, self.names(), self.tr)
        if move.startswith("roll") or move.startswith("reveal"):
            if before.turn > 0:
                self.say("  " + line, "cyan")
        else:
            name = self.table.seats[before.seat]
            self.say("  " + line)
            if name != HUMAN and not self.fast:
                time.sleep(0.6)

    def names(self) -> list[str]:
        _ = self._
        return [_("Seat {seat} ({who})").format(seat=s + 1, who=who) for s, who in enumerate(self.who_list())]

    def who_list(self) -> list[str]:
        """Who sits where, for people: 'you' or which bot, in the player's language."""
        return [self.seat_word(who) for who in self.table.seats]

    def hint(self) -> None:
        self.say(format_advice(advise(self.state), tr=self.tr))

    def rules(self) -> None:
        """The text of the face-up tiles."""
        _ = self._
        for name, up in zip(self.state.rules.tricks, self.state.face_up, strict=True):
            if up:
                self.say(f"{_(TILES[name].title)}: {_(TILES[name].text)}")

    def summary(self) -> None:
        _, ngettext = self._, self.ngettext
        state = self.state
        if state.winner is not None:
            self.say(_("Seat {seat} ({who}) wins!").format(seat=state.winner + 1, who=self.who_list()[state.winner]),
                     "bold green")
        else:
            self.say(_("The turn limit ended the game."), "bold")
        self.say(ngettext("{n} turn.", "{n} turns.", state.turn).format(n=state.turn))
        for seat, player in enumerate(state.players):
            scored, busts = player.scored_count(), state.busts[seat]
            self.say("  " + _("Seat {seat} ({who}): {scored}, {busts}, result {result}").format(
                seat=seat + 1, who=self.who_list()[seat],
                scored=ngettext("{n} dog scored", "{n} dogs scored", scored).format(n=scored),
                busts=ngettext("{n} bust", "{n} busts", busts).format(n=busts),
                result=format(state.returns()[seat], "g")))


def start(args: Any, rules: Rules | None) -> int:
    """Entry point for ``spots play`` (arguments parsed by the CLI)."""
    console = Console(no_color=args.plain, highlight=False, emoji=False)
    tr = i18n.translator(getattr(args, "lang", None) or i18n.from_environment())
    plain = args.plain or not console.is_terminal or (console.encoding or "").lower() not in ("utf-8", "utf8")
    # The record is saved after every move: to --autosave, else to the loaded file, else a default file.
    default = args.load or "spots-autosave.json"
    autosave = None if args.autosave == "" else Path(args.autosave or default)
    if args.load:
        table = load_table(args.load, args.seat or None, autosave)
    else:
        assert rules is not None
        seats = (check_seats(args.seat, rules.players) if args.seat
                 else ask_or_stop(console, tr, lambda: ask_seats(console, input, tr)))
        if isinstance(seats, int):
            return seats
        if not args.seat and len(seats) != rules.players:
            rules = Rules(**{**rules.to_dict(), "players": len(seats)})
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        table = Table(Game(rules).new_initial_state(), seats, seed, autosave)
    return TerminalGame(table, console, fast=args.fast, plain=plain, tr=tr).play()
