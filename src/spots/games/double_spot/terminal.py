"""``spots play --game double-spot``: Double Spot in the terminal, humans and bots at one table.

The engine (``spots.games.double_spot``) decides everything: the legal moves (in the
notation, from the mover's side), what a move does and when the game ends.
This module only shows the board as the player to move sees it, reads moves and
commands, draws the chance events (die rolls, card reveals) from a seeded
generator, asks the players who claimed a card first under the ``first`` claim
rule, and saves the game record after every move (``--load`` continues it).
There is no undo: every drop is followed by a die roll, which would be seen again (``undo`` asks the
game's rule, ``GameSpec.takeback``, as every front end does, and says so).
"""

from __future__ import annotations

import gettext
import random
import time
from pathlib import Path
from typing import Any

from rich.console import Console

from ... import i18n
from ...play.table import HUMAN, HUMAN_ALIASES, SeatedTable, TableScreen, ask_or_stop
from . import Game, Rules, State
from .advice import Advice, advise
from .bots import BOTS, make
from .record import open_record, save_record
from .terminal_view import board
from .words import CLAIM_RULES, N_, describe_move, rules_summary

PLAYERS = 2
AUTOSAVE = "double-spot-autosave.json"
HINTS = 5  # drops shown by 'hint'

# Paragraphs without line breaks: the console wraps them to the terminal's width.
HELP = N_("Type a drop in the notation (e.g. 'drop 3 blue': column 3 from your left, blue toward you), or its "
          "number from the list. Commands: hint (the best drops with win estimates), rules (a short summary), "
          "save FILE, help, quit (the game is saved and can be continued). There is no undo: every drop is "
          "followed by a new roll of the die.")


def check_seats(seats: list[str]) -> list[str]:
    """Two seats: 'me' (a human) or a Double Spot bot name."""
    names = [HUMAN if s.lower() in HUMAN_ALIASES else s.lower() for s in seats]
    if len(names) != PLAYERS:
        raise ValueError(f"{len(names)} seats given: Double Spot is for {PLAYERS} players, give one --seat per player")
    for name in names:
        if name != HUMAN and name not in BOTS:
            raise ValueError(f"unknown seat {name!r}: use 'me' for a human or a bot: {', '.join(BOTS)}")
    return names


def ask_seats(console: Console, ask: Any, tr: gettext.NullTranslations | None = None) -> list[str]:
    """The short interactive set-up when no seats are given (Double Spot is always for two)."""
    _ = (tr or gettext.NullTranslations()).gettext
    seats = []
    for seat, default in enumerate((HUMAN, "greedy")):
        while True:
            answer = ask(_("Seat {seat}: 'me' or a bot ({bots})? [{default}] ").format(
                seat=seat + 1, bots=", ".join(BOTS), default=default)).strip().lower() or default
            try:
                seats.append(check_seats([answer, HUMAN])[0])
                break
            except ValueError:  # the only thing wrong with one answer: not a seat
                console.print(_("unknown seat {name}: answer 'me' or a bot ({bots})").format(
                    name=repr(answer), bots=", ".join(BOTS)), markup=False, highlight=False)
    return seats


def parse_claim(answer: str) -> int | None:
    """The seat index named by an answer to 'who claimed first?'; else None.

    People count seats from 1 (``1``, ``seat 2``); the move ``claim 0`` / ``claim 1`` keeps the notation's
    seat index.
    """
    words = answer.lower().split()
    if len(words) == 2 and words[0] == "claim" and words[1] in ("0", "1"):
        return int(words[1])
    if len(words) == 2 and words[0] == "seat":
        words = words[1:]
    if len(words) == 1 and words[0] in ("1", "2"):
        return int(words[0]) - 1
    return None


class Table(SeatedTable):
    """A Double Spot game in progress at the terminal."""

    state: State
    make_bot = staticmethod(make)

    def save(self, path: Path) -> None:
        save_record(self.state, path, self.seats, self.seed, self.seat_bots())


def new_table(rules: Rules, seats: list[str], seed: int, autosave: Path | None) -> Table:
    return Table(Game(rules).new_initial_state(), check_seats(seats), seed, autosave)


