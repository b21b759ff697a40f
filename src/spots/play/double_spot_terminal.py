"""``spots play --game double-spot``: Double Spot in the terminal, humans and bots at one table.

The engine (``spots.double_spot``) decides everything: the legal moves (in the
notation, from the mover's side), what a move does and when the game ends.
This module only shows the board as the player to move sees it, reads moves
and draws the chance events (die rolls, card reveals) from a seeded generator.
"""

from __future__ import annotations

import gettext
import random
import time
from typing import Any

from rich.console import Console

from .. import i18n
from ..core.errors import IllegalMoveError
from ..double_spot import State, render
from ..double_spot.bots import BOTS, make
from .view import moves_table

HUMAN = "me"
HUMAN_ALIASES = {"me", "human", "you"}
PLAYERS = 2


def check_seats(seats: list[str]) -> list[str]:
    """Two seats: 'me' (a human) or a Double Spot bot name."""
    names = [HUMAN if s.lower() in HUMAN_ALIASES else s.lower() for s in seats]
    if len(names) != PLAYERS:
        raise ValueError(f"{len(names)} seats given: Double Spot is for {PLAYERS} players, give one --seat per player")
    for name in names:
        if name != HUMAN and name not in BOTS:
            raise ValueError(f"unknown seat {name!r}: use 'me' for a human or a bot: {', '.join(BOTS)}")
    return names


class DoubleSpotGame:
    """One game of Double Spot at the terminal."""

    def __init__(self, seats: list[str], seed: int, console: Console, fast: bool = False, plain: bool = False,
                 ask: Any = input, tr: gettext.NullTranslations | None = None, state: State | None = None) -> None:
        self.tr = tr or gettext.NullTranslations()
        self._ = self.tr.gettext
        self.seats = seats
        self.seed = seed
        self.state = state if state is not None else State()
        self.rng = random.Random(seed)
        self.bots = [None if s == HUMAN else make(s, seed=seed * 10 + i) for i, s in enumerate(seats)]
        self.console = console
        self.fast = fast
        self.plain = plain
        self.ask = ask

    def say(self, text: str, style: str = "") -> None:
        self.console.print(text, style=None if self.plain or not style else style, markup=False, highlight=False)

    def who(self, seat: int) -> str:
        return self._("you") if self.seats[seat] == HUMAN else self.seats[seat]

    def name(self, seat: int) -> str:
        return self._("Seat {seat} ({who})").format(seat=seat, who=self.who(seat))

    def show(self, seat: int) -> None:
        """The board and cards as ``seat`` sees them, both players' won cards and the die."""
        _ = self._
        self.say(render(self.state, seat))
        for s in (seat, 1 - seat):
            self.say(_("Cards of {who}: {cards}").format(who=self.name(s), cards=" ".join(self.state.won[s]) or "-"))
        if self.state.die is not None:
            self.say(_("Die: {die}").format(die=self.state.die), "cyan")

    def run(self) -> int:
        _ = self._
        self.say(_("Double Spot: first to {target} cards wins. Type a move, its number from the list, or quit.")
                 .format(target=self.state.rules.target))
        while not self.state.is_terminal():
            if self.state.is_chance_node():
                move = self.state.sample_chance(self.rng)
                if move.startswith("reveal") or move.startswith("claim"):
                    self.say("  " + move, "cyan")
                continue
            seat = self.state.current_player()
            bot = self.bots[seat]
            if bot is None:
                if not self._human(seat):
                    return 0
                continue
            move = bot.choose(self.state)
            self.state.apply_action(move, player=seat)
            self.say(f"  {self.name(seat)}: {move}")
            if not self.fast:
                time.sleep(0.6)
        self.summary()
        return 0

    def _human(self, seat: int) -> bool:
        """One human decision. False: the player quit (or input closed)."""
        _ = self._
        self.show(seat)
        while True:
            moves = self.state.legal_actions()
            self.console.print(moves_table(moves), markup=False, highlight=False)
            try:
                line = self.ask(_("Seat {seat} > ").format(seat=seat)).strip()
            except EOFError:
                self.say(_("Input closed."))
                return False
            if not line:
                continue
            if line.lower() in ("quit", "exit"):
                self.say(_("Bye."))
                return False
            if line.isdigit():
                index = int(line)
                if not 1 <= index <= len(moves):
                    self.say(_("There is no move {index}: choose from 1 to {n}.").format(index=index, n=len(moves)),
                             "red")
                    continue
                line = moves[index - 1]
            try:
                self.state.apply_action(line, player=seat)
            except IllegalMoveError as exc:
                self.say(str(exc), "red")
                continue
            self.say(f"  {self.name(seat)}: {self.state.history()[-1]}")
            return True

    def summary(self) -> None:
        _ = self._
        state = self.state
        seat = self.seats.index(HUMAN) if HUMAN in self.seats else 0
        self.show(seat)
        if state.winner is not None:
            self.say(_("Seat {seat} ({who}) wins!").format(seat=state.winner, who=self.who(state.winner)),
                     "bold green")
        else:
            self.say(_("A draw: {n} cards each.").format(n=state.scores()[0]), "bold")


def start(args: Any) -> int:
    """Entry point for ``spots play --game double-spot`` (arguments parsed by the CLI)."""
    if getattr(args, "load", None):
        raise ValueError("--load is for Spots records; Double Spot games in the terminal are not saved")
    console = Console(no_color=args.plain, highlight=False, emoji=False)
    tr = i18n.translator(getattr(args, "lang", None) or i18n.from_environment())
    plain = args.plain or not console.is_terminal
    seats = check_seats(args.seat) if args.seat else [HUMAN, "greedy"]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    return DoubleSpotGame(seats, seed, console, fast=args.fast, plain=plain, tr=tr).run()