def load_table(path: str | Path, seats: list[str] | None, autosave: Path | None, seed: int | None = None) -> Table:
    """A saved game, replayed move by move: a corrupt or tampered file raises and nothing is played.

    Seats and seed come from the file unless given (a web record has neither: a human against greedy).
    """
    record = open_record(path)
    state = record.replay(str(path))
    if seed is None:
        seed = record.seed if record.seed is not None else random.SystemRandom().randrange(2**31)
    return Table(state, check_seats(seats or record.seats or [HUMAN, "greedy"]), seed, autosave)


class DoubleSpotGame(TableScreen):
    """One game of Double Spot at the terminal."""

    table: Table
    HELP = HELP

    @property
    def state(self) -> State:
        return self.table.state

    @property
    def seats(self) -> list[str]:
        return self.table.seats

    def who(self, seat: int) -> str:
        return self.seat_word(self.seats[seat])

    def name(self, seat: int) -> str:
        return self._("Seat {seat} ({who})").format(seat=seat + 1, who=self.who(seat))  # people count from 1

    def names(self) -> list[str]:
        return [self.name(s) for s in range(PLAYERS)]

    def show(self, seat: int) -> None:
        """The board and both face-up cards as ``seat`` sees them, both players' cards and the die."""
        self.console.print(board(self.state, seat, self.names(), self.plain, self.tr))

    def run(self) -> int:
        _ = self._
        rules = self.state.rules
        self.say(self.ngettext(
            "Double Spot: {columns} columns × {rows} rows, first to {n} card wins. Type 'help' at your prompt.",
            "Double Spot: {columns} columns × {rows} rows, first to {n} cards wins. Type 'help' at your prompt.",
            rules.target).format(columns=rules.columns, rows=rules.rows, n=rules.target))
        if rules.claim == "first" and HUMAN in self.seats:
            self.say(_(CLAIM_RULES["first"]))
        if self.table.autosave:
            self.say(_("The game is saved after every move to {file}.").format(file=self.table.autosave))
        if not self._play_turns():
            return 0
        self.summary()
        return 0

    def _chance(self) -> bool:
        """A claim race with a person at the table is theirs to call (``claim N``); other chance events are drawn."""
        if self.state.phase == "claim" and HUMAN in self.seats:
            seat = self._claim()
            if seat is None:
                return False
            self._play(f"claim {seat}")
        else:
            self._play(None)
        return True

    def _play(self, move: str | None) -> None:
        """Apply a move (a chance event drawn from the dice when ``move`` is None), tell the table, save."""
        before = self.state.clone()
        if move is None:
            self.state.sample_chance(self.table.rng)
        else:  # IllegalMoveError leaves the state as it was
            self.state.apply_action(move, player=before.current_player())
        move = self.state.history()[-1]  # the canonical notation of what was typed
        self._autosave()  # before the pause: a Ctrl-C while a bot's move is shown loses nothing
        line = "  " + describe_move(before, move, self.state, self.names(), self.tr)
        if before.is_chance_node():
            self.say(line, "cyan")
        else:
            self.say(line)
            if self.seats[before.seat] != HUMAN and not self.fast:
                time.sleep(0.6)

    def _claim(self) -> int | None:
        """Under the ``first`` claim rule: ask the players who claimed the card already on the board. None: quit."""
        _ = self._
        holder = self.state.claiming
        card = self.state.holders[holder] if holder is not None else None
        self.show(self.state.seat if self.seats[self.state.seat] == HUMAN else self.seats.index(HUMAN))
        self.say(_("Card {card} is already on the board: whoever claims it first takes it.").format(card=card),
                 "bold")
        while True:
            try:
                line = self.ask(_("Who claimed it first, seat 1 or 2? > ")).strip()
            except EOFError:
                self._stop(closed=True)
                return None
            seat = parse_claim(line)
            if seat is not None:
                return seat
            if line.lower() in ("quit", "exit"):
                self._stop(closed=False)
                return None
            self.say(_("Please answer 1 or 2: the seat that claimed the card first."), "red")

    def hint(self) -> None:
        """The drops ranked by the expectimax bot, with the chances behind each (exact, so repeatable)."""
        self.say(format_hints(advise(self.state, seed=self.table.seed + len(self.state.history())),
                              self.names(), self.state.seat, self.tr))

    def rules(self) -> None:
        for paragraph in rules_summary(self.state.rules, self.tr):
            self.say(paragraph)

    def summary(self) -> None:
        _ = self._
        state = self.state
        seat = self.seats.index(HUMAN) if HUMAN in self.seats else 0
        self.show(seat)
        if state.winner is not None:
            self.say(_("Seat {seat} ({who}) wins!").format(seat=state.winner + 1, who=self.who(state.winner)),
                     "bold green")
        else:
            n = state.scores()[0]
            self.say(self.ngettext("A draw: {n} card each.", "A draw: {n} cards each.", n).format(n=n), "bold")


def format_hints(advice: list[Advice], names: list[str], seat: int, tr: gettext.NullTranslations | None = None,
                 limit: int = HINTS) -> str:
    """The drops as a small table: rank (equal drops share one), score, then the chances behind it, in words."""
    tr = tr or gettext.NullTranslations()
    _ = tr.gettext
    if not advice:
        return _("No decision to advise on here.")
    opponent = names[1 - seat]
    heads = [_("rank"), _("move"), _("value"), _("what it does")]  # not inside the f-string: pybabel finds them
    w = [max(n, i18n.width(h)) for n, h in zip((4, 16, 9), heads, strict=False)]
    head = f"{i18n.pad(heads[0], w[0], True)}  {i18n.pad(heads[1], w[1])} {i18n.pad(heads[2], w[2], True)}  {heads[3]}"
    title = _("Hints for {who} (exact over the die; at a value of 50%, neither side gains; equal drops share a rank):")
    lines = [title.format(who=names[seat]), head]
    for a in advice[:limit]:
        done = []
        if a.takes:
            done.append(tr.ngettext("takes card {cards}", "takes cards {cards}", len(a.takes)).format(
                cards=" ".join(a.takes)))
        if a.result is not None:
            done.append(_("wins the game") if a.result == 1 else
                        _("ends the game in a draw") if a.result == 0.5 else _("ends the game, lost"))
        elif a.risk is not None:
            done.append(_("gives {who} a {chance} chance to finish a card on their roll").format(
                who=opponent, chance=f"{a.risk:.0%}") if a.risk else
                _("leaves {who} no card to finish with one disc").format(who=opponent))
        if a.next:
            done.append(_("then a {chance} chance for you to finish one on your next roll").format(
                chance=f"{a.next:.0%}"))
        lines.append(f"{a.rank:>{w[0]}}  {a.move:<{w[1]}} {a.value:>{w[2]}.0%}  {'; '.join(done)}")
    if len(advice) > limit:
        more = len(advice) - limit
        lines.append("      " + tr.ngettext("... and {n} more", "... and {n} more", more).format(n=more))
    return "\n".join(lines)


def start(args: Any, rules: Rules | None) -> int:
    """Entry point for ``spots play --game double-spot`` (arguments parsed and rules checked by the CLI)."""
    console = Console(no_color=args.plain, highlight=False, emoji=False)
    tr = i18n.translator(getattr(args, "lang", None) or i18n.from_environment())
    plain = args.plain or not console.is_terminal or (console.encoding or "").lower() not in ("utf-8", "utf8")
    # The record is saved after every move: to --autosave, else to the loaded file, else a default file.
    autosave = None if args.autosave == "" else Path(args.autosave or args.load or AUTOSAVE)
    if args.load:
        table = load_table(args.load, args.seat or None, autosave, args.seed)
    else:
        seats = check_seats(args.seat) if args.seat else ask_or_stop(console, tr, lambda: ask_seats(console, input, tr))
        if isinstance(seats, int):
            return seats
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        table = new_table(rules or Rules(), seats, seed, autosave)
    return DoubleSpotGame(table, console, fast=args.fast, plain=plain, tr=tr).play()
